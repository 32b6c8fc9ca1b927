// Scores the retry-safety rules on the labelled real-code set (bench/quality): lints the
// labelled packages' files in place with the real ESLint and the plugin's `all` config,
// matches each report to the hand-made labels in labels.json, and prints precision and
// recall per rule, overall, per shape of receiver, and for the subset where the client
// lives in another module or is passed in as a parameter.
//
// Usage: npm run bench:quality                 (builds the plugin first)
//        node bench/quality/score.mjs [options] (uses eslint-plugin/dist as it is)
//   --plugin <dir>   a built plugin folder (with index.cjs) other than eslint-plugin/dist
//   --json           machine-readable result on stdout
//   --reports        also list every report with its verdict
//   --package <name> only this package (repeatable; figures then cover it alone)
//   --js-parser espree  lint the JavaScript files with ESLint's own parser, as a JavaScript
//                    project's config does by default (TypeScript files keep the TS parser)
//
// Files are linted where npm installed them (bench/quality/node_modules/<package>/…, or
// bench/corpus/node_modules/… for packages reused from the benchmark corpus), one ESLint
// instance per package with the package folder as its working directory, so relative
// imports resolve to the real neighbouring files. The packages' own eslint comments are
// ignored (allowInlineConfig: false). Missing packages are installed once with
// `npm ci --ignore-scripts`; nothing else touches the network.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';
import * as espree from 'espree';
import { ensureCorpusInstalled, findPackageFiles, getSourceType, corpusModulesDir } from '../corpus-files.mjs';
import { qualityPackages } from './packages.mjs';

const require = createRequire(import.meta.url);
const qualityDir = fileURLToPath(new URL('./', import.meta.url));
const qualityModulesDir = join(qualityDir, 'node_modules');
const rootDir = fileURLToPath(new URL('../../', import.meta.url));
const settings = { 'retry-safety': { documentdb: { engineVersion: '8.0.2' } } };
const subsetShapes = ['cross-module', 'parameter'];

function parseArguments(argv) {
  const options = { plugin: join(rootDir, 'eslint-plugin', 'dist'), json: false, reports: false, packages: [], jsParser: 'typescript' };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    const value = () => {
      if (argv[index + 1] === undefined) throw new Error(`${argument} needs a value`);
      index += 1;
      return argv[index];
    };
    if (argument === '--plugin') options.plugin = resolve(value());
    else if (argument === '--json') options.json = true;
    else if (argument === '--reports') options.reports = true;
    else if (argument === '--package') options.packages.push(value());
    else if (argument === '--js-parser') {
      options.jsParser = value();
      if (options.jsParser !== 'espree' && options.jsParser !== 'typescript') throw new Error(`--js-parser ${options.jsParser}: espree or typescript`);
    }
    else if (argument === '--help' || argument === '-h') {
      console.log('node bench/quality/score.mjs [--plugin <dir>] [--json] [--reports] [--js-parser espree|typescript] [--package <name>]...');
      process.exit(0);
    } else throw new Error(`unknown argument ${argument} (try --help)`);
  }
  const known = new Set(qualityPackages.map((pkg) => pkg.name));
  for (const name of options.packages) if (!known.has(name)) throw new Error(`--package ${name}: not in the set`);
  return options;
}

export function packageDir(pkg) {
  return join(pkg.source === 'corpus' ? corpusModulesDir : qualityModulesDir, pkg.name);
}

