import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getIndent } from './indentation';
import { isStatementListItem } from './statement-anchors';

type SourceCode = Readonly<TSESLint.SourceCode>;

type Loop = TSESTree.ForStatement | TSESTree.WhileStatement | TSESTree.DoWhileStatement;

/**
 * Replaces a hand-written retry loop with its single attempt: the statements of the
 * `try` that is the loop's whole body, without the `break` that ended a success, moved
 * out to the loop's indentation; the `catch` (the retry decision and the wait) goes.
 * Undefined unless that is all the loop is: no other `break` or `continue`, no use of
 * the loop's own variables, no multi-line template literal whose text a move would change.
 */
export function getSingleAttemptFix(sourceCode: SourceCode, loop: TSESTree.Node): TSESLint.ReportFixFunction | undefined {
  if (!isLoop(loop) || !isStatementListItem(loop) || loop.body.type !== AST_NODE_TYPES.BlockStatement) return undefined;
  const [attempt, ...rest] = loop.body.body;
  if (rest.length > 0 || attempt?.type !== AST_NODE_TYPES.TryStatement || attempt.finalizer || !attempt.handler) return undefined;
  const statements = [...attempt.block.body];
  if (statements.at(-1)?.type === AST_NODE_TYPES.BreakStatement && !(statements.at(-1) as TSESTree.BreakStatement).label) statements.pop();
  const first = statements[0];
  const last = statements.at(-1);
  if (!first || !last) return undefined;
  // Comments at the top of the attempt go with it.
  const start = sourceCode.getTokenAfter(sourceCode.getFirstToken(attempt.block)!, { includeComments: true }) ?? first;
  const moved: [number, number] = [start.range[0], last.range[1]];
  const tokens = sourceCode.tokensAndComments.filter((token) => token.range[0] >= moved[0] && token.range[1] <= moved[1]);
  if (tokens.some((token) => token.type === 'Keyword' && (token.value === 'break' || token.value === 'continue'))) return undefined;
  if (tokens.some((token) => token.type === 'Template' && token.loc.start.line !== token.loc.end.line)) return undefined;
  const loopNames = loop.type === AST_NODE_TYPES.ForStatement && loop.init ? getDeclaredNames(loop.init) : [];
  const used = new Set(tokens.filter((token) => token.type === 'Identifier').map((token) => token.value));
  if (loopNames.some((name) => used.has(name))) return undefined;
  const outer = getIndent(sourceCode, loop, 'line');
  const inner = getIndent(sourceCode, start, 'line');
  if (!inner.startsWith(outer)) return undefined;
  const extra = inner.length - outer.length;
  const lines = sourceCode.text.slice(moved[0], moved[1]).split('\n');
  const text = lines.map((line, index) => (index > 0 && /^\s*$/.test(line.slice(0, extra)) ? line.slice(extra) : line)).join('\n');
  return (fixer) => fixer.replaceText(loop, text);
}

function isLoop(node: TSESTree.Node): node is Loop {
  return node.type === AST_NODE_TYPES.ForStatement || node.type === AST_NODE_TYPES.WhileStatement || node.type === AST_NODE_TYPES.DoWhileStatement;
}

function getDeclaredNames(init: TSESTree.ForInitialiser): string[] {
  if (init.type !== AST_NODE_TYPES.VariableDeclaration) return [];
  return init.declarations.flatMap((declarator) => (declarator.id.type === AST_NODE_TYPES.Identifier ? [declarator.id.name] : []));
}
