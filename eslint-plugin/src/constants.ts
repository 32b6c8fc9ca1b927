/**
 * The names by which ESLint configs and the language server refer to the plugin: its
 * namespace, rule ids, the text language, the presets and the shared settings. Exported
 * from the package entry, and on their own as `eslint-plugin-retry-safety/constants`
 * (this file imports nothing, so the language server reads them before it loads ESLint).
 */

/** The plugin's namespace: `plugins: { 'retry-safety': plugin }`. */
export const PLUGIN_NAMESPACE = 'retry-safety';

/** What every rule id of the plugin starts with, as configs and `eslint-disable` comments write it. */
export const RULE_PREFIX = `${PLUGIN_NAMESPACE}/` as const;

/** The rule that checks MongoDB / Amazon DocumentDB connection strings, in code and in text files (id without the prefix). */
export const CONNECTION_STRING_RULE_ID = 'mongo-retry-writes-connection-string';

/** Key of the plain-text language in `plugin.languages`. */
export const TEXT_LANGUAGE_NAME = 'text';

/** The plain-text language as a flat config names it: `language: "retry-safety/text"`. */
export const TEXT_LANGUAGE_ID = `${PLUGIN_NAMESPACE}/${TEXT_LANGUAGE_NAME}` as const;

/** Presets for code, mildest first. */
export const CODE_PRESET_NAMES = ['recommended', 'strict', 'all'] as const;
export type CodePresetName = (typeof CODE_PRESET_NAMES)[number];

/** The preset for `.env`, JSON, YAML… files, read as plain text. */
export const CONNECTION_STRINGS_PRESET_NAME = 'connection-strings';

/** Every key of `plugin.configs`. */
export const CONFIG_NAMES = [...CODE_PRESET_NAMES, CONNECTION_STRINGS_PRESET_NAME] as const;
export type ConfigName = (typeof CONFIG_NAMES)[number];

/** Key of the plugin's shared settings: `settings["retry-safety"]`. */
export const SETTINGS_KEY = PLUGIN_NAMESPACE;

/** How messages name the plugin's settings in an ESLint config. */
export const ESLINT_SETTINGS_NAME = `settings["${SETTINGS_KEY}"]`;

/**
 * Shared setting for hosts that take the plugin's settings from somewhere else: the
 * name under which the user wrote them (the language server sets `retrySafety`, the
 * editor settings section), so that messages about a setting name it as written.
 * Unset, messages say `settings["retry-safety"]`.
 */
export const SETTINGS_NAME_KEY = `${PLUGIN_NAMESPACE}/settings-name` as const;

/**
 * Shared setting for hosts that lint a document under another file name (the language
 * server lints under a fixed virtual folder): the document's real path on disk, from
 * which the module index resolves the document's relative imports.
 */
export const SOURCE_PATH_KEY = `${PLUGIN_NAMESPACE}/source-path` as const;

/**
 * Shared setting for hosts that lint under a folder of their own (the language server):
 * the folder whose infrastructure code (Terraform, CloudFormation, CDK, Pulumi) may state
 * the Amazon DocumentDB engine version, instead of ESLint's `cwd`; `null` for none (a
 * document outside every workspace folder).
 */
export const INFRA_ROOT_KEY = `${PLUGIN_NAMESPACE}/infra-root` as const;

/**
 * Test files, as flat-config `files` patterns: where the `recommended` preset turns off the
 * rules whose reports there are almost never acted on (`deleteMany({})` in a set-up, fixture
 * inserts, a pool in a test helper). The language server matches a document's path, relative
 * to its workspace folder, against the same patterns.
 */
export const TEST_FILE_PATTERNS: readonly string[] = [
  '**/*.{test,spec}.*',
  '**/__tests__/**',
  '**/test/**',
  '**/tests/**',
  '**/__mocks__/**',
  '**/fixtures/**',
];
