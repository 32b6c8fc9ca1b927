import type { ESLint, Linter } from 'eslint';
import pkg from '../package.json';
import { presetRules } from './configs';
import { rules } from './rules';

const plugin = {
  meta: { name: pkg.name, version: pkg.version, namespace: 'retry-safety' },
  rules,
  configs: {} as Record<'recommended' | 'strict' | 'all', Linter.Config>,
};

// Presets refer to the plugin object itself, so they are filled in after it exists.
for (const preset of ['recommended', 'strict', 'all'] as const) {
  plugin.configs[preset] = {
    name: `retry-safety/${preset}`,
    plugins: { 'retry-safety': plugin as unknown as ESLint.Plugin },
    rules: presetRules(preset),
  };
}

export default plugin;
