import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { appendProperty } from './add-property';
import { type CodeStyle, quoteString } from './code-style';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** `{ status: 1, 'data.pid': 1 }`: the fields in the order read; `{ _id: 1 }` for none. */
export function getProjectionText(fields: Iterable<string>, style: CodeStyle): string {
  const names = [...fields];
  if (names.length === 0) names.push('_id');
  const entries = names.map((name) => `${/^[A-Za-z_$][\w$]*$/.test(name) ? name : quoteString(name, style)}: 1`);
  return `{ ${entries.join(', ')} }`;
}

/**
 * Sets `projection` in the options argument at `optionsIndex` of `call`: a property added
 * to an options literal, or a new `{ projection: … }` argument when the call stops right
 * before it. Undefined when the options are anything else.
 */
export function getAddProjectionFix(
  sourceCode: SourceCode,
  call: TSESTree.CallExpression,
  optionsIndex: number,
  projection: string,
): TSESLint.ReportFixFunction | undefined {
  const options = call.arguments[optionsIndex];
  if (options?.type === 'ObjectExpression') return (fixer) => appendProperty(sourceCode, fixer, options, `projection: ${projection}`);
  const last = call.arguments.at(-1);
  if (options || !last || call.arguments.length !== optionsIndex) return undefined;
  return (fixer) => fixer.insertTextAfter(last, `, { projection: ${projection} }`);
}
