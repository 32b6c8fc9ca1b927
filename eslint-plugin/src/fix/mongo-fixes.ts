import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../analysis/per-file-cache';

/**
 * Edits shared by the MongoDB rules' suggestions: fresh names, the `ObjectId` import,
 * statement indentation, and the rewrite of a multi-document write into retryable
 * single-document writes.
 */

/** Identifier names written anywhere in `node` (tokens, so it is cheap and includes JSX/TS names). */
export function getUsedNames(context: AnyRuleContext, node: TSESTree.Node): Set<string> {
  const names = new Set<string>();
  for (const token of context.sourceCode.getTokens(node)) {
    if (token.type === 'Identifier' || token.type === 'Keyword') names.add(token.value);
  }
  return names;
}

/** `base`, or `base2`, `base3`, … : the first that `taken` does not hold. */
export function getFreshName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix++) {
    if (!taken.has(`${base}${suffix}`)) return `${base}${suffix}`;
  }
}

/** Leading whitespace of the line where `node` starts. */
export function getIndent(context: AnyRuleContext, node: TSESTree.Node): string {
  const line = context.sourceCode.lines[node.loc.start.line - 1] ?? '';
  return /^\s*/.exec(line)?.[0] ?? '';
}

/** True when a comment lies inside `outer` but outside every range of `kept`. */
export function hasCommentOutside(context: AnyRuleContext, outer: TSESTree.Node, kept: readonly TSESTree.Node[]): boolean {
  return context.sourceCode
    .getCommentsInside(outer)
    .some((comment) => !kept.some((node) => node.range[0] <= comment.range[0] && comment.range[1] <= node.range[1]));
}

const SIMPLE_RECEIVER_DEPTH = 4;

/** `orders`, `this.orders`, `db.orders`: a receiver that can be read twice without side effects. */
export function isSimpleReference(node: TSESTree.Node, depth = 0): boolean {
  if (node.type === 'Identifier' || node.type === 'ThisExpression') return true;
  if (node.type === 'MemberExpression' && !node.computed && !node.optional && depth < SIMPLE_RECEIVER_DEPTH) {
    return isSimpleReference(node.object, depth + 1);
  }
  return false;
}

export interface ObjectIdAccess {
  /** Expression that names the `ObjectId` class here (`ObjectId`, `mongodb.ObjectId`, an alias). */
  expression: string;
  /** Edits that make it available (an import or require), empty when it already is. */
  fixes: (fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[];
}

/**
 * How to write `new ObjectId()` in this file: reuse a binding of `ObjectId` (from
 * `mongodb` or `bson`), extend an existing `mongodb` import or destructured require,
 * or add one.
 */
export function getObjectIdAccess(context: AnyRuleContext): ObjectIdAccess | undefined {
  const sourceCode = context.sourceCode;
  const program = sourceCode.ast as TSESTree.Program;
  const none = (): TSESLint.RuleFix[] => [];
  const moduleScope = sourceCode.scopeManager?.globalScope?.childScopes.find((scope) => scope.type === 'module') ?? sourceCode.scopeManager?.globalScope;

  let extendImport: TSESTree.ImportDeclaration | undefined;
  let extendRequire: TSESTree.ObjectPattern | undefined;
  let namespaceName: string | undefined;
  let lastImport: TSESTree.ImportDeclaration | undefined;
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') {
      lastImport = statement;
      const source = String(statement.source.value);
      if (source !== 'mongodb' && source !== 'bson') continue;
      for (const specifier of statement.specifiers) {
        if (specifier.type === 'ImportSpecifier' && getImportedName(specifier) === 'ObjectId') {
          return getImportedObjectIdAccess(context, statement, specifier);
        }
        if (source === 'mongodb' && specifier.type !== 'ImportSpecifier' && statement.importKind !== 'type') namespaceName ??= specifier.local.name;
      }
      if (source === 'mongodb' && statement.importKind !== 'type' && statement.specifiers.some((s) => s.type === 'ImportSpecifier')) extendImport ??= statement;
    } else if (statement.type === 'VariableDeclaration') {
      for (const declarator of statement.declarations) {
        if (!isRequireOf(declarator.init, 'mongodb')) continue;
        if (declarator.id.type === 'Identifier') namespaceName ??= declarator.id.name;
        if (declarator.id.type === 'ObjectPattern') {
          for (const property of declarator.id.properties) {
            if (property.type === 'Property' && !property.computed && property.key.type === 'Identifier' && property.key.name === 'ObjectId' && property.value.type === 'Identifier') {
              return { expression: property.value.name, fixes: none };
            }
          }
          if (!declarator.id.properties.some((p) => p.type === 'RestElement')) extendRequire ??= declarator.id;
        }
      }
    }
  }
  // Some other top-level `ObjectId` (a re-export of the driver's, mongoose's `Types.ObjectId`…): use it.
  if (moduleScope?.set.has('ObjectId')) return { expression: 'ObjectId', fixes: none };
  if (namespaceName) return { expression: `${namespaceName}.ObjectId`, fixes: none };
  if (extendImport) {
    const specifiers = extendImport.specifiers.filter((s): s is TSESTree.ImportSpecifier => s.type === 'ImportSpecifier');
    const last = specifiers[specifiers.length - 1] as TSESTree.ImportSpecifier;
    return { expression: 'ObjectId', fixes: (fixer) => [fixer.insertTextAfter(last, ', ObjectId')] };
  }
  if (extendRequire) {
    const pattern = extendRequire;
    const last = pattern.properties[pattern.properties.length - 1];
    return {
      expression: 'ObjectId',
      fixes: (fixer) => [last ? fixer.insertTextAfter(last, ', ObjectId') : fixer.replaceText(pattern, '{ ObjectId }')],
    };
  }
  const isScript = (program.sourceType as string) === 'script' || (!lastImport && /\brequire\s*\(/.test(sourceCode.text));
  const line = isScript ? "const { ObjectId } = require('mongodb');" : "import { ObjectId } from 'mongodb';";
  return {
    expression: 'ObjectId',
    fixes: (fixer) => [lastImport ? fixer.insertTextAfter(lastImport, `\n${line}`) : fixer.insertTextBeforeRange([getFirstStatementStart(program), getFirstStatementStart(program)], `${line}\n`)],
  };
}

