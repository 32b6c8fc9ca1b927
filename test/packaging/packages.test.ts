// The packages as npm would publish them: what each tarball holds, and that each works
// once installed. The plugin's tarball goes into a project made with `npm init -y`
// (CommonJS), installed as the README says, configured with the README's own
// `eslint.config.mjs`, and linted by the real `eslint` CLI. The language server's tarball
// goes into an empty folder, with nothing beside it, and answers `--version`, `--help` and
// an LSP session. Offline: dependencies come from the repository's node_modules.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import plugin from '../../eslint-plugin/src/index';
import {
  childEnv,
  extractPackage,
  linkFromRepository,
  makeTempDir,
  packWorkspaces,
  readmeBlock,
  removeTempDirs,
  repo,
  runProjectEslint,
  type PackResult,
} from './support';

interface Manifest {
  name: string;
  version: string;
  repository?: { type: string; url: string; directory: string };
  homepage?: string;
  bugs?: { url: string };
  scripts?: Record<string, string>;
  files?: string[];
  exports?: Record<string, string | { types: string; default: string }>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const readManifest = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;

/** A limit the server package must stay under (it was 41.8 MB unpacked with its source map, 16.3 MB of it the bundle). */
const SERVER_UNPACKED_BUDGET = 10 * 1024 * 1024;

const docdbUri = 'mongodb://orders_app:Pw-in-the-env-file@orders.cluster-c1a2b3c4d5e6.eu-west-1.docdb.amazonaws.com:27017/orders?tls=true&retryWrites=false';

let packDir: string;
let packs: Map<string, PackResult>;

beforeAll(() => {
  for (const built of ['eslint-plugin/dist/index.cjs', 'server/dist/server.cjs']) {
    if (!existsSync(path.join(repo, built))) throw new Error(`${built} is missing: run npm run build first`);
  }
  packDir = makeTempDir('retry-safety-pack-');
  packs = new Map(packWorkspaces(['eslint-plugin', 'server'], packDir).map((result) => [result.name, result]));
});

afterAll(removeTempDirs);

const pluginPack = () => packs.get('eslint-plugin-retry-safety')!;
const serverPack = () => packs.get('retry-safety-language-server')!;

describe.each([
  ['eslint-plugin', 'eslint-plugin-retry-safety'],
  ['server', 'retry-safety-language-server'],
  ['extension', 'retry-safety'],
])('the %s manifest', (folder, name) => {
  const manifest = readManifest(path.join(repo, folder));

  it('is named, and says where the code, the home page and the issues are', () => {
    expect(manifest.name).toBe(name);
    expect(manifest.repository).toMatchObject({ type: 'git', directory: folder });
    expect(manifest.repository?.url).toMatch(/^(git\+)?https:\/\/github\.com\/retry-safety\/retry-safety\.git$/);
    expect(manifest.homepage).toBe(`https://github.com/retry-safety/retry-safety/tree/main/${folder}#readme`);
    expect(manifest.bugs?.url).toBe('https://github.com/retry-safety/retry-safety/issues');
  });

  it('has a README, the LICENSE of the repository and a CHANGELOG whose latest version is the package version', () => {
    const dir = path.join(repo, folder);
    expect(existsSync(path.join(dir, 'README.md'))).toBe(true);
    expect(readFileSync(path.join(dir, 'LICENSE'), 'utf8')).toBe(readFileSync(path.join(repo, 'LICENSE'), 'utf8'));
    const changelog = readFileSync(path.join(dir, 'CHANGELOG.md'), 'utf8');
    const latest = /^## \[?(\d+\.\d+\.\d+[^\]\s]*)/m.exec(changelog)?.[1];
    expect(latest, 'first version heading of CHANGELOG.md').toBe(manifest.version);
  });
});

describe('npm packages', () => {
  it('build before packing (prepack, vscode:prepublish), so a package never lacks dist/', () => {
    expect(readManifest(path.join(repo, 'eslint-plugin')).scripts?.prepack).toBe('node build.mjs');
    // The server's bundle includes the plugin's build, so it builds the plugin first.
    expect(readManifest(path.join(repo, 'server')).scripts?.prepack).toBe('node ../eslint-plugin/build.mjs && node build.mjs');
    // vsce runs vscode:prepublish before packaging the .vsix; it fails when the server is not built.
    expect(readManifest(path.join(repo, 'extension')).scripts?.['vscode:prepublish']).toBe('node build.mjs --require-server');
  });

  it('the .vsix ships the CHANGELOG and the licences of the bundled packages', () => {
    const shipped = readFileSync(path.join(repo, 'extension', '.vscodeignore'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('!'));
    expect(shipped).toEqual(expect.arrayContaining(['!CHANGELOG.md', '!LICENSE', '!README.md', '!dist/server.cjs', '!dist/THIRD-PARTY-NOTICES.txt']));
  });

  it('the plugin ships its README, LICENSE, CHANGELOG, docs and dist, with no source maps and no sources', () => {
    const files = pluginPack().files.map((file) => file.path);
    for (const file of ['README.md', 'LICENSE', 'CHANGELOG.md', 'package.json', 'dist/index.cjs']) expect(files).toContain(file);
    for (const id of Object.keys(plugin.rules)) expect(files).toContain(`docs/rules/${id}.md`);
    // Every entry point the package exports is in the tarball.
    const manifest = readManifest(path.join(repo, 'eslint-plugin'));
    for (const target of Object.values(manifest.exports ?? {}).flatMap((entry) => (typeof entry === 'string' ? [entry] : [entry.types, entry.default]))) {
      expect(files, target).toContain(target.replace(/^\.\//, ''));
    }
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(files.filter((file) => file.startsWith('src/') || (/\.[cm]?ts$/.test(file) && !/\.d\.[cm]?ts$/.test(file)))).toEqual([]);
  });

  it("the plugin's README links every rule's page", () => {
    const pluginReadme = readFileSync(path.join(repo, 'eslint-plugin', 'README.md'), 'utf8');
    const listed = [...pluginReadme.matchAll(/^- \[`([a-z-]+)`\]\((\S+)\)$/gm)];
    expect(listed.map(([, id]) => id).sort()).toEqual(Object.keys(plugin.rules).sort());
    for (const [, id, url] of listed) expect(url).toBe(plugin.rules[id as keyof typeof plugin.rules].meta.docs?.url);
  });

  it('the language server is self-contained, minified and small', () => {
    const manifest = readManifest(path.join(repo, 'server'));
    expect(manifest.dependencies ?? {}, 'runtime dependencies (the bundle holds them all)').toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
    const files = serverPack().files;
    expect(files.map((file) => file.path).sort()).toEqual(
      ['CHANGELOG.md', 'LICENSE', 'README.md', 'bin/retry-safety-language-server.js', 'dist/THIRD-PARTY-NOTICES.txt', 'dist/server.cjs', 'package.json'].sort(),
    );
    expect(serverPack().unpackedSize).toBeLessThan(SERVER_UNPACKED_BUDGET);
    const bundle = readFileSync(path.join(repo, 'server', 'dist', 'server.cjs'), 'utf8');
    expect(bundle.length / bundle.split('\n').length, 'characters per line of a minified bundle').toBeGreaterThan(1000);
    expect(/\/\/# sourceMappingURL=\S+\s*$/.test(bundle), 'a source map comment at the end of the bundle').toBe(false);
    // The licences of what the bundle holds go with it.
    const notices = readFileSync(path.join(repo, 'server', 'dist', 'THIRD-PARTY-NOTICES.txt'), 'utf8');
    for (const bundled of ['eslint@', 'typescript@', '@typescript-eslint/parser@', 'vscode-languageserver@']) expect(notices).toContain(bundled);
  });
});

describe('the README quick start in a project made with npm init -y', () => {
  let project: string;

  beforeAll(() => {
    project = makeTempDir('retry-safety-quick-start-');
    execFileSync('npm', ['init', '-y'], { cwd: project, env: childEnv(), stdio: 'ignore' });
    const manifest = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')) as { type?: string };
    expect(manifest.type ?? 'commonjs').toBe('commonjs');

    // The README's install command, with the tarball built above.
    const install = readmeBlock('install-from-tarball')
      .split('\n')
      .find((line) => line.startsWith('npm install --save-dev '));
    const specs = install!.replace('npm install --save-dev ', '').split(/\s+/);
    expect(specs.some((spec) => spec.endsWith(`/${pluginPack().filename}`)), 'the README installs the tarball npm pack writes').toBe(true);
    for (const spec of specs) {
      if (spec.endsWith('.tgz')) {
        const installed = extractPackage(path.join(packDir, pluginPack().filename), project);
        const { dependencies = {}, peerDependencies = {} } = readManifest(installed);
        for (const name of [...Object.keys(dependencies), ...Object.keys(peerDependencies)]) linkFromRepository(name, project);
      } else {
        linkFromRepository(spec, project);
      }
    }
    // The app's own driver (the rules read imports; they never load the driver).
    linkFromRepository('mongodb', project);

    writeFileSync(path.join(project, 'eslint.config.mjs'), readmeBlock('quick-start-config'));
    mkdirSync(path.join(project, 'src'));
    writeFileSync(path.join(project, 'src', 'db.ts'), `import { MongoClient } from 'mongodb';\n\nexport const client = new MongoClient(process.env.DOCDB_URI ?? '${docdbUri}');\n`);
    writeFileSync(
      path.join(project, 'src', 'archive.js'),
      `const { MongoClient } = require('mongodb');\n\nconst orders = new MongoClient(process.env.DOCDB_URI).db('shop').collection('orders');\n\nasync function archiveDelivered() {\n  await orders.updateMany({ status: 'delivered' }, { $set: { archived: true } });\n}\n\nmodule.exports = { archiveDelivered };\n`,
    );
    writeFileSync(path.join(project, '.env'), `PORT=3000\nDOCDB_URI=${docdbUri}\n`);
  });

  interface JsonResult {
    filePath: string;
    messages: { ruleId: string | null; message: string; fatal?: boolean }[];
  }
  const lint = (args: string[]) => {
    const run = runProjectEslint(project, ['--format', 'json', ...args]);
    if (run.status !== 0 && run.status !== 1) throw new Error(`eslint exited with ${run.status}: ${run.stderr}`);
    return JSON.parse(run.stdout) as JsonResult[];
  };
  const findings = (results: JsonResult[], file: string) =>
    results.find((result) => result.filePath.endsWith(file))?.messages.map((message) => message.ruleId) ?? [];

  it('npx eslint . reports with the README config in .ts, .js and .env files, and --fix fixes', () => {
    const before = lint(['.']);
    expect(before.flatMap((result) => result.messages).filter((message) => message.fatal)).toEqual([]);
    expect(findings(before, 'src/db.ts')).toEqual(['retry-safety/mongo-retry-writes-connection-string']);
    expect(findings(before, '.env')).toEqual(['retry-safety/mongo-retry-writes-connection-string']);
    expect(findings(before, 'src/archive.js')).toEqual(['retry-safety/mongo-no-non-retryable-write']);
    for (const message of before.flatMap((result) => result.messages)) expect(message.message).not.toContain('Pw-in-the-env-file');

    lint(['--fix', '.']);
    expect(readFileSync(path.join(project, '.env'), 'utf8')).toBe(`PORT=3000\nDOCDB_URI=${docdbUri.replace('&retryWrites=false', '')}\n`);
    expect(readFileSync(path.join(project, 'src', 'db.ts'), 'utf8')).not.toContain('retryWrites=false');
  });

  it('the same config as eslint.config.js fails there (the README says to use .mjs, or "type": "module")', () => {
    const other = makeTempDir('retry-safety-quick-start-js-');
    writeFileSync(path.join(other, 'package.json'), readFileSync(path.join(project, 'package.json')));
    execFileSync('ln', ['-s', path.join(project, 'node_modules'), path.join(other, 'node_modules')]);
    writeFileSync(path.join(other, 'eslint.config.js'), readmeBlock('quick-start-config'));
    writeFileSync(path.join(other, 'index.js'), 'module.exports = {};\n');
    const run = runProjectEslint(other, ['.']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/Cannot use import statement outside a module|SyntaxError/);
  });

  it('a CommonJS eslint.config.cjs loads the installed plugin with require()', () => {
    const other = makeTempDir('retry-safety-quick-start-cjs-');
    writeFileSync(path.join(other, 'package.json'), readFileSync(path.join(project, 'package.json')));
    execFileSync('ln', ['-s', path.join(project, 'node_modules'), path.join(other, 'node_modules')]);
    writeFileSync(
      path.join(other, 'eslint.config.cjs'),
      "const retrySafety = require('eslint-plugin-retry-safety');\n\nmodule.exports = [...retrySafety.configs.recommended, retrySafety.configs['connection-strings']];\n",
    );
    writeFileSync(path.join(other, '.env'), `DOCDB_URI=${docdbUri}\n`);
    const run = runProjectEslint(other, ['--format', 'json', '.']);
    expect(run.status, run.stderr).toBe(1);
    const results = JSON.parse(run.stdout) as JsonResult[];
    expect(findings(results, '.env')).toEqual(['retry-safety/mongo-retry-writes-connection-string']);
  });
});

describe('the language server installed on its own', () => {
  let bin: string;
  let version: string;

  beforeAll(() => {
    const project = makeTempDir('retry-safety-server-');
    const installed = extractPackage(path.join(packDir, serverPack().filename), project);
    const manifest = readManifest(installed);
    version = manifest.version;
    bin = path.join(installed, manifest.bin!['retry-safety-language-server']!);
    // Nothing else is installed: the package must need nothing else.
    expect(readdirSync(path.join(project, 'node_modules'))).toEqual(['retry-safety-language-server']);
  });

  const run = (args: string[]) => {
    try {
      return { status: 0, stdout: execFileSync(process.execPath, [bin, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }), stderr: '' };
    } catch (error) {
      const failure = error as { status: number; stdout: string; stderr: string };
      return { status: failure.status, stdout: failure.stdout, stderr: failure.stderr };
    }
  };

  it('--version prints its version and the versions bundled inside', () => {
    for (const flag of ['--version', '-v']) {
      const result = run([flag]);
      expect(result.status).toBe(0);
      expect(result.stdout.split('\n')[0]).toBe(`retry-safety-language-server ${version}`);
      expect(result.stdout).toContain(`eslint-plugin-retry-safety ${plugin.meta.version}`);
    }
  });

  it('--help prints the usage and exits 0; no transport is a usage error', () => {
    const help = run(['--help']);
    expect(help.status).toBe(0);
    for (const option of ['--stdio', '--node-ipc', '--socket=<port>', '--pipe=<name>', '--version']) expect(help.stdout).toContain(option);
    const none = run([]);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('Usage: retry-safety-language-server');
    expect(run(['--bogus']).stderr).toContain('Unknown argument: --bogus');
  });

  it('serves diagnostics over stdio', async () => {
    const child = spawn(process.execPath, [bin, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const published = new Promise<{ uri: string; diagnostics: { code?: string | number; message: string }[] }>((resolve) => {
      connection.onNotification('textDocument/publishDiagnostics', (params: { uri: string; diagnostics: { code?: string | number; message: string }[] }) => {
        if (params.diagnostics.length > 0) resolve(params);
      });
    });
    connection.listen();
    try {
      const settings = { retrySafety: { documentdb: { engineVersion: '8.0.2' } } };
      await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: settings });
      await connection.sendNotification('initialized', {});
      await connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: 'file:///project/.env', languageId: 'dotenv', version: 1, text: `DOCDB_URI=${docdbUri}\n` },
      });
      const params = await published;
      expect(params.uri).toBe('file:///project/.env');
      expect(String(params.diagnostics[0]?.code)).toContain('mongo-retry-writes-connection-string');
      expect(params.diagnostics[0]?.message).not.toContain('Pw-in-the-env-file');
      await connection.sendRequest('shutdown');
      await connection.sendNotification('exit');
    } finally {
      connection.dispose();
      child.kill();
    }
  });
});
