import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { findClassFieldReads, findPgPools, getOutermostChosenValue, getOutermostSameValue, isErrorListenerCall, type PgPoolSite } from '../analysis/clients';
import { getFileScope } from '../analysis/ast';
import { getCodeStyle, getIndent, insertLine, isStatementListItem } from '../fix';
import { createRule } from '../util/create-rule';
import { quoteCode } from '../util/quote-code';

type MessageId = 'missingErrorListener' | 'addErrorListener';

export default createRule<[], MessageId>({
  name: 'pg-require-pool-error-listener',
  meta: {
    type: 'problem',
    docs: {
      description: "Require an 'error' listener on every PostgreSQL `pg` Pool.",
      database: 'PostgreSQL',
    },
    hasSuggestions: true,
    messages: {
      missingErrorListener:
        "PostgreSQL pool `{{name}}` has no 'error' listener: when the server drops an idle connection (a failover, a restart), the pool's 'error' crashes the process. Add `.on('error', …)` to it.",
      addErrorListener: "Add `{{name}}.on('error', …)` that logs the error.",
    },
    schema: [],
    defaultOptions: [],
  },
  defaultOptions: [],
  create(context) {
    return {
      'Program:exit'() {
        const pools = findPgPools(context);
        if (pools.length === 0) return;
        const check = createPoolCheck(context);
        for (const pool of pools) check(pool);
      },
    };
  },
});

