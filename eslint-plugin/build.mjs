// Bundles the plugin into one CommonJS file: `require()` and `import` both load it,
// so it works from eslint.config.js (ESM) and eslint.config.cjs alike. Beside it, the
// import-free modules `constants`, `file-kinds` and `mask` (the masking of secrets in URIs)
// for the language server and the editor extension, which must not load ESLint, and the
// declarations, emitted from the sources by TypeScript. No source maps: the bundle is
// readable as it is (not minified, each module headed by its source path), and the
// package ships without them.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const pkg = JSON.parse(readFileSync(here('./package.json'), 'utf8'));
const srcDir = here('./src');
const distDir = here('./dist');
const typesDir = path.join(distDir, 'types');

rmSync(distDir, { recursive: true, force: true });

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: false,
  external: [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})],
  logLevel: 'warning',
};

await Promise.all([
  build({
    ...common,
    entryPoints: [path.join(srcDir, 'index.ts')],
    outfile: path.join(distDir, 'index.cjs'),
    // `module.exports` is the plugin, which carries the named exports (see src/entry.cts).
    footer: { js: 'module.exports = module.exports.default;' },
  }),
  build({
    ...common,
    entryPoints: [
      path.join(srcDir, 'constants.ts'),
      path.join(srcDir, 'file-kinds.ts'),
      { in: path.join(srcDir, 'analysis', 'connection-string', 'mask.ts'), out: 'mask' },
    ],
    outdir: distDir,
    outExtension: { '.js': '.cjs' },
  }),
]);

/**
 * Declarations of `entries` and of the files their declarations refer to, and nothing
 * more: the rules' types stay internal. Fails on any type error in what is emitted.
 */
function emitDeclarations(entries) {
  const { config } = ts.readConfigFile(here('../tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent({ compilerOptions: config.compilerOptions }, ts.sys, here('..'));
  const program = ts.createProgram(entries, {
    ...options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: srcDir,
    outDir: typesDir,
  });
  const pending = [...entries];
  const done = new Set();
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  while (pending.length > 0) {
    const fileName = pending.pop();
    if (done.has(fileName)) continue;
    done.add(fileName);
    const sourceFile = program.getSourceFile(fileName);
    if (!sourceFile) throw new Error(`${fileName} is not part of the program`);
    diagnostics.push(...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile));
    const result = program.emit(
      sourceFile,
      (outFile, text) => {
        mkdirSync(path.dirname(outFile), { recursive: true });
        writeFileSync(outFile, text);
        // Relative imports of the declaration: their files are emitted too.
        for (const [, specifier] of text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)) {
          const resolved = ts.resolveModuleName(specifier, fileName, program.getCompilerOptions(), ts.sys).resolvedModule;
          if (!resolved || resolved.isExternalLibraryImport) throw new Error(`${fileName}: cannot follow ${specifier}`);
          pending.push(resolved.resolvedFileName);
        }
      },
      undefined,
      true,
    );
    diagnostics.push(...result.diagnostics);
  }
  if (diagnostics.length > 0) {
    const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' };
    throw new Error(`Declarations failed:\n${ts.formatDiagnostics(diagnostics, host)}`);
  }
}

emitDeclarations(['entry.cts', 'constants.ts', 'file-kinds.ts', 'analysis/connection-string/mask.ts'].map((file) => path.join(srcDir, file)));