export function ensureInstalled(log) {
  if (qualityPackages.some((pkg) => pkg.source === 'corpus')) ensureCorpusInstalled({ log });
  const missing = qualityPackages.filter((pkg) => pkg.source === 'quality' && !existsSync(join(packageDir(pkg), 'package.json')));
  if (missing.length === 0) return;
  log(`Installing the labelled set (npm ci in bench/quality, scripts disabled; missing: ${missing.map((pkg) => pkg.name).join(', ')})…`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['ci', '--prefix', qualityDir, '--ignore-scripts', '--no-audit', '--no-fund', '--legacy-peer-deps'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const still = qualityPackages.filter((pkg) => pkg.source === 'quality' && !existsSync(join(packageDir(pkg), 'package.json')));
  if (still.length > 0) throw new Error(`bench/quality: npm ci finished but ${still.map((pkg) => pkg.name).join(', ')} is missing`);
}

function ratio(numerator, denominator) {
  return denominator === 0 ? null : numerator / denominator;
}

function formatRatio(value) {
  return value === null ? '—' : value.toFixed(2);
}

/**
 * The package's linted files (with line counts and module kinds) and an ESLint instance set
 * up to lint them in place with the plugin's `all` config.
 */
export function createPackageLinter(pkg, plugin, jsParser = 'typescript') {
  const dir = packageDir(pkg);
  const files = findPackageFiles(dir, pkg.include).map((file) => {
    const text = readFileSync(file.path, 'utf8');
    return { ...file, lines: text.split('\n').length, sourceType: getSourceType(file.relativePath, text) };
  });
  const byType = (type) => files.filter((file) => file.sourceType === type).map((file) => file.relativePath);
  const languageOptions = { parser: tsParser, ecmaVersion: 'latest' };
  const overrideConfig = [
    {
      files: ['**/*.{js,mjs,cjs,ts,mts,cts}'],
      languageOptions,
      linterOptions: { reportUnusedDisableDirectives: 'off' },
      plugins: { 'retry-safety': plugin },
      rules: plugin.configs.all[0].rules,
      settings,
    },
  ];
  if (jsParser === 'espree') overrideConfig.push({ files: ['**/*.{js,mjs,cjs}'], languageOptions: { parser: espree } });
  const moduleFiles = byType('module');
  const commonjsFiles = byType('commonjs');
  if (moduleFiles.length > 0) overrideConfig.push({ files: moduleFiles, languageOptions: { sourceType: 'module' } });
  if (commonjsFiles.length > 0) overrideConfig.push({ files: commonjsFiles, languageOptions: { sourceType: 'commonjs' } });
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig,
    allowInlineConfig: false,
    // Only the listed files are linted; the packages' own ignore files do not apply.
    ignore: false,
    cache: false,
    errorOnUnmatchedPattern: false,
  });
  return { dir, files, eslint };
}

/** Lints one package in place; returns its files (with line counts) and its messages. */
async function lintPackage(pkg, plugin, jsParser) {
  const { files, eslint } = createPackageLinter(pkg, plugin, jsParser);
  const results = await eslint.lintFiles(files.map((file) => file.relativePath));
  const messages = [];
  const fatal = [];
  for (const result of results) {
    const relativePath = files.find((file) => file.path === result.filePath)?.relativePath ?? result.filePath;
    for (const message of result.messages) {
      if (message.fatal || message.ruleId === null) {
        fatal.push({ package: pkg.name, file: relativePath, line: message.line, message: message.message });
        continue;
      }
      if (!message.ruleId.startsWith('retry-safety/')) continue;
      messages.push({
        package: pkg.name,
        file: relativePath,
        line: message.line,
        column: message.column,
        rule: message.ruleId.slice('retry-safety/'.length),
        message: message.message,
      });
    }
  }
  return { files, messages, fatal };
}

function withinLabel(report, label, tolerance) {
  if (report.package !== label.package || report.file !== label.file) return false;
  if (label.rule && report.rule !== label.rule) return false;
  const first = label.line - tolerance;
  const last = (label.endLine ?? label.line) + tolerance;
  return report.line >= first && report.line <= last;
}

