import { Linter } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';
import { createRequire } from 'node:module';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { loadCorpus, corpusModulesDir } from '../bench/corpus-files.mjs';
const require = createRequire(import.meta.url);
const plugin = require('../eslint-plugin/dist/index.cjs');
const rules = Object.fromEntries(Object.keys(plugin.rules).map((r) => [`retry-safety/${r}`, 'warn']));
const settings = { 'retry-safety': { documentdb: { engineVersion: '8.0.2' } } };
const cfg = (sourceType) => [{ files: ['**/*.{js,mjs,cjs,ts,mts,cts}'], languageOptions: { parser: tsParser, sourceType, ecmaVersion: 'latest' }, linterOptions: { reportUnusedDisableDirectives: 'off' }, plugins: { 'retry-safety': plugin }, rules, settings }];
const configs = { module: cfg('module'), commonjs: cfg('commonjs') };
const files = loadCorpus();
const linter = new Linter({ cwd: corpusModulesDir });
const run = () => { for (const f of files) { try { linter.verify(f.text, configs[f.sourceType], { filename: f.path, allowInlineConfig: false }); } catch {} } };
run();
const session = new Session(); session.connect();
await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 500 });
await session.post('Profiler.start');
run();
const { profile } = await session.post('Profiler.stop');
// self time by function in the plugin
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map(); const dt = profile.timeDeltas; 
const counts = new Map(); profile.samples.forEach((id, i) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)));
let total = 0;
for (const [id, t] of counts) { total += t; const n = byId.get(id); const cf = n.callFrame; const key = `${cf.functionName || '(anon)'} ${cf.url.replace(/.*\/(node_modules|work\/main)\//, '')}:${cf.lineNumber}`; self.set(key, (self.get(key) ?? 0) + t); }
// inclusive for plugin functions
const parent = new Map(); for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map();
for (const [id, t] of counts) { const seen = new Set(); let cur = id; while (cur !== undefined) { const n = byId.get(cur); const cf = n.callFrame; if (cf.url.includes('eslint-plugin/dist')) { const key = `${cf.functionName || '(anon)'}:${cf.lineNumber}`; if (!seen.has(key)) { seen.add(key); incl.set(key, (incl.get(key) ?? 0) + t); } } cur = parent.get(cur); } }
const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([key, t]) => `${(t / 1000).toFixed(0).padStart(7)} ms  ${key}`).join('\n');
console.log('total', (total / 1000).toFixed(0), 'ms');
console.log('--- self (plugin only)'); console.log(top(new Map([...self].filter(([k]) => k.includes('eslint-plugin/dist'))), 25));
console.log('--- inclusive plugin'); console.log(top(incl, 40));
