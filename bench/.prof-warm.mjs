import { Linter } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';
import { createRequire } from 'node:module';
import { loadCorpus, corpusModulesDir } from './corpus-files.mjs';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
const require = createRequire(import.meta.url);
const plugin = require('../eslint-plugin/dist/index.cjs');
const files = await loadCorpus();
const rules = plugin.configs.all[0].rules;
const settings = { 'retry-safety': { documentdb: { engineVersion: '8.0.2' } } };
const linter = new Linter({ cwd: corpusModulesDir });
const configs = new Map();
const config = (withRules, sourceType) => { const key = `${withRules}${sourceType}`; if (!configs.has(key)) configs.set(key, [{ files: ['**/*.{js,mjs,cjs,ts,mts,cts}'], languageOptions: { parser: tsParser, ecmaVersion: 'latest', sourceType }, linterOptions: { reportUnusedDisableDirectives: 'off' }, plugins: { 'retry-safety': plugin }, settings, rules: withRules ? rules : {} }]); return configs.get(key); };
function pass(withRules) { const t = process.cpuUsage(); for (const f of files) linter.verify(f.text, config(withRules, f.sourceType), { filename: f.path, allowInlineConfig: false }); const u = process.cpuUsage(t); return (u.user + u.system) / 1000; }
pass(true); // cold
const session = new Session(); session.connect();
await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
const b = pass(true);
const { profile } = await session.post('Profiler.stop');
const a = pass(false);
writeFileSync(process.argv[2] ?? '/tmp/prof/warm.cpuprofile', JSON.stringify(profile));
console.log('warm b', b.toFixed(0), 'a', a.toFixed(0), 'ratio', (b / a).toFixed(3));
