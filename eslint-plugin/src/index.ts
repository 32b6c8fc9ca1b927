import type { ESLint, Linter } from 'eslint';
import pkg from '../package.json';
import { presetRules } from './configs';
import { textLanguage } from './languages/text-language';
import { rules } from './rules';

type ConfigName = 'recommended' | 'strict' | 'all' | 'connection-strings';

const plugin = {
  meta: { name: pkg.name, version: pkg.version, namespace: 'retry-safety' },
  rules,
  languages: { text: textLanguage },
  configs: {} as Record<ConfigName, Linter.Config>,
};

// Presets refer to the plugin object itself, so they are filled in after it exists.
for (const preset of ['recommended', 'strict', 'all'] as const) {
  plugin.configs[preset] = {
    name: `retry-safety/${preset}`,
    plugins: { 'retry-safety': plugin as unknown as ESLint.Plugin },
    rules: presetRules(preset),
  };
}

/** Files that hold connection strings outside code; read as plain text by `retry-safety/text`. */
const connectionStringFiles = [
  '**/.env*',
  '**/*.env',
  '**/*.json',
  '**/*.yaml',
  '**/*.yml',
  '**/*.properties',
  '**/*.toml',
  '**/*.ini',
  '**/*.tf',
];

plugin.configs['connection-strings'] = {
  name: 'retry-safety/connection-strings',
  files: connectionStringFiles,
  plugins: { 'retry-safety': plugin as unknown as ESLint.Plugin },
  language: 'retry-safety/text',
  // The code rules have nothing to read in plain text: keep them off there even when a
  // preset without `files` is listed first.
  rules: {
    ...Object.fromEntries(Object.keys(rules).map((id) => [`retry-safety/${id}`, 'off'])),
    'retry-safety/mongo-retry-writes-connection-string': 'error',
  },
};

export default plugin;
