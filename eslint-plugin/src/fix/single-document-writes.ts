import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { getUsedNames, pickNumberedName } from './fresh-names';
import { getIndent } from './indentation';

export interface MultiDocumentWrite {
  /** The statement `await <receiver>.updateMany(<filter>, <update>);` or `await <receiver>.deleteMany(<filter>);`. */
  statement: TSESTree.ExpressionStatement;
  /** The collection, read twice: it must be free of side effects. */
  receiver: TSESTree.Expression;
  filter: TSESTree.Expression;
  /** The update, for an `updateMany`; undefined for a `deleteMany`. */
  update: TSESTree.Expression | undefined;
}

/**
 * The block that replaces a multi-document write with retryable single-document ones:
 * read the matching `_id`s, then one `updateOne` / `deleteOne` per `_id` in a
 * `bulkWrite`. The filter is kept on each write, so a document that stopped matching in
 * between is left alone. A filter or update that is not a plain name is stored in a
 * `const` first, under names the statement does not use.
 */
export function getSingleDocumentWritesText(sourceCode: Readonly<TSESLint.SourceCode>, write: MultiDocumentWrite, typescript = false): string {
  const { statement, filter, update } = write;
  const taken = getUsedNames(sourceCode, statement);
  const name = (base: string): string => {
    const fresh = pickNumberedName(base, (candidate) => taken.has(candidate));
    taken.add(fresh);
    return fresh;
  };
  const receiver = sourceCode.getText(write.receiver);
  const indent = getIndent(sourceCode, statement, 'line');
  const inner = `${indent}  `;
  const lines: string[] = [];
  const reuse = (node: TSESTree.Expression, base: string): string => {
    if (node.type === 'Identifier') return node.name;
    const local = name(base);
    // In TypeScript, `as const` keeps literal types (`status: 'shipped'`) that the collection's document type asks for.
    const literal = typescript && (node.type === 'ObjectExpression' || node.type === 'ArrayExpression');
    lines.push(`${inner}const ${local} = ${sourceCode.getText(node)}${literal ? ' as const' : ''};`);
    return local;
  };
  const filterName = reuse(filter, 'filter');
  const updateName = update ? reuse(update, 'update') : undefined;
  const findIds = `${receiver}.find(${filterName}, { projection: { _id: 1 } }).toArray()`;
  const docs = typescript ? name('docs') : undefined;
  const ids = name('ids');
  const doc = name('doc');
  const id = name('id');
  const single = update
    ? `{ updateOne: { filter: { ...${filterName}, _id: ${id} }, update: ${updateName} } }`
    : `{ deleteOne: { filter: { ...${filterName}, _id: ${id} } } }`;
  if (docs) {
    // Parameters typed from the arrays themselves: they hold the collection's document type, and
    // stay `any` (not an implicit any, which strict TypeScript refuses) when the collection is untyped.
    lines.push(
      `${inner}const ${docs} = await ${findIds};`,
      `${inner}const ${ids} = ${docs}.map((${doc}: (typeof ${docs})[number]) => ${doc}._id);`,
      `${inner}if (${ids}.length > 0) {`,
      `${inner}  await ${receiver}.bulkWrite(${ids}.map((${id}: (typeof ${ids})[number]) => (${single})));`,
      `${inner}}`,
    );
  } else {
    lines.push(
      `${inner}const ${ids} = (await ${findIds}).map((${doc}) => ${doc}._id);`,
      `${inner}if (${ids}.length > 0) {`,
      `${inner}  await ${receiver}.bulkWrite(${ids}.map((${id}) => (${single})));`,
      `${inner}}`,
    );
  }
  return `{\n${lines.join('\n')}\n${indent}}`;
}