/** Matches reports to labels; each report gets a verdict. */
export function score(reports, labelsFile, packageNames, heldOutRounds = new Map()) {
  const tolerance = labelsFile.tolerance ?? 2;
  const inSet = (entry) => packageNames.has(entry.package);
  const labels = labelsFile.labels.filter(inSet);
  const reviewed = (labelsFile.reviewed ?? []).filter(inSet);
  const ambiguous = (labelsFile.ambiguous ?? []).filter(inSet);
  const matched = new Map();
  const verdicts = [];
  // Nearest label first, so two labels a line apart each get their own report.
  const sorted = [...reports].sort((a, b) => a.package.localeCompare(b.package) || a.file.localeCompare(b.file) || a.line - b.line);
  for (const report of sorted) {
    const candidates = labels
      .filter((label) => withinLabel(report, label, tolerance))
      .sort((a, b) => Math.abs(a.line - report.line) - Math.abs(b.line - report.line));
    const free = candidates.find((label) => !matched.has(label.id));
    if (free) {
      matched.set(free.id, report);
      verdicts.push({ ...report, verdict: 'true positive', label: free.id });
    } else if (candidates.length > 0) {
      verdicts.push({ ...report, verdict: 'duplicate', label: candidates[0].id });
    } else if (reviewed.some((entry) => withinLabel(report, entry, tolerance))) {
      verdicts.push({ ...report, verdict: 'judged true' });
    } else if (ambiguous.some((entry) => withinLabel(report, entry, tolerance))) {
      verdicts.push({ ...report, verdict: 'ambiguous' });
    } else {
      verdicts.push({ ...report, verdict: 'false positive' });
    }
  }
  const rules = [...new Set([...labels.map((label) => label.rule), ...reports.map((report) => report.rule)])].sort();
  const tally = (filterLabel, filterReport) => {
    const tp = labels.filter((label) => filterLabel(label) && matched.has(label.id)).length;
    const fn = labels.filter((label) => filterLabel(label) && !matched.has(label.id)).length;
    const judged = verdicts.filter((v) => v.verdict === 'judged true' && filterReport(v)).length;
    const fp = verdicts.filter((v) => v.verdict === 'false positive' && filterReport(v)).length;
    return {
      labels: tp + fn,
      truePositives: tp,
      judgedTrue: judged,
      falsePositives: fp,
      falseNegatives: fn,
      precision: ratio(tp + judged, tp + judged + fp),
      recall: ratio(tp, tp + fn),
    };
  };
  const perRule = Object.fromEntries(rules.map((rule) => [rule, tally((l) => l.rule === rule, (r) => r.rule === rule)]));
  const overall = tally(() => true, () => true);
  // Packages added after the rules were shaped, labelled before any report was seen: one tally per round of them.
  const heldOut = Object.fromEntries(
    [...heldOutRounds].map(([round, names]) => [round, tally((label) => names.has(label.package), (report) => names.has(report.package))]),
  );
  const shapes = [...new Set(labels.map((label) => label.shape))].sort();
  const perShape = Object.fromEntries(
    shapes.map((shape) => {
      const of = labels.filter((label) => label.shape === shape);
      const found = of.filter((label) => matched.has(label.id)).length;
      return [shape, { labels: of.length, found, recall: ratio(found, of.length) }];
    }),
  );
  const subsetLabels = labels.filter((label) => subsetShapes.includes(label.shape));
  const subsetFound = subsetLabels.filter((label) => matched.has(label.id)).length;
  const subset = { shapes: subsetShapes, labels: subsetLabels.length, found: subsetFound, recall: ratio(subsetFound, subsetLabels.length) };
  const missed = labels.filter((label) => !matched.has(label.id));
  const lookalikes = (labelsFile.lookalikes ?? []).filter(inSet).map((entry) => ({
    ...entry,
    silent: !reports.some((report) => withinLabel(report, entry, tolerance)),
  }));
  return { tolerance, perRule, overall, heldOut, perShape, subset, missed, verdicts, lookalikes };
}

/** ESLint warns once per package folder that ships an old .eslintignore; it is not used here. */
export function silenceIgnoreFileWarnings() {
  const emitWarning = process.emitWarning.bind(process);
  process.emitWarning = (warning, ...rest) => {
    const name = typeof rest[0] === 'string' ? rest[0] : rest[0]?.type;
    if (name === 'ESLintIgnoreWarning') return;
    emitWarning(warning, ...rest);
  };
}

/** The built plugin in `dir` (a folder with index.cjs). */
export function loadBuiltPlugin(dir) {
  const pluginEntry = join(dir, 'index.cjs');
  if (!existsSync(pluginEntry)) throw new Error(`${pluginEntry} is missing: run \`npm run build\` first.`);
  return require(pluginEntry);
}

