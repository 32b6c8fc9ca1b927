import { AST_NODE_TYPES, ASTUtils, type TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../ast';
import type { AnyRuleContext } from '../per-file-cache';

/**
 * What a SQL text does, from its first keyword: open, end or undo a transaction,
 * read, or write. Only statically known text is classified; anything else is
 * `unknown`, which counts as *not* a write (rules stay silent rather than guess).
 */

export type SqlStatementKind =
  /** `BEGIN`, `START TRANSACTION`. */
  | 'begin'
  /** `COMMIT`, `END` (also `COMMIT AND CHAIN`, `PREPARE TRANSACTION`'s `COMMIT PREPARED`). */
  | 'commit'
  /** `ROLLBACK`, `ABORT` (not `ROLLBACK TO SAVEPOINT`). */
  | 'rollback'
  /** `SAVEPOINT`, `RELEASE`, `ROLLBACK TO`. */
  | 'savepoint'
  /** `SELECT`, `WITH … SELECT`, `SHOW`, `EXPLAIN`, `VALUES`, `TABLE`, `FETCH`, `COPY … TO`. */
  | 'read'
  /** `INSERT`, `UPDATE`, `DELETE`, `MERGE`, `COPY … FROM`, `TRUNCATE`, DDL, `GRANT`/`REVOKE`, `REFRESH`… */
  | 'write'
  /** Session and other statements that change no data: `SET`, `LISTEN`, `NOTIFY`, `LOCK`, `PREPARE`… */
  | 'other'
  /** Text not known statically (a variable, `${query}` first), or a statement not recognised (`CALL`, `DO`). */
  | 'unknown';

export interface SqlStatement {
  /** Kind of the first statement. */
  kind: SqlStatementKind;
  /** Kind of each `;`-separated statement, in order (`BEGIN; INSERT …; COMMIT` → begin, write, commit). */
  kinds: SqlStatementKind[];
  /** First keyword, upper-cased (`INSERT`), when known. */
  keyword: string | undefined;
  /** True when a statement is known to write. Unknown text is not a write. */
  isWrite: boolean;
  /** `INSERT … ON CONFLICT` present (an upsert or "already done" on a unique constraint). */
  hasOnConflict: boolean;
}

const READ_KEYWORDS = new Set(['SELECT', 'SHOW', 'EXPLAIN', 'VALUES', 'TABLE', 'FETCH', 'DESCRIBE']);
const WRITE_KEYWORDS = new Set([
  'INSERT', 'UPDATE', 'DELETE', 'MERGE', 'UPSERT', 'TRUNCATE', 'CREATE', 'ALTER', 'DROP', 'GRANT', 'REVOKE',
  'COMMENT', 'REINDEX', 'CLUSTER', 'REFRESH', 'VACUUM', 'ANALYZE', 'IMPORT', 'SECURITY', 'REASSIGN',
]);
const OTHER_KEYWORDS = new Set([
  'SET', 'RESET', 'LISTEN', 'UNLISTEN', 'NOTIFY', 'LOCK', 'PREPARE', 'EXECUTE', 'DEALLOCATE', 'DISCARD', 'DECLARE',
  'CLOSE', 'MOVE', 'CHECKPOINT', 'LOAD',
]);

/** `$$` or `$tag$`, read where a `$` is. */
const DOLLAR_QUOTE = /\$[A-Za-z_]{0,62}\$/y;

/** Removes comments and quoted text (strings, quoted identifiers, dollar quotes) so keywords can be read. */
function stripSql(text: string): string {
  // Plain runs are copied as slices between the parts replaced: a character at a time
  // made a string per character of a long statement.
  let result = '';
  let plainFrom = 0;
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    const next = text[index + 1];
    let end: number;
    let replacement: string;
    if (char === '-' && next === '-') {
      const lineEnd = text.indexOf('\n', index);
      end = lineEnd === -1 ? text.length : lineEnd;
      replacement = ' ';
    } else if (char === '/' && next === '*') {
      const commentEnd = text.indexOf('*/', index + 2);
      end = commentEnd === -1 ? text.length : commentEnd + 2;
      replacement = ' ';
    } else if (char === "'" || char === '"') {
      let close = index + 1;
      while (close < text.length) {
        if (text[close] === char && text[close + 1] === char) close += 2;
        else if (text[close] === char) break;
        else close += 1;
      }
      end = close + 1;
      replacement = char === "'" ? " '' " : ' "q" ';
    } else if (char === '$' && (DOLLAR_QUOTE.lastIndex = index, DOLLAR_QUOTE.test(text))) {
      const tag = text.slice(index, DOLLAR_QUOTE.lastIndex);
      const close = text.indexOf(tag, index + tag.length);
      end = close === -1 ? text.length : close + tag.length;
      replacement = " '' ";
    } else {
      index += 1;
      continue;
    }
    result += text.slice(plainFrom, index) + replacement;
    index = Math.min(end, text.length);
    plainFrom = index;
  }
  return result + text.slice(plainFrom);
}

