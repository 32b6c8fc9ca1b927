import { ESLintUtils } from '@typescript-eslint/utils';

/** Where each rule's docs page lives; `meta.docs.url` is derived, never typed by hand. */
export const DOCS_BASE_URL = 'https://github.com/retry-safety/retry-safety/blob/main/eslint-plugin/docs/rules/';

export interface RetrySafetyDocs {
  /** Short label used in the README table and the editor hover ("MongoDB", "DynamoDB", …). */
  database: 'MongoDB' | 'DynamoDB' | 'PostgreSQL' | 'any';
}

const createNamedRule = ESLintUtils.RuleCreator<RetrySafetyDocs>((name) => `${DOCS_BASE_URL}${name}.md`);

/**
 * `RuleCreator` with the docs URL, minus its own options merge: ESLint (9.15+, our
 * peer range) already merges `meta.defaultOptions` into `context.options`, and the
 * second merge (a structured clone per rule per file) showed up in the benchmark.
 */
export const createRule: typeof createNamedRule = (spec) => {
  const rule = createNamedRule(spec);
  return { ...rule, create: (context) => spec.create(context, context.options) };
};
