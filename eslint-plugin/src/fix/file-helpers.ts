import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { type FunctionNode, isFunctionNode } from '../analysis/ast';
import type { AnyRuleContext } from '../analysis/per-file-cache';
import { type CodeStyle, formatInStyle, getCodeStyle } from './code-style';
import { getUsedNamesInFile, pickNumberedName } from './fresh-names';

/**
 * A helper function an edit calls (`sleep`, `isTransientPgError`, `writeAllItems`): the
 * one already visible where it is called when it has the same name and shape, else a
 * declaration added once to the file, after its imports (or its `'use strict'`), under
 * a name nothing in the file uses.
 */
export interface FileHelper {
  /** The name it is declared under when nothing else claims it. */
  name: string;
  /** How many parameters it takes; an existing function of that name must take as many. */
  parameterCount: number;
  /**
   * Other visible functions that can serve instead (an existing `sleep` under another
   * name): the name to call, or undefined.
   */
  findEquivalent?: (sourceCode: Readonly<TSESLint.SourceCode>, at: TSESTree.Node) => string | undefined;
  /**
   * The declaration, written with two-space indentation, single quotes and semicolons
   * (it is rewritten in the file's style) under `name`; `style.typescript` says whether
   * to write types.
   */
  getDeclaration: (name: string, style: CodeStyle) => string;
}

export interface HelperAccess {
  /** What to call. */
  name: string;
  /** The edits that declare it; empty when it already exists. */
  fixes: (fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[];
  /** The edits add a declaration. */
  added: boolean;
}

/** How to call `helper` at `at`: an existing function, or a new declaration. */
export function getFileHelper(context: AnyRuleContext, helper: FileHelper, at: TSESTree.Node): HelperAccess {
  const { names, fixes, added } = getFileHelpers(context, [helper], at);
  return { name: names[0] ?? helper.name, fixes, added };
}

/** `getFileHelper` for several helpers at once: the new declarations go in one edit, in order. */
export function getFileHelpers(context: AnyRuleContext, helpers: readonly FileHelper[], at: TSESTree.Node): { names: string[]; fixes: HelperAccess['fixes']; added: boolean } {
  const sourceCode = context.sourceCode;
  const style = getCodeStyle(context);
  const usedInFile = getUsedNamesInFile(context);
  // Names this edit adds, apart: the file's set is shared by every fix of the file.
  const added = new Set<string>();
  const names: string[] = [];
  const declarations: string[] = [];
  for (const helper of helpers) {
    const existing = findExistingHelper(sourceCode, helper, at);
    if (existing) {
      names.push(existing);
      continue;
    }
    const name = pickNumberedName(helper.name, (candidate) => usedInFile.has(candidate) || added.has(candidate) || isVisible(sourceCode, candidate, at));
    added.add(name);
    names.push(name);
    declarations.push(formatInStyle(helper.getDeclaration(name, style), style));
  }
  const text = declarations.join('\n\n');
  return { names, fixes: (fixer) => (text ? [insertAtFileTop(sourceCode, fixer, text)] : []), added: text !== '' };
}

/** `helper.name` visible at `at` as a function of the same arity, or imported; else an equivalent. */
function findExistingHelper(sourceCode: Readonly<TSESLint.SourceCode>, helper: FileHelper, at: TSESTree.Node): string | undefined {
  const variable = ASTUtils.findVariable(sourceCode.getScope(at) as TSESLint.Scope.Scope, helper.name);
  const definition = variable?.defs[0];
  if (definition?.type === 'ImportBinding') return helper.name;
  if (definition) {
    const fn = getDefinedFunction(definition.node as TSESTree.Node);
    if (fn && fn.params.length === helper.parameterCount) return helper.name;
  }
  return helper.findEquivalent?.(sourceCode, at);
}

/** The function a definition declares: `function f() {}`, `const f = () => …`, `const f = function () {}`. */
export function getDefinedFunction(node: TSESTree.Node): FunctionNode | undefined {
  if (node.type === AST_NODE_TYPES.FunctionDeclaration) return node;
  if (node.type === AST_NODE_TYPES.VariableDeclarator && node.init && isFunctionNode(node.init)) return node.init;
  return undefined;
}

function isVisible(sourceCode: Readonly<TSESLint.SourceCode>, name: string, at: TSESTree.Node): boolean {
  return Boolean(ASTUtils.findVariable(sourceCode.getScope(at) as TSESLint.Scope.Scope, name));
}

/**
 * Inserts `declaration` as a top-level statement of its own, after the file's imports
 * and top-level `require`s, else after its directives, else at its start, with a blank
 * line between it and its neighbours.
 */
export function insertAtFileTop(sourceCode: Readonly<TSESLint.SourceCode>, fixer: TSESLint.RuleFixer, declaration: string): TSESLint.RuleFix {
  const program = sourceCode.ast as TSESTree.Program;
  let anchor: TSESTree.Node | undefined;
  for (const statement of program.body) {
    if (isImportLike(statement) || isDirective(statement)) anchor = statement;
    else break;
  }
  if (anchor) {
    const blankLineFollows = /^[ \t]*\r?\n[ \t]*\r?\n/.test(sourceCode.text.slice(anchor.range[1])) || anchor === program.body.at(-1);
    return fixer.insertTextAfter(anchor, `\n\n${declaration}${blankLineFollows ? '' : '\n'}`);
  }
  const first = program.body[0];
  if (!first) return fixer.insertTextAfterRange([program.range[1], program.range[1]], `${declaration}\n`);
  // After the comments that open the file (a licence header, a file comment).
  return fixer.insertTextBefore(first, `${declaration}\n\n`);
}

function isDirective(statement: TSESTree.Node): boolean {
  return statement.type === AST_NODE_TYPES.ExpressionStatement && 'directive' in statement && typeof statement.directive === 'string';
}

/** `import …`, `const x = require('…')`, `const { a } = require('…').b`. */
function isImportLike(statement: TSESTree.Node): boolean {
  if (statement.type === AST_NODE_TYPES.ImportDeclaration || statement.type === AST_NODE_TYPES.TSImportEqualsDeclaration) return true;
  if (statement.type !== AST_NODE_TYPES.VariableDeclaration) return false;
  return statement.declarations.every((declarator) => {
    let init = declarator.init;
    while (init?.type === AST_NODE_TYPES.MemberExpression) init = init.object;
    return init?.type === AST_NODE_TYPES.CallExpression && init.callee.type === AST_NODE_TYPES.Identifier && init.callee.name === 'require';
  });
}
