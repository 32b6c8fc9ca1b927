// How many findings carry a fix or a suggestion, and whether those edits hold up: on the
// labelled real-code set (bench/quality) and on examples/, prints per rule the share of
// findings that carry an autofix or a suggestion, then applies every fix and suggestion
// alone and counts those that fail a check (the result does not parse, its finding is
// still reported, another finding of ours appears, or — in TypeScript files — a new type
// error appears).
//
// Usage: npm run bench:fixes                   (builds the plugin first)
//        node bench/fixes.mjs [options]        (uses eslint-plugin/dist as it is)
//   --plugin <dir>   a built plugin folder (with index.cjs) other than eslint-plugin/dist
//   --set <name>     'quality' or 'examples' only
//   --json           machine-readable result on stdout
//   --list           also list every checked edit with its verdict
//   --missing        also list every finding that carries no fix or suggestion (file:line, rule, message)
//   --js-parser espree  lint the labelled set's JavaScript files with ESLint's own parser
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { checkEdits, createTypeChecker, isTypeScriptFile, tallyCoverage } from './fix-checks.mjs';
import { createPackageLinter, ensureInstalled, loadBuiltPlugin, silenceIgnoreFileWarnings } from './quality/score.mjs';
import { qualityPackages } from './quality/packages.mjs';

const rootDir = fileURLToPath(new URL('../', import.meta.url));
const examplesDir = join(rootDir, 'examples');

function parseArguments(argv) {
  const options = { plugin: join(rootDir, 'eslint-plugin', 'dist'), sets: ['quality', 'examples'], json: false, list: false, missing: false, jsParser: 'typescript' };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    const value = () => {
      if (argv[index + 1] === undefined) throw new Error(`${argument} needs a value`);
      index += 1;
      return argv[index];
    };
    if (argument === '--plugin') options.plugin = resolve(value());
    else if (argument === '--set') {
      const set = value();
      if (set !== 'quality' && set !== 'examples') throw new Error(`--set ${set}: 'quality' or 'examples'`);
      options.sets = [set];
    } else if (argument === '--json') options.json = true;
    else if (argument === '--list') options.list = true;
    else if (argument === '--missing') options.missing = true;
    else if (argument === '--js-parser') {
      options.jsParser = value();
      if (options.jsParser !== 'espree' && options.jsParser !== 'typescript') throw new Error(`--js-parser ${options.jsParser}: espree or typescript`);
    }
    else if (argument === '--help' || argument === '-h') {
      console.log('node bench/fixes.mjs [--plugin <dir>] [--set quality|examples] [--json] [--list] [--missing] [--js-parser espree|typescript]');
      process.exit(0);
    } else throw new Error(`unknown argument ${argument} (try --help)`);
  }
  return options;
}

/**
 * Lints `paths` with `eslint` and checks every edit; adds to `coverage`, adds the findings
 * that carry no edit to `missing` and returns the checked edits.
 */
async function measure(eslint, paths, coverage, missing, typeCheckerFor) {
  const results = await eslint.lintFiles(paths);
  const checked = [];
  for (const result of results) {
    tallyCoverage(result.messages, coverage);
    for (const message of result.messages) {
      if (!message.ruleId?.startsWith('retry-safety/') || message.fix || message.suggestions?.length) continue;
      missing.push({ file: result.filePath, line: message.line, rule: message.ruleId.slice('retry-safety/'.length), message: message.message });
    }
    if (!result.messages.some((message) => message.fix || message.suggestions?.length)) continue;
    const typeErrors = isTypeScriptFile(result.filePath) ? typeCheckerFor(result.filePath) : undefined;
    const relint = async (text) => (await eslint.lintText(text, { filePath: result.filePath }))[0]?.messages ?? [];
    for (const entry of await checkEdits({ text: result.source ?? '', messages: result.messages, relint, typeErrors })) {
      checked.push({ ...entry, file: result.filePath, text: undefined });
    }
  }
  return checked;
}

