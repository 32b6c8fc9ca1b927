import { ESLintUtils } from '@typescript-eslint/utils';

/** Where each rule's docs page lives; `meta.docs.url` is derived, never typed by hand. */
export const DOCS_BASE_URL = 'https://github.com/retry-safety/retry-safety/blob/main/eslint-plugin/docs/rules/';

export interface RetrySafetyDocs {
  /** Short label used in the README table and the editor hover ("MongoDB", "DynamoDB", …). */
  database: 'MongoDB' | 'DynamoDB' | 'PostgreSQL' | 'any';
}

export const createRule = ESLintUtils.RuleCreator<RetrySafetyDocs>((name) => `${DOCS_BASE_URL}${name}.md`);
