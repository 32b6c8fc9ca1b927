/**
 * The package entry as its users see it, and the source of its declaration file
 * (`dist/types/entry.d.cts`). `dist/index.cjs` is index.ts bundled as CommonJS with
 * `module.exports` set to the plugin object, so `require()` and a default `import` both
 * get the plugin, and its named exports (constants, file kinds) are properties of it.
 * Typed as ESLint's plugin shape with its presets by name (a misspelt one is an error), so
 * an `eslint.config.ts` type-checks against it; the rules' own types stay internal.
 */
import type { ESLint, Linter } from 'eslint';
import type * as constants from './constants';
import type * as fileKinds from './file-kinds';
import type * as infraEngineVersions from './infra-engine-versions';
import type * as moduleIndex from './module-index';
import type * as testFiles from './test-files';
import entry = require('./index');

type RetrySafetyPlugin = Omit<ESLint.Plugin, 'configs'> & {
  /** Code presets are lists of config objects (`recommended`: every file, then test files): spread them, `...retrySafety.configs.recommended`. */
  configs: Record<constants.CodePresetName, Linter.Config[]> & Record<typeof constants.CONNECTION_STRINGS_PRESET_NAME, Linter.Config>;
} & typeof constants &
  typeof fileKinds &
  typeof moduleIndex &
  typeof infraEngineVersions &
  typeof testFiles;

// Checked against the plugin object but for its rules, whose typescript-eslint type is not ESLint's.
const checked: Omit<RetrySafetyPlugin, 'rules'> = entry.default;
const retrySafety = checked as RetrySafetyPlugin;

// The exported types, for `import type { ConfigName } from 'eslint-plugin-retry-safety'`.
declare namespace retrySafety {
  export type ConfigName = constants.ConfigName;
  export type CodePresetName = constants.CodePresetName;
  export type FileKind = fileKinds.FileKind;
  export type ModuleIndexStats = moduleIndex.ModuleIndexStats;
}

export = retrySafety;
