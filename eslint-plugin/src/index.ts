import type { ESLint, Linter } from 'eslint';
import pkg from '../package.json';
import { presetRules, testFileRules } from './configs';
import * as constants from './constants';
import {
  CODE_PRESET_NAMES,
  type CodePresetName,
  CONNECTION_STRING_RULE_ID,
  CONNECTION_STRINGS_PRESET_NAME,
  PLUGIN_NAMESPACE,
  RULE_PREFIX,
  TEXT_LANGUAGE_ID,
  TEXT_LANGUAGE_NAME,
} from './constants';
import * as fileKinds from './file-kinds';
import { getConnectionStringsPresetFiles, TEST_FILE_PATTERNS } from './file-kinds';
import { textLanguage } from './languages/text-language';
import * as infraEngineVersions from './infra-engine-versions';
import * as moduleIndex from './module-index';
import { type RuleId, rules } from './rules';
import * as testFiles from './test-files';

export * from './constants';
export * from './file-kinds';
export * from './infra-engine-versions';
export * from './module-index';
export * from './test-files';

/**
 * The presets by name. Each code preset is a list of config objects (`recommended`: every
 * file, then test files), spread into the config array: `...retrySafety.configs.recommended`.
 */
export type PluginConfigs = Record<CodePresetName, Linter.Config[]> & Record<typeof CONNECTION_STRINGS_PRESET_NAME, Linter.Config>;

const plugin = {
  meta: { name: pkg.name, version: pkg.version, namespace: PLUGIN_NAMESPACE },
  rules,
  languages: { [TEXT_LANGUAGE_NAME]: textLanguage },
  configs: {} as PluginConfigs,
};

// Presets refer to the plugin object itself, so they are filled in after it exists.
for (const preset of CODE_PRESET_NAMES) {
  const forEveryFile: Linter.Config = {
    name: `${PLUGIN_NAMESPACE}/${preset}`,
    plugins: { [PLUGIN_NAMESPACE]: plugin as unknown as ESLint.Plugin },
    rules: presetRules(preset),
  };
  // `recommended` is quiet in test files: the rules whose reports there are almost never acted on.
  plugin.configs[preset] =
    preset === 'recommended'
      ? [forEveryFile, { name: `${PLUGIN_NAMESPACE}/recommended/test-files`, files: [...TEST_FILE_PATTERNS], rules: testFileRules() }]
      : [forEveryFile];
}

const connectionStringRule: RuleId = CONNECTION_STRING_RULE_ID;

plugin.configs[CONNECTION_STRINGS_PRESET_NAME] = {
  name: `${PLUGIN_NAMESPACE}/${CONNECTION_STRINGS_PRESET_NAME}`,
  // The text kinds of the file-kind table that the preset reads: `.env`, JSON, YAML…
  files: getConnectionStringsPresetFiles(),
  plugins: { [PLUGIN_NAMESPACE]: plugin as unknown as ESLint.Plugin },
  language: TEXT_LANGUAGE_ID,
  // The code rules have nothing to read in plain text: keep them off there even when a
  // preset without `files` is listed first.
  rules: {
    ...Object.fromEntries(Object.keys(rules).map((id) => [`${RULE_PREFIX}${id}`, 'off'])),
    [`${RULE_PREFIX}${connectionStringRule}`]: 'error',
  },
};

/**
 * The named exports are properties of the plugin object too: the CommonJS bundle's
 * `module.exports` is the plugin itself (see entry.cts), so that is where `require()` and
 * Node's named imports find them. Not enumerable: ESLint and `{ ...plugin }` see the
 * plugin's own keys only.
 */
for (const [name, value] of Object.entries({ ...constants, ...fileKinds, ...moduleIndex, ...infraEngineVersions, ...testFiles })) {
  Object.defineProperty(plugin, name, { value, enumerable: false });
}

export default plugin as typeof plugin & typeof constants & typeof fileKinds & typeof moduleIndex & typeof infraEngineVersions & typeof testFiles;
