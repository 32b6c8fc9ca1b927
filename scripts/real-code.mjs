// Runs every retry-safety rule (the `all` config, untyped) over the real projects of
// the benchmark corpus (bench/corpus: parse-server, agenda, connect-mongo, @keyv/*,
// dynamoose, pg-boss, …) and prints each finding grouped by rule, with the source line,
// so each can be reviewed by reading the code (see bench/REAL-CODE-REVIEW.md).
//
// Usage: npm run build && node scripts/real-code.mjs [options]
//   --json               machine-readable output on stdout
//   --all-packages       also lint the drivers and SDKs (mongodb, mongoose, pg, AWS SDK)
//   --package <name>     only this package (repeatable)
//   --rule <id>          only findings of this rule (repeatable; `retry-safety/` optional)
//   --engine-version <v> settings["retry-safety"].documentdb.engineVersion (default: unset)
//   --context <n>        print n lines of code around each finding (text output)
//
// Inline eslint comments of the linted code are ignored (they name the projects' own
// rules). A file that does not parse, or on which a rule throws, is reported separately and
// never stops the run. Exit code 1 when a rule threw (a plugin bug), 0 otherwise.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Linter } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';
import {
  corpusModulesDir,
  corpusPackages,
  ensureCorpusInstalled,
  getInstalledVersion,
  loadCorpus,
} from '../bench/corpus-files.mjs';

const require = createRequire(import.meta.url);
const rootDir = fileURLToPath(new URL('..', import.meta.url));
const pluginPath = fileURLToPath(new URL('../eslint-plugin/dist/index.cjs', import.meta.url));

