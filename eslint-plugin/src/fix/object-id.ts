import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { getFileScope } from '../analysis/ast';

type SourceCode = Readonly<TSESLint.SourceCode>;

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
export function getObjectIdAccess(sourceCode: SourceCode): ObjectIdAccess | undefined {
  const program = sourceCode.ast as TSESTree.Program;
  const none = (): TSESLint.RuleFix[] => [];
  const moduleScope = getFileScope(sourceCode);

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
          return getImportedObjectIdAccess(sourceCode, statement, specifier);
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
  sourceCode: SourceCode,
  statement: TSESTree.ImportDeclaration,
  specifier: TSESTree.ImportSpecifier,
): ObjectIdAccess | undefined {
  const expression = specifier.local.name;
  if (statement.importKind === 'type') {
    if (statement.specifiers.length !== 1) return undefined;
    const typeToken = sourceCode.getFirstToken(statement, 1);
    const next = typeToken && sourceCode.getTokenAfter(typeToken);
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