/**
 * An `ObjectId` import that may be type-only: `import { type ObjectId }` loses its
 * `type`, `import type { ObjectId }` becomes a value import; a type-only import of
 * several names is left alone (no edit is clearly safe).
 */
function getImportedObjectIdAccess(
  context: AnyRuleContext,
  statement: TSESTree.ImportDeclaration,
  specifier: TSESTree.ImportSpecifier,
): ObjectIdAccess | undefined {
  const expression = specifier.local.name;
  if (statement.importKind === 'type') {
    if (statement.specifiers.length !== 1) return undefined;
    const typeToken = context.sourceCode.getFirstToken(statement, 1);
    const next = typeToken && context.sourceCode.getTokenAfter(typeToken);
    if (typeToken?.value !== 'type' || !next) return undefined;
    return { expression, fixes: (fixer) => [fixer.removeRange([typeToken.range[0], next.range[0]])] };
  }
  if (specifier.importKind === 'type') {
    return { expression, fixes: (fixer) => [fixer.removeRange([specifier.range[0], specifier.imported.range[0]])] };
  }
  return { expression, fixes: () => [] };
}

function getImportedName(specifier: TSESTree.ImportSpecifier): string {
  return specifier.imported.type === 'Identifier' ? specifier.imported.name : String(specifier.imported.value);
}

function isRequireOf(node: TSESTree.Node | null | undefined, module: string): boolean {
  return (
    node?.type === 'CallExpression' &&
    node.callee.type === 'Identifier' &&
    node.callee.name === 'require' &&
    node.arguments[0]?.type === 'Literal' &&
    node.arguments[0].value === module
  );
}

/** After a hashbang and leading directives (`'use strict'`), where a new first statement may go. */
function getFirstStatementStart(program: TSESTree.Program): number {
  const first = program.body.find((statement) => !(statement.type === 'ExpressionStatement' && 'directive' in statement && statement.directive));
  return first ? first.range[0] : program.range[1];
}

/**
 * Inserts `_id: <value>` as the first property of an object literal, following its
 * layout (one line or one property per line).
 */
export function insertIdProperty(
  context: AnyRuleContext,
  fixer: TSESLint.RuleFixer,
  object: TSESTree.ObjectExpression,
  value: string,
): TSESLint.RuleFix {
  const first = object.properties[0];
  if (!first) return fixer.replaceText(object, `{ _id: ${value} }`);
  const openBrace = context.sourceCode.getFirstToken(object) as TSESTree.Token;
  if (first.loc.start.line > openBrace.loc.end.line) {
    return fixer.insertTextBefore(first, `_id: ${value},\n${getIndent(context, first)}`);
  }
  return fixer.insertTextBefore(first, `_id: ${value}, `);
}