/** The first two words of a statement, after leading spaces and parentheses; undefined when it does not start with a letter. */
const LEADING_WORDS = /^[\s(]*([A-Za-z][A-Za-z_]*)(?:[^A-Za-z_]+([A-Za-z_]+))?/;

function classifyOne(statement: string): { kind: SqlStatementKind; keyword: string | undefined } {
  // Only the first words decide, but for WITH and COPY: a migration's statement is long, so it is not split into words up front.
  const leading = LEADING_WORDS.exec(statement);
  const first = leading?.[1]?.toUpperCase();
  const second = leading?.[2]?.toUpperCase();
  if (first === undefined) return { kind: 'unknown', keyword: undefined };
  const words = (): string[] => statement.split(/[^A-Za-z_]+/).filter(Boolean);
  switch (first) {
    case 'BEGIN':
      return { kind: 'begin', keyword: first };
    case 'START':
      return { kind: second === 'TRANSACTION' ? 'begin' : 'unknown', keyword: first };
    case 'COMMIT':
    case 'END':
      return { kind: 'commit', keyword: first };
    case 'ROLLBACK':
    case 'ABORT':
      return { kind: second === 'TO' ? 'savepoint' : 'rollback', keyword: first };
    case 'SAVEPOINT':
    case 'RELEASE':
      return { kind: 'savepoint', keyword: first };
    case 'WITH': {
      // A data-modifying CTE writes: `WITH moved AS (DELETE … RETURNING *) INSERT …`.
      const writes = words().some((word) => /^(insert|update|delete|merge)$/i.test(word));
      return { kind: writes ? 'write' : 'read', keyword: first };
    }
    case 'COPY':
      return { kind: words().some((word) => /^from$/i.test(word)) ? 'write' : 'read', keyword: first };
    default:
      if (READ_KEYWORDS.has(first)) return { kind: 'read', keyword: first };
      if (WRITE_KEYWORDS.has(first)) return { kind: 'write', keyword: first };
      if (OTHER_KEYWORDS.has(first)) return { kind: 'other', keyword: first };
      // `CALL proc()`, `DO $$ … $$`, and anything else: a function may or may not write.
      return { kind: 'unknown', keyword: first };
  }
}

/** Classifies a SQL text (one or several `;`-separated statements). */
export function classifySql(text: string): SqlStatement {
  const stripped = stripSql(text);
  const parts = stripped.split(';').filter((part) => part.trim() !== '');
  const classified = parts.length === 0 ? [{ kind: 'unknown' as const, keyword: undefined }] : parts.map(classifyOne);
  const first = classified[0] ?? { kind: 'unknown' as const, keyword: undefined };
  return {
    kind: first.kind,
    kinds: classified.map((part) => part.kind),
    keyword: first.keyword,
    isWrite: classified.some((part) => part.kind === 'write'),
    hasOnConflict: /\bON\s+CONFLICT\b/i.test(stripped),
  };
}

/** Placeholder put where a template's `${…}` was, so the words around it stay apart. */
const HOLE = ' $0 ';

/**
 * The statically known SQL text of a query argument: a string, a template literal
 * (`${…}` become placeholders), a tagged template's text, `{ text: … }`, or a `const`
 * holding one of these. Undefined when not known.
 */
export function getSqlText(context: AnyRuleContext | undefined, node: TSESTree.Node, depth = 0): string | undefined {
  const expression = unwrapExpression(node);
  switch (expression.type) {
    case AST_NODE_TYPES.Literal:
      return typeof expression.value === 'string' ? expression.value : undefined;
    case AST_NODE_TYPES.TemplateLiteral:
      return joinTemplate(expression);
    case AST_NODE_TYPES.TaggedTemplateExpression:
      return joinTemplate(expression.quasi);
    case AST_NODE_TYPES.ObjectExpression: {
      for (const property of expression.properties) {
        if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
        const key = property.key;
        const name = key.type === AST_NODE_TYPES.Identifier ? key.name : key.type === AST_NODE_TYPES.Literal ? key.value : undefined;
        if (name === 'text') return depth < 3 ? getSqlText(context, property.value, depth + 1) : undefined;
      }
      return undefined;
    }
    case AST_NODE_TYPES.Identifier: {
      if (!context || depth >= 3) return undefined;
      const variable = ASTUtils.findVariable(context.sourceCode.getScope(expression), expression);
      const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
      if (definition?.node.type !== AST_NODE_TYPES.VariableDeclarator || !definition.node.init) return undefined;
      if (definition.parent?.type !== AST_NODE_TYPES.VariableDeclaration || definition.parent.kind !== 'const') return undefined;
      return getSqlText(context, definition.node.init, depth + 1);
    }
    default:
      return undefined;
  }
}

function joinTemplate(template: TSESTree.TemplateLiteral): string {
  return template.quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw).join(HOLE);
}

const UNKNOWN: SqlStatement = { kind: 'unknown', kinds: ['unknown'], keyword: undefined, isWrite: false, hasOnConflict: false };

/** Per argument node, in the linted file's tree (a context follows its `const`s; without one, only literals are read). */
const statementsByNode = new WeakMap<TSESTree.Node, SqlStatement>();

/** The statement a query argument runs; `kind: 'unknown'` (not a write) when its text is not known. */
export function getSqlStatement(context: AnyRuleContext | undefined, node: TSESTree.Node | undefined): SqlStatement {
  if (!node) return UNKNOWN;
  // Asked of one argument by the call finder and again by the analyses: a migration's text is long.
  const known = context ? statementsByNode.get(node) : undefined;
  if (known) return known;
  const text = getSqlText(context, node);
  const statement = text === undefined ? UNKNOWN : classifySql(text);
  if (context) statementsByNode.set(node, statement);
  return statement;
}
