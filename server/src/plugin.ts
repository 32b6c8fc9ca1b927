// The ESLint plugin, imported from its workspace package (bundled into the server),
// and what the server reads from it: presets and rule docs. Its names (rule prefix,
// text language, presets) come typed from the package as well.
import type { Linter } from 'eslint';
import plugin, { RULE_PREFIX, type ConfigName } from 'eslint-plugin-retry-safety';

export { plugin };

export interface RuleDocs {
  description?: string;
  url?: string;
}

/** `meta.docs` of a rule, by id with or without the `retry-safety/` prefix. */
export function getRuleDocs(ruleId: string): RuleDocs {
  const rule = plugin.rules?.[ruleId.startsWith(RULE_PREFIX) ? ruleId.slice(RULE_PREFIX.length) : ruleId];
  const docs = rule?.meta?.docs as RuleDocs | undefined;
  return { description: docs?.description, url: docs?.url };
}

/** Whether `name` (without the `retry-safety/` prefix) is one of the plugin's rules. */
export function isRuleName(name: string): boolean {
  return Object.hasOwn(plugin.rules ?? {}, name);
}

/** A preset's `retry-safety/<id>` → level map for every file (a test file aside). */
export function getPresetRules(preset: ConfigName): Linter.RulesRecord {
  // Code presets are lists (every file first), connection-strings one object.
  const [forEveryFile] = [plugin.configs[preset]].flat();
  return { ...forEveryFile?.rules } as Linter.RulesRecord;
}

/** The levels `recommended` sets in test files on top of its own (rules turned off there). */
export function getTestFileRules(): Linter.RulesRecord {
  const forTestFiles = plugin.configs.recommended.filter((config) => config.files !== undefined);
  return Object.assign({}, ...forTestFiles.map((config) => config.rules)) as Linter.RulesRecord;
}
