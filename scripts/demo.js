// Lints the example service with the plugin the way a user's CI would, then
// summarises which rules fired and checks that the look-alike files stayed silent.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const examplesDir = path.join(root, 'examples');

const eslint = new ESLint({ cwd: examplesDir });
const results = await eslint.lintFiles(['.']);
const formatter = await eslint.loadFormatter('stylish');
process.stdout.write(await formatter.format(results));

const plugin = (await import('eslint-plugin-retry-safety')).default;
const counts = new Map(Object.keys(plugin.rules).map((id) => [`retry-safety/${id}`, 0]));
const lookAlikeFindings = [];
let fatal = 0;
for (const result of results) {
  for (const message of result.messages) {
    if (message.fatal || !message.ruleId) fatal += 1;
    if (message.ruleId) counts.set(message.ruleId, (counts.get(message.ruleId) ?? 0) + 1);
    if (/look-alike/i.test(result.filePath)) lookAlikeFindings.push(`${path.relative(examplesDir, result.filePath)}:${message.line} ${message.ruleId}`);
  }
}

console.log('Findings per rule:');
for (const [ruleId, count] of counts) console.log(`  ${count > 0 ? '✔' : '✘'} ${ruleId.padEnd(58)} ${count}`);
const silent = [...counts].filter(([, count]) => count === 0).map(([id]) => id);
console.log(
  lookAlikeFindings.length === 0
    ? 'Look-alike files: no findings, as expected.'
    : `Look-alike files were flagged (false positives):\n  ${lookAlikeFindings.join('\n  ')}`,
);
if (silent.length > 0) console.log(`Rules with no finding in the example: ${silent.join(', ')}`);
console.log('Try the fixes: npx eslint --fix examples (connection strings are fixed in .ts and .env files).');
process.exitCode = fatal > 0 || lookAlikeFindings.length > 0 ? 1 : 0;