function parseArguments(argv) {
  const options = { json: false, allPackages: false, packages: [], rules: [], engineVersion: undefined, context: 0 };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    const takeValue = () => {
      const value = argv[index + 1];
      if (value === undefined) throw new Error(`${argument} needs a value`);
      index += 1;
      return value;
    };
    if (argument === '--json') options.json = true;
    else if (argument === '--all-packages') options.allPackages = true;
    else if (argument === '--package') options.packages.push(takeValue());
    else if (argument === '--rule') options.rules.push(takeValue().replace(/^retry-safety\//, ''));
    else if (argument === '--engine-version') options.engineVersion = takeValue();
    else if (argument === '--context') {
      options.context = Number(takeValue());
      if (!Number.isInteger(options.context) || options.context < 0) throw new Error('--context needs a count of lines');
    }
    else if (argument === '--help' || argument === '-h') {
      console.log(
        'node scripts/real-code.mjs [--json] [--all-packages] [--package <name>]... [--rule <id>]... [--engine-version <v>] [--context <n>]',
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${argument} (try --help)`);
  }
  const known = new Set(corpusPackages.map((pkg) => pkg.name));
  for (const name of options.packages) {
    if (!known.has(name)) throw new Error(`--package ${name}: not in the corpus (${[...known].join(', ')})`);
  }
  return options;
}

function errorSummary(error) {
  if (!(error instanceof Error)) return String(error);
  const frame = (error.stack ?? '').split('\n').find((line) => line.includes('index.cjs'));
  return `${error.message.split('\n')[0]}${frame ? ` (${frame.trim()})` : ''}`;
}

function main() {
  const options = parseArguments(process.argv.slice(2));
  if (!existsSync(pluginPath)) {
    throw new Error('eslint-plugin/dist/index.cjs is missing: run `npm run build` first.');
  }
  ensureCorpusInstalled();
  const plugin = require(pluginPath);
  const allRules = plugin.configs.all[0].rules;
  const unknownRules = options.rules.filter((id) => !(`retry-safety/${id}` in allRules));
  if (unknownRules.length > 0) throw new Error(`unknown rule(s): ${unknownRules.join(', ')}`);

  const settings =
    options.engineVersion === undefined
      ? {}
      : { 'retry-safety': { documentdb: { engineVersion: options.engineVersion } } };
  const configFor = (rules, sourceType) => [
    {
      files: ['**/*.{js,mjs,cjs,ts,mts,cts}'],
      languageOptions: { parser: tsParser, sourceType, ecmaVersion: 'latest' },
      linterOptions: { reportUnusedDisableDirectives: 'off' },
      plugins: { 'retry-safety': plugin },
      rules,
      settings,
    },
  ];

  const files = loadCorpus(options.allPackages ? {} : { kinds: ['project'] }).filter(
    (file) => options.packages.length === 0 || options.packages.includes(file.packageName),
  );
  // The corpus's node_modules as the folder: ESLint would otherwise ignore files under it.
  const linter = new Linter({ cwd: corpusModulesDir });
  const findings = [];
  const parseFailures = [];
  const ruleCrashes = [];

  const textByFile = new Map();
  const record = (file, messages) => {
    for (const message of messages) {
      if (message.fatal || message.ruleId === null) continue;
      const ruleId = message.ruleId.replace(/^retry-safety\//, '');
      if (options.rules.length > 0 && !options.rules.includes(ruleId)) continue;
      findings.push({
        package: file.packageName,
        file: file.relativePath,
        path: `bench/corpus/node_modules/${file.packageName}/${file.relativePath}`,
        line: message.line,
        column: message.column,
        endLine: message.endLine,
        endColumn: message.endColumn,
        rule: ruleId,
        severity: message.severity === 2 ? 'error' : 'warn',
        message: message.message,
        source: (file.text.split('\n')[message.line - 1] ?? '').trim(),
        fix: Boolean(message.fix),
        suggestions: (message.suggestions ?? []).map((suggestion) => suggestion.desc),
      });
      textByFile.set(`${file.packageName}/${file.relativePath}`, file.text);
    }
  };

  for (const file of files) {
    // The real path, so the module index reads the modules the file imports.
    const virtualPath = file.path;
    const verifyOptions = { filename: virtualPath, allowInlineConfig: false };
    let messages;
    try {
      messages = linter.verify(file.text, configFor(allRules, file.sourceType), verifyOptions);
    } catch {
      // Some rule threw: run the rules one by one to name it and keep the others' findings.
      messages = [];
      for (const [ruleId, level] of Object.entries(allRules)) {
        try {
          messages.push(...linter.verify(file.text, configFor({ [ruleId]: level }, file.sourceType), verifyOptions));
        } catch (error) {
          ruleCrashes.push({
            package: file.packageName,
            file: file.relativePath,
            rule: ruleId.replace(/^retry-safety\//, ''),
            error: errorSummary(error),
          });
        }
      }
    }
    const fatal = messages.find((message) => message.fatal);
    if (fatal) {
      parseFailures.push({
        package: file.packageName,
        file: file.relativePath,
        line: fatal.line,
        column: fatal.column,
        message: fatal.message,
      });
      continue;
    }
    const notice = messages.find((message) => message.ruleId === null);
    if (notice) throw new Error(`ESLint did not lint ${virtualPath}: ${notice.message}`);
    record(file, messages);
  }

  findings.sort(
    (x, y) =>
      x.rule.localeCompare(y.rule) ||
      x.package.localeCompare(y.package) ||
      x.file.localeCompare(y.file) ||
      x.line - y.line ||
      x.column - y.column,
  );
  const packagesLinted = [...new Set(files.map((file) => file.packageName))];
  const byRule = {};
  for (const id of Object.keys(allRules)) byRule[id.replace(/^retry-safety\//, '')] = 0;
  for (const finding of findings) byRule[finding.rule] += 1;
  const byPackage = Object.fromEntries(packagesLinted.map((name) => [name, 0]));
  for (const finding of findings) byPackage[finding.package] += 1;

  if (options.json) {
    const report = {
      packages: packagesLinted.map((name) => ({ name, version: getInstalledVersion(name) })),
      files: files.length,
      lines: files.reduce((sum, file) => sum + file.lines, 0),
      counts: { findings: findings.length, byRule, byPackage },
      findings,
      parseFailures,
      ruleCrashes,
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const lines = files.reduce((sum, file) => sum + file.lines, 0);
    console.log(`Real code: ${files.length} files, ${lines.toLocaleString('en-US')} lines`);
    console.log(`Packages: ${packagesLinted.map((name) => `${name}@${getInstalledVersion(name)}`).join(', ')}`);
    for (const [rule, count] of Object.entries(byRule)) {
      if (count === 0) continue;
      console.log(`\n== ${rule} (${count})`);
      for (const finding of findings.filter((item) => item.rule === rule)) {
        console.log(`  ${finding.package}  ${finding.file}:${finding.line}:${finding.column}  [${finding.severity}]`);
        console.log(`    ${finding.message}`);
        if (options.context === 0) {
          console.log(`    > ${finding.source.length > 160 ? `${finding.source.slice(0, 157)}...` : finding.source}`);
          continue;
        }
        const codeLines = (textByFile.get(`${finding.package}/${finding.file}`) ?? '').split('\n');
        const first = Math.max(1, finding.line - options.context);
        const last = Math.min(codeLines.length, (finding.endLine ?? finding.line) + options.context);
        for (let line = first; line <= last; line += 1) {
          const marker = line >= finding.line && line <= (finding.endLine ?? finding.line) ? '>' : ' ';
          console.log(`    ${marker}${String(line).padStart(5)}| ${codeLines[line - 1]}`);
        }
      }
    }
    console.log('\nFindings per rule:');
    for (const [rule, count] of Object.entries(byRule)) console.log(`  ${String(count).padStart(4)}  ${rule}`);
    console.log('Findings per package:');
    for (const [name, count] of Object.entries(byPackage)) console.log(`  ${String(count).padStart(4)}  ${name}`);
    console.log(`Total findings: ${findings.length}`);
    console.log(`Parse failures: ${parseFailures.length}`);
    for (const failure of parseFailures) {
      console.log(`  ${failure.package}  ${failure.file}:${failure.line}:${failure.column}  ${failure.message}`);
    }
    console.log(`Rule crashes: ${ruleCrashes.length}`);
    for (const crash of ruleCrashes) console.log(`  ${crash.package}  ${crash.file}  ${crash.rule}: ${crash.error}`);
  }
  if (ruleCrashes.length > 0) process.exitCode = 1;
}

main();