async function measureQuality(plugin, log, jsParser) {
  ensureInstalled(log);
  const coverage = new Map();
  const checked = [];
  const missing = [];
  const typeChecker = createTypeChecker();
  for (const pkg of qualityPackages) {
    const { dir, files, eslint } = createPackageLinter(pkg, plugin, jsParser);
    const packageMissing = [];
    for (const entry of await measure(eslint, files.map((file) => file.relativePath), coverage, packageMissing, typeChecker)) {
      checked.push({ ...entry, file: `${pkg.name}/${relative(dir, entry.file)}` });
    }
    missing.push(...packageMissing.map((entry) => ({ ...entry, file: `${pkg.name}/${relative(dir, entry.file)}` })));
  }
  return { coverage, checked, missing };
}

async function measureExamples(plugin) {
  const coverage = new Map();
  const missing = [];
  const eslint = new ESLint({ cwd: examplesDir, plugins: { 'retry-safety': plugin } });
  const typeChecker = createTypeChecker({ tsconfigPath: join(examplesDir, 'tsconfig.json') });
  const checked = (await measure(eslint, ['src'], coverage, missing, typeChecker)).map((entry) => ({ ...entry, file: relative(rootDir, entry.file) }));
  return { coverage, checked, missing: missing.map((entry) => ({ ...entry, file: relative(rootDir, entry.file) })) };
}

function printSet(name, { coverage, checked, missing }, showMissing) {
  const pad = (value, width) => String(value).padStart(width);
  const share = (row) => (row.findings === 0 ? '—' : `${Math.round((100 * row.withEdit) / row.findings)}%`);
  console.log(`\n${name}`);
  console.log('rule                                         findings  with fix or suggestion  share  edits checked  failing');
  const total = { findings: 0, withEdit: 0 };
  for (const [rule, row] of [...coverage].sort(([a], [b]) => a.localeCompare(b))) {
    const edits = checked.filter((entry) => entry.rule === rule);
    const failing = edits.filter((entry) => entry.failures.length > 0).length;
    total.findings += row.findings;
    total.withEdit += row.withEdit;
    console.log(`${rule.padEnd(44)} ${pad(row.findings, 8)} ${pad(row.withEdit, 23)} ${pad(share(row), 6)} ${pad(edits.length, 14)} ${pad(failing, 8)}`);
  }
  const failing = checked.filter((entry) => entry.failures.length > 0);
  console.log(`${'all rules'.padEnd(44)} ${pad(total.findings, 8)} ${pad(total.withEdit, 23)} ${pad(share(total), 6)} ${pad(checked.length, 14)} ${pad(failing.length, 8)}`);
  for (const entry of failing) console.log(`  FAILING ${entry.file}:${entry.line} ${entry.rule} (${entry.kind} "${entry.title}"): ${entry.failures.join('; ')}`);
  if (showMissing) for (const entry of missing) console.log(`  NO EDIT ${entry.file}:${entry.line} ${entry.rule}: ${entry.message}`);
}

async function main() {
  silenceIgnoreFileWarnings();
  const options = parseArguments(process.argv.slice(2));
  const log = options.json ? (message) => console.error(message) : (message) => console.log(message);
  const plugin = loadBuiltPlugin(options.plugin);
  const sets = {};
  if (options.sets.includes('quality')) sets.quality = await measureQuality(plugin, log, options.jsParser);
  if (options.sets.includes('examples')) sets.examples = await measureExamples(plugin);
  if (options.json) {
    const json = Object.fromEntries(
      Object.entries(sets).map(([name, set]) => [name, { coverage: Object.fromEntries(set.coverage), checked: set.checked, missing: set.missing }]),
    );
    console.log(JSON.stringify({ plugin: options.plugin, ...json }, null, 2));
    return;
  }
  console.log(`Fixes and suggestions of Retry Safety (plugin: ${options.plugin})`);
  if (sets.quality) printSet('labelled real-code set (bench/quality)', sets.quality, options.missing);
  if (sets.examples) printSet('examples/', sets.examples, options.missing);
  if (options.list) {
    for (const set of Object.values(sets)) {
      for (const entry of set.checked) console.log(`  ${entry.failures.length ? 'FAIL' : 'ok  '} ${entry.file}:${entry.line} ${entry.rule} ${entry.kind}: ${entry.title}`);
    }
  }
  const failing = Object.values(sets).reduce((sum, set) => sum + set.checked.filter((entry) => entry.failures.length > 0).length, 0);
  console.log(`\nfailing fixes and suggestions: ${failing}`);
  process.exitCode = failing > 0 ? 1 : 0;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