/** The checks of one file, made only when it has something to check (most files have not). */
function createPoolCheck(context: Readonly<TSESLint.RuleContext<MessageId, []>>): (pool: PgPoolSite) => void {
  const sourceCode = context.sourceCode;

  /**
   * The pool is handed to other code (`wrap(pool)`, `new Dialect({ pool })`), which may
   * attach the listener; or a factory returns the pool it made (its caller owns it). A
   * module-level or class-owned pool that a getter returns is still this file's pool.
   */
  function isHandedOn(pool: PgPoolSite, reference: TSESTree.Node, depth = 0): boolean {
    // `cond ? new Pool(a) : new Pool(b)`, `options.pool ?? new Pool()`: the pool goes where the whole expression goes.
    const outer = getOutermostChosenValue(reference);
    const parent = outer.parent;
    if (!parent) return false;
    switch (parent.type) {
      case AST_NODE_TYPES.CallExpression:
        return parent.arguments.includes(outer as TSESTree.CallExpressionArgument);
      case AST_NODE_TYPES.NewExpression: {
        if (!parent.arguments.includes(outer as TSESTree.CallExpressionArgument)) return false;
        // `new Holder(pool)` of a class of this file that keeps it in a field: still this file's
        // pool, unless a read of that field listens for 'error' or hands it on.
        const reads = depth === 0 ? findClassFieldReads(context, parent, outer) : undefined;
        return !reads || reads.some((read) => isErrorListenerCall(context, read) || isHandedOn(pool, read, depth + 1) || isAliased(read));
      }
      case AST_NODE_TYPES.Property:
        return parent.value === outer && parent.parent.type === AST_NODE_TYPES.ObjectExpression && isObjectHandedOn(pool, parent.parent);
      case AST_NODE_TYPES.ArrayExpression:
      case AST_NODE_TYPES.SpreadElement:
        return true;
      case AST_NODE_TYPES.ReturnStatement:
        return isMadeByFactory(pool);
      case AST_NODE_TYPES.ArrowFunctionExpression:
        return parent.body === outer && isMadeByFactory(pool);
      default:
        return false;
    }
  }

  /** `const p = holder.pool`, `other = this.pool`: followed no further. */
  function isAliased(read: TSESTree.Node): boolean {
    const parent = getOutermostSameValue(read).parent;
    return parent?.type === AST_NODE_TYPES.VariableDeclarator || parent?.type === AST_NODE_TYPES.AssignmentExpression;
  }

  /**
   * An object literal holding the pool goes to other code, unless it is this module's
   * exports (`module.exports = { pool }`, `export default { pool }`) or a getter's result.
   */
  function isObjectHandedOn(pool: PgPoolSite, object: TSESTree.ObjectExpression): boolean {
    const outer = getOutermostSameValue(object);
    const parent = outer.parent;
    if (parent?.type === AST_NODE_TYPES.ExportDefaultDeclaration) return false;
    if (parent?.type === AST_NODE_TYPES.ReturnStatement) return isMadeByFactory(pool);
    if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.right === outer) return !isExportsTarget(parent.left);
    return true;
  }

  /** `module.exports`, `module.exports.x`, `exports.x`. */
  function isExportsTarget(node: TSESTree.Node): boolean {
    if (node.type !== AST_NODE_TYPES.MemberExpression) return false;
    const object = node.object;
    if (object.type === AST_NODE_TYPES.Identifier) {
      return object.name === 'exports' || (object.name === 'module' && sourceCode.getText(node.property) === 'exports');
    }
    return isExportsTarget(object);
  }

  /** Not stored, or stored in a function's local variable: the pool of each call. */
  function isMadeByFactory(pool: PgPoolSite): boolean {
    const binding = pool.binding;
    if (!binding) return true;
    if (binding.kind === 'member') return false;
    // A CommonJS file's top level is a function scope with ESLint's own parser: still the module's own pool.
    return binding.variable.scope !== getFileScope(sourceCode) && binding.variable.scope.type !== 'global';
  }

  function getName(pool: PgPoolSite): string {
    const binding = pool.binding;
    if (!binding) return 'new Pool()';
    if (binding.kind === 'variable') return binding.name;
    const statement = binding.statement;
    if (
      statement.type === AST_NODE_TYPES.ExpressionStatement &&
      statement.expression.type === AST_NODE_TYPES.AssignmentExpression
    ) {
      return sourceCode.getText(statement.expression.left);
    }
    if (statement.type === AST_NODE_TYPES.PropertyDefinition) {
      return `this.${statement.key.type === AST_NODE_TYPES.PrivateIdentifier ? '#' : ''}${binding.name}`;
    }
    return `this.${binding.name}`;
  }

  function listenerText(receiver: string, indent: string): string {
    // Without pg's types a TypeScript file would get an implicitly `any` parameter.
    const typescript = getCodeStyle(context).typescript;
    return (
      `${receiver}.on('error', (err${typescript ? ': Error' : ''}) => {\n` +
      `${indent}  console.error('Unexpected error on an idle PostgreSQL client', err);\n` +
      `${indent}})`
    );
  }

  function getSuggestionFix(pool: PgPoolSite, name: string): TSESLint.ReportFixFunction | undefined {
    const binding = pool.binding;
    const statement = binding?.statement;
    const canFollow =
      statement &&
      isStatementListItem(statement) &&
      (binding.kind === 'variable' || statement.type === AST_NODE_TYPES.ExpressionStatement) &&
      // `pool ??= new Pool()` runs on every call: a listener after it would pile up.
      !binding.conditional;
    if (statement && canFollow) {
      const indent = getIndent(sourceCode, statement, 'leading');
      return (fixer) => insertLine(sourceCode, fixer, 'after', statement, `${listenerText(name, indent)};`, 'leading');
    }
    // A class field or an unnamed pool: `on` returns the pool, so chain it onto the construction.
    if (binding?.kind === 'member' || binding?.conditional || !binding) {
      const indent = statement ? getIndent(sourceCode, statement, 'leading') : getIndent(sourceCode, pool.node, 'line');
      const construction = pool.node;
      // `new Pool` without parentheses would turn into `new Pool.on(…)`.
      if (sourceCode.getLastToken(construction)?.value !== ')') return undefined;
      return (fixer) => fixer.insertTextAfter(construction, listenerText('', indent));
    }
    return undefined;
  }

  /** Statements that store a reported pool: `const pool = url ? new Pool(a) : new Pool(b)` gets one report, as one listener serves both. */
  const reportedStatements = new Set<TSESTree.Node>();

  return (pool) => {
    const references = pool.references;
    if (references.some((reference) => isErrorListenerCall(context, reference))) return;
    if (references.some((reference) => isHandedOn(pool, reference))) return;
    const statement = pool.binding?.kind === 'variable' ? pool.binding.statement : undefined;
    if (statement) {
      if (reportedStatements.has(statement)) return;
      reportedStatements.add(statement);
    }
    const name = getName(pool);
    const fix = getSuggestionFix(pool, name);
    context.report({
      node: pool.node,
      messageId: 'missingErrorListener',
      data: { name: quoteCode(name) },
      suggest: fix ? [{ messageId: 'addErrorListener', data: { name: pool.binding ? quoteCode(name) : 'pool' }, fix }] : [],
    });
  };
}