async function main() {
  silenceIgnoreFileWarnings();
  const options = parseArguments(process.argv.slice(2));
  const log = options.json ? (message) => console.error(message) : (message) => console.log(message);
  const plugin = loadBuiltPlugin(options.plugin);
  ensureInstalled(log);
  const labelsFile = JSON.parse(readFileSync(join(qualityDir, 'labels.json'), 'utf8'));
  const packages = qualityPackages.filter((pkg) => options.packages.length === 0 || options.packages.includes(pkg.name));

  const started = process.hrtime.bigint();
  const reports = [];
  const fatal = [];
  let fileCount = 0;
  let lineCount = 0;
  const perPackage = [];
  for (const pkg of packages) {
    const result = await lintPackage(pkg, plugin, options.jsParser);
    fileCount += result.files.length;
    const lines = result.files.reduce((sum, file) => sum + file.lines, 0);
    lineCount += lines;
    reports.push(...result.messages);
    fatal.push(...result.fatal);
    perPackage.push({ name: pkg.name, database: pkg.database, files: result.files.length, lines, reports: result.messages.length });
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const heldOutRounds = new Map();
  for (const pkg of packages.filter((entry) => entry.heldOut)) heldOutRounds.set(pkg.heldOut, (heldOutRounds.get(pkg.heldOut) ?? new Set()).add(pkg.name));
  const result = score(reports, labelsFile, new Set(packages.map((pkg) => pkg.name)), heldOutRounds);
  let pluginCommit;
  try {
    pluginCommit = execFileSync('git', ['-C', rootDir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['-C', rootDir, 'status', '--porcelain', '--', 'eslint-plugin/src'], { encoding: 'utf8' }).trim();
    if (dirty) pluginCommit += ' (eslint-plugin/src has uncommitted changes)';
  } catch {
    pluginCommit = 'unknown';
  }

  if (options.json) {
    console.log(JSON.stringify({ plugin: options.plugin, pluginCommit, packages: perPackage, files: fileCount, lines: lineCount, seconds, fatal, ...result }, null, 2));
    return;
  }

  const pad = (value, width) => String(value).padStart(width);
  console.log(`Retry Safety on the labelled real-code set (bench/quality)`);
  console.log(`plugin: ${options.plugin} (repository HEAD: ${pluginCommit})${options.jsParser === 'espree' ? '; JavaScript files parsed by espree' : ''}`);
  console.log(`${packages.length} packages, ${fileCount} files, ${lineCount} lines, linted in ${seconds.toFixed(1)} s; ${reports.length} reports; match tolerance ±${result.tolerance} lines`);
  if (fatal.length > 0) {
    console.log(`\nFiles that did not parse (${fatal.length}):`);
    for (const entry of fatal) console.log(`  ${entry.package}/${entry.file}:${entry.line} ${entry.message}`);
  }
  console.log('\nrule                                         labels   TP  judged   FP   FN  precision  recall');
  for (const [rule, row] of Object.entries(result.perRule)) {
    console.log(
      `${rule.padEnd(44)} ${pad(row.labels, 6)} ${pad(row.truePositives, 4)} ${pad(row.judgedTrue, 7)} ${pad(row.falsePositives, 4)} ${pad(row.falseNegatives, 4)} ${pad(formatRatio(row.precision), 10)} ${pad(formatRatio(row.recall), 7)}`,
    );
  }
  const o = result.overall;
  console.log(
    `${'overall'.padEnd(44)} ${pad(o.labels, 6)} ${pad(o.truePositives, 4)} ${pad(o.judgedTrue, 7)} ${pad(o.falsePositives, 4)} ${pad(o.falseNegatives, 4)} ${pad(formatRatio(o.precision), 10)} ${pad(formatRatio(o.recall), 7)}`,
  );
  for (const [round, h] of Object.entries(result.heldOut)) {
    console.log(
      `${`held-out round ${round} (labelled blind)`.padEnd(44)} ${pad(h.labels, 6)} ${pad(h.truePositives, 4)} ${pad(h.judgedTrue, 7)} ${pad(h.falsePositives, 4)} ${pad(h.falseNegatives, 4)} ${pad(formatRatio(h.precision), 10)} ${pad(formatRatio(h.recall), 7)}`,
    );
  }
  console.log('\nrecall by shape of the receiver:');
  for (const [shape, row] of Object.entries(result.perShape)) {
    console.log(`  ${shape.padEnd(14)} ${pad(row.found, 3)} / ${pad(row.labels, 3)}  ${formatRatio(row.recall)}`);
  }
  const s = result.subset;
  console.log(`\nclient in its own module or passed as a parameter (${s.shapes.join(' + ')}): recall ${formatRatio(s.recall)} (${s.found} / ${s.labels})`);
  const duplicates = result.verdicts.filter((v) => v.verdict === 'duplicate').length;
  const ambiguous = result.verdicts.filter((v) => v.verdict === 'ambiguous').length;
  if (duplicates + ambiguous > 0) console.log(`not counted: ${duplicates} second report(s) of a labelled problem, ${ambiguous} report(s) at places labelled ambiguous`);
  const silent = result.lookalikes.filter((entry) => entry.silent).length;
  console.log(`look-alikes kept silent: ${silent} / ${result.lookalikes.length}`);
  for (const entry of result.lookalikes.filter((e) => !e.silent)) console.log(`  REPORTED ${entry.package}/${entry.file}:${entry.line} ${entry.note}`);

  const falsePositives = result.verdicts.filter((v) => v.verdict === 'false positive');
  if (falsePositives.length > 0) {
    console.log(`\nfalse positives (${falsePositives.length}; if one is a real problem, judge it by reading the code and add it to "reviewed" in labels.json):`);
    for (const v of falsePositives) console.log(`  ${v.package}/${v.file}:${v.line} ${v.rule}: ${v.message.split('\n')[0].slice(0, 140)}`);
  }
  console.log(`\nmissed labels (${result.missed.length}):`);
  for (const label of result.missed) console.log(`  #${label.id} [${label.shape}] ${label.package}/${label.file}:${label.line} ${label.rule}: ${label.note}`);
  if (options.reports) {
    console.log('\nall reports:');
    for (const v of result.verdicts) console.log(`  ${v.verdict.padEnd(14)} ${v.package}/${v.file}:${v.line}:${v.column} ${v.rule}${v.label ? ` (label #${v.label})` : ''}`);
  }
  console.log('\nper package: files, lines, reports');
  for (const row of perPackage) console.log(`  ${row.name.padEnd(48)} ${row.database.padEnd(11)} ${pad(row.files, 3)} ${pad(row.lines, 6)} ${pad(row.reports, 4)}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  });
}
