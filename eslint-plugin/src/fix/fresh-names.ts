import { ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { containsNode } from '../analysis/ast';
import { createPerFileCache, type AnyRuleContext } from '../analysis/per-file-cache';

/**
 * Names for the variables an edit declares: the first candidate that no code around
 * it uses, by one of two tests: the names written in a piece of code (cheap, and
 * blind to scopes), or the variables visible where the name is declared and used.
 */

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The first of `candidates` that `isTaken` does not claim. */
export function pickFreeName(candidates: Iterable<string>, isTaken: (name: string) => boolean): string | undefined {
  for (const name of candidates) {
    if (!isTaken(name)) return name;
  }
  return undefined;
}

/** `base`, or `base2`, `base3`, …: the first that `isTaken` does not claim. */
export function pickNumberedName(base: string, isTaken: (name: string) => boolean): string {
  // The numbered names never run out.
  return pickFreeName(numberedNames(base), isTaken) ?? base;
}

function* numberedNames(base: string): Generator<string> {
  yield base;
  for (let suffix = 2; ; suffix++) yield `${base}${suffix}`;
}

/** Identifier names written anywhere in `node` (tokens, so it is cheap and includes JSX/TS names). */
export function getUsedNames(sourceCode: SourceCode, node: TSESTree.Node): Set<string> {
  const names = new Set<string>();
  for (const token of sourceCode.getTokens(node)) {
    if (token.type === 'Identifier' || token.type === 'Keyword') names.add(token.value);
  }
  return names;
}

/** Identifier names written in the function around `node` (the whole program at top level): where new locals next to it must not clash. */
export function getUsedNamesAround(sourceCode: SourceCode, node: TSESTree.Node): Set<string> {
  let owner: TSESTree.Node = node;
  for (let current = node.parent; current; current = current.parent) {
    owner = current;
    if (current.type === 'FunctionDeclaration' || current.type === 'FunctionExpression' || current.type === 'ArrowFunctionExpression') break;
  }
  return getUsedNames(sourceCode, owner);
}

/**
 * Identifier names written anywhere in the file: `getUsedNames` of the whole program,
 * collected once per file and shared by every finding (a rule that asked per finding
 * would read all the file's tokens again each time). Read-only: it is shared.
 */
export const getUsedNamesInFile: (context: AnyRuleContext) => ReadonlySet<string> = createPerFileCache((context) =>
  getUsedNames(context.sourceCode, context.sourceCode.ast as TSESTree.Node),
);

/**
 * A variable `name` is visible where a declaration would go before `anchor` (or declared
 * anywhere in that block), other than the one declared inside `own`: declaring it there
 * would clash or shadow.
 */
export function isNameTakenAt(sourceCode: SourceCode, name: string, anchor: TSESTree.Node, own?: TSESTree.Node): boolean {
  const variable = ASTUtils.findVariable(sourceCode.getScope(anchor.parent ?? anchor) as TSESLint.Scope.Scope, name);
  if (!variable) return false;
  return !own || !variable.defs.some((definition) => containsNode(own, definition.name));
}

/** For `pickFreeName`: the name is taken before `anchor`, where it would be declared, or at `site`, where it will be used. */
export function isNameTakenAround(sourceCode: SourceCode, anchor: TSESTree.Node, site: TSESTree.Node): (name: string) => boolean {
  return (name) =>
    isNameTakenAt(sourceCode, name, anchor) || Boolean(ASTUtils.findVariable(sourceCode.getScope(site) as TSESLint.Scope.Scope, name));
}
