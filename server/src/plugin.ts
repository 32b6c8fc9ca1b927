// The ESLint plugin, imported from its workspace package (bundled into the server),
// and what the server reads from it: presets, the text language, rule docs.
import type { Linter } from 'eslint';
import plugin from 'eslint-plugin-retry-safety';

export { plugin };

export const RULE_PREFIX = 'retry-safety/';
export const CONNECTION_STRING_RULE = 'mongo-retry-writes-connection-string';

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

/** Ids (without prefix) of every rule the plugin has. */
export function getRuleIds(): string[] {
  return Object.keys(plugin.rules ?? {});
}

/** A preset's `retry-safety/<id>` → level map, or undefined when the plugin has no such preset. */
export function getPresetRules(preset: string): Linter.RulesRecord | undefined {
  const configs = plugin.configs as Record<string, Linter.Config | Linter.Config[]> | undefined;
  const config = configs?.[preset];
  if (!config) return undefined;
  const objects = Array.isArray(config) ? config : [config];
  return Object.assign({}, ...objects.map((object) => object.rules ?? {})) as Linter.RulesRecord;
}

/**
 * The `language` id the plugin uses for non-JavaScript text (`retry-safety/text`), read
 * from its `connection-strings` preset; undefined while the plugin has no text language.
 */
export function getTextLanguage(): string | undefined {
  const configs = plugin.configs as Record<string, Linter.Config | Linter.Config[]> | undefined;
  const config = configs?.['connection-strings'];
  const objects = config ? (Array.isArray(config) ? config : [config]) : [];
  const fromPreset = objects.map((object) => object.language).find((language) => typeof language === 'string');
  if (fromPreset) return fromPreset;
  return plugin.languages?.text ? 'retry-safety/text' : undefined;
}
