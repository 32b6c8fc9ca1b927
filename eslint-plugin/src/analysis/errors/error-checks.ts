import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { getKeyName, type KeyNameOptions, unwrapExpression, type UnwrapOptions, visitNodes } from '../ast';
import { type ErrorProperty, type ErrorValue, getErrorNature } from './transient-errors';

/** Error values are read through `await` too: `(await attempt()).code`. */
export const THROUGH_AWAIT: UnwrapOptions = { awaits: true };
/** Member names as the error checks read them: `a.b`, `a['b']`; no private names or template keys. */
export const MEMBER_NAME: KeyNameOptions = { templates: false, privateNames: 'none' };

/**
 * One condition of a retry decision, read from the caught error's side: which property
 * it looks at (`err.name`, `err.code`, `err.$metadata.httpStatusCode`, a label), which
 * values it compares with (`=== 'X'`, `includes`, `Set.has`, `startsWith`, `switch`),
 * or that it checks in a way whose values are unknown (a helper, `instanceof`,
 * `err.$retryable`). `error-paths.ts` puts the conditions on paths.
 */

/** How a check looks at the error. */
export type ErrorCheckKind = ErrorProperty | 'retryable' | 'helper' | 'instanceof' | 'other';

/** A value compared with the error, with the node that holds it (for reports). */
export interface ErrorValueCheck extends ErrorValue {
  node: TSESTree.Node;
}

/** One condition met on a path, as seen from the error. */
export interface ErrorCondition {
  /** `in`: the path needs the error to be one of `values`; `notIn`: the path needs it to be none of them. */
  polarity: 'in' | 'notIn';
  values: ErrorValueCheck[];
  /** A check whose values are not known (`isRetryable(err)`, `err instanceof X`, `err.$retryable`). */
  isOpaque: boolean;
  /** The condition can be met without the error check (`attempt < 3 || err.code === 'X'`). */
  isWeak: boolean;
  kinds: ErrorCheckKind[];
}

/** The caught error as the decision names it: its variable and the names bound from it. */
export interface ErrorBinding {
  errorName: string | undefined;
  /** Properties bound from the error (`const { code } = err`, `catch ({ code })`) or expressions over it. */
  aliases: Map<string, TSESTree.Node | ErrorCheckKind>;
}

export function analyzeCase(discriminant: TSESTree.Expression, tests: TSESTree.Expression[], negated: boolean, rules: ErrorBinding): ErrorCondition | undefined {
  const property = getErrorProperty(discriminant, rules);
  if (!property) {
    // `switch (true) { case err.code === 'X': … }`
    if (unwrapExpression(discriminant, THROUGH_AWAIT).type === AST_NODE_TYPES.Literal && tests.length > 0) {
      const parts = tests.map((test) => analyzeTest(test, false, rules)).filter((part): part is ErrorCondition => part !== undefined);
      if (parts.length === 0) return undefined;
      if (parts.every((part) => !part.isOpaque && part.polarity === 'in')) {
        return makeCondition(negated ? 'notIn' : 'in', parts.flatMap((part) => part.values), parts.flatMap((part) => part.kinds));
      }
      return opaque(parts.flatMap((part) => part.kinds));
    }
    return referencesError(discriminant, rules) ? opaque(['other']) : undefined;
  }
  if (property === 'retryable' || property === 'other') return opaque([property]);
  const values = tests.flatMap((test) => toValueChecks(property, test, 'equal'));
  if (values.length !== tests.length) return opaque([property]);
  return makeCondition(negated ? 'notIn' : 'in', values, [property]);
}

export function analyzeTest(test: TSESTree.Expression | TSESTree.PrivateIdentifier, negated: boolean, rules: ErrorBinding): ErrorCondition | undefined {
  const node = unwrapExpression(test, THROUGH_AWAIT);
  switch (node.type) {
    case AST_NODE_TYPES.UnaryExpression:
      if (node.operator === '!') return analyzeTest(node.argument, !negated, rules);
      return referencesError(node, rules) ? opaque(['other']) : undefined;
    case AST_NODE_TYPES.LogicalExpression:
      return analyzeLogical(node, negated, rules);
    case AST_NODE_TYPES.BinaryExpression:
      return analyzeBinary(node, negated, rules);
    case AST_NODE_TYPES.CallExpression:
      return analyzeCall(node, negated, rules);
    case AST_NODE_TYPES.MemberExpression: {
      const property = getErrorProperty(node, rules);
      if (property === 'retryable') return opaque(['retryable']);
      if (property) return opaque([property]);
      // `err[key]`: a check on the error whose property is not known.
      return referencesError(node, rules) ? opaque(['other']) : undefined;
    }
    case AST_NODE_TYPES.Identifier: {
      const alias = rules.aliases.get(node.name);
      if (alias === undefined) return undefined;
      if (typeof alias === 'string') return opaque([alias]);
      return analyzeTest(alias as TSESTree.Expression, negated, rules);
    }
    default:
      return referencesError(node, rules) ? opaque(['other']) : undefined;
  }
}

function analyzeLogical(node: TSESTree.LogicalExpression, negated: boolean, rules: ErrorBinding): ErrorCondition | undefined {
  const left = analyzeTest(node.left, negated, rules);
  const right = analyzeTest(node.right, negated, rules);
  if (node.operator === '??') return left ?? right;
  // De Morgan: under negation `||` behaves as `&&` and the other way round.
  const isAnd = (node.operator === '&&') !== negated;
  if (!left || !right) {
    const only = left ?? right;
    if (!only) return undefined;
    // `attempt < 3 && err.code === 'X'` restricts; `attempt < 3 || err.code === 'X'` does not.
    return isAnd ? only : { ...only, isWeak: true };
  }
  const kinds = [...new Set([...left.kinds, ...right.kinds])];
  const isWeak = isAnd ? left.isWeak && right.isWeak : left.isWeak || right.isWeak;
  if (!left.isOpaque && !right.isOpaque && left.polarity === right.polarity) {
    // `a === X || a === Y` → in [X, Y]; `a !== X && a !== Y` → notIn [X, Y];
    // `a.name === X && a.code === Y` → in [X, Y] (both required).
    if (left.polarity === 'in' || isAnd) return { ...makeCondition(left.polarity, [...left.values, ...right.values], kinds), isWeak };
    // `a !== X || a !== Y` holds for every error.
    return { ...opaque(kinds), isWeak: true };
  }
  if (isAnd) {
    // `err instanceof Error && err.name === 'X'`, `err.code === 'X' && err.name !== 'Y'`: the required value carries the meaning.
    const required = [left, right].find((part) => !part.isOpaque && part.polarity === 'in');
    if (required) return { ...required, kinds, isWeak };
    if (!right.isOpaque && left.isOpaque) return { ...right, kinds, isWeak };
    if (!left.isOpaque && right.isOpaque) return { ...left, kinds, isWeak };
  }
  return { ...opaque(kinds), isWeak };
}

function analyzeBinary(node: TSESTree.BinaryExpression, negated: boolean, rules: ErrorBinding): ErrorCondition | undefined {
  if (node.operator === 'instanceof') {
    if (!referencesError(node.left, rules)) return undefined;
    const named = getSdkExceptionName(node.right);
    return named ? makeCondition(negated ? 'notIn' : 'in', [named], ['instanceof']) : opaque(['instanceof']);
  }
  if (node.operator === 'in') return referencesError(node.right, rules) ? opaque(['other']) : undefined;
  const isEquality = node.operator === '===' || node.operator === '==';
  const isInequality = node.operator === '!==' || node.operator === '!=';
  if (isEquality || isInequality) {
    for (const [side, other] of [
      [node.left, node.right],
      [node.right, node.left],
    ] as const) {
      const property = getErrorProperty(side, rules);
      if (!property) continue;
      if (property === 'retryable' || property === 'other') return opaque([property]);
      const values = toValueChecks(property, other, 'equal');
      if (values.length === 0) {
        // `typeof err.code === 'string'`, `err.code === ErrorCodes.X`
        return opaque([property]);
      }
      const isIn = isEquality !== negated;
      return makeCondition(isIn ? 'in' : 'notIn', values, [property]);
    }
    // `typeof err === 'object'`, `getCode(err) === 'X'`
    if (referencesError(node, rules)) return opaque(['other']);
    return undefined;
  }
  return referencesError(node, rules) ? opaque(kindOfComparison(node, rules)) : undefined;
}

function kindOfComparison(node: TSESTree.BinaryExpression, rules: ErrorBinding): ErrorCheckKind[] {
  const property = getErrorProperty(node.left as TSESTree.Expression, rules) ?? getErrorProperty(node.right, rules);
  return [property ?? 'other'];
}

function analyzeCall(node: TSESTree.CallExpression, negated: boolean, rules: ErrorBinding): ErrorCondition | undefined {
  const callee = unwrapExpression(node.callee, THROUGH_AWAIT);
  const argument = node.arguments[0];
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const method = getKeyName(callee, MEMBER_NAME);
    const polarity = negated ? 'notIn' : 'in';
    // `['A', 'B'].includes(err.code)`, `RETRYABLE.has(err.name)`
    if ((method === 'includes' || method === 'has') && argument && argument.type !== AST_NODE_TYPES.SpreadElement) {
      const property = getErrorProperty(argument, rules);
      if (property && property !== 'retryable' && property !== 'other') {
        const values = getListValues(callee.object, property as ErrorProperty);
        return values ? makeCondition(polarity, values, [property]) : opaque([property]);
      }
    }
    // `err.code.startsWith('08')`, `err.message.includes('Connection terminated')`, `err.errorLabels.includes('X')`
    const objectProperty = getErrorProperty(callee.object, rules);
    if (objectProperty && argument && argument.type !== AST_NODE_TYPES.SpreadElement) {
      if (objectProperty === 'label' && method === 'includes') {
        return makeCondition(polarity, toValueChecks('label', argument, 'equal'), ['label']);
      }
      if (method === 'startsWith' && objectProperty !== 'retryable' && objectProperty !== 'other') {
        const values = toValueChecks(objectProperty, argument, 'prefix');
        return values.length > 0 ? makeCondition(polarity, values, [objectProperty]) : opaque([objectProperty]);
      }
      if (method === 'includes' && objectProperty === 'message') {
        const values = toValueChecks('message', argument, 'substring');
        return values.length > 0 ? makeCondition(polarity, values, ['message']) : opaque(['message']);
      }
      return opaque([objectProperty === 'retryable' ? 'retryable' : objectProperty]);
    }
    // MongoDB: `err.hasErrorLabel('RetryableWriteError')`
    if (method === 'hasErrorLabel' && isErrorReference(callee.object, rules) && argument) {
      return makeCondition(polarity, toValueChecks('label', argument, 'equal'), ['label']);
    }
    // `/terminated/.test(err.message)`
    if (method === 'test' && argument && getErrorProperty(argument, rules)) return opaque(['message']);
  }
  // `isRetryable(err)`, `isTransientError(err)`
  if (node.arguments.some((arg) => referencesError(arg, rules)) || referencesError(callee, rules)) {
    return (callee.type === AST_NODE_TYPES.Identifier && analyzePredicateCall(callee, node, negated, rules)) || opaque(['helper']);
  }
  return undefined;
}

/** Predicates being read, so that one that calls itself stays opaque. */
const predicatesInProgress = new Set<TSESTree.Node>();

/**
 * `isNotApplied(err)` where the file declares the predicate as a list of `const`s and one
 * `return` over its single parameter (`const code = error?.code; return CODES.includes(code);`):
 * its test, read as a check of the caller's error. Undefined for any other shape, or when
 * its test is itself opaque: the call then stays an opaque helper.
 */
function analyzePredicateCall(callee: TSESTree.Identifier, call: TSESTree.CallExpression, negated: boolean, rules: ErrorBinding): ErrorCondition | undefined {
  const [argument] = call.arguments;
  // The argument may be a wrapper (`isX(err.cause)`), whose properties count as the error's.
  if (call.arguments.length !== 1 || !argument || !isErrorReference(argument, rules, true)) return undefined;
  const fn = getDeclaredFunction(callee);
  const [param] = fn?.params ?? [];
  if (!fn || fn.async || fn.generator || fn.params.length !== 1 || param?.type !== AST_NODE_TYPES.Identifier || predicatesInProgress.has(fn)) return undefined;
  let statements: readonly TSESTree.Statement[] = [];
  let result: TSESTree.Expression;
  if (fn.body.type === AST_NODE_TYPES.BlockStatement) {
    const last = fn.body.body.at(-1);
    statements = fn.body.body.slice(0, -1);
    if (last?.type !== AST_NODE_TYPES.ReturnStatement || !last.argument) return undefined;
    if (!statements.every((statement) => statement.type === AST_NODE_TYPES.VariableDeclaration && statement.kind === 'const')) return undefined;
    result = last.argument;
  } else {
    result = fn.body;
  }
  const binding: ErrorBinding = { errorName: param.name, aliases: new Map() };
  predicatesInProgress.add(fn);
  try {
    collectAliases(statements, binding);
    const condition = analyzeTest(result, negated, binding);
    return condition && !condition.isOpaque ? condition : undefined;
  } finally {
    predicatesInProgress.delete(fn);
  }
}

type PredicateFunction = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

/** A function declared under `identifier`'s name in an enclosing block: `function f(…) {…}` or `const f = (…) => …`. */
function getDeclaredFunction(identifier: TSESTree.Identifier): PredicateFunction | undefined {
  return findInEnclosingBlocks(identifier, (declaration) => {
    if (declaration.type === AST_NODE_TYPES.FunctionDeclaration) return declaration.id?.name === identifier.name ? declaration : undefined;
    const init = getConstDeclaratorInit(declaration, identifier.name);
    if (init === undefined) return undefined;
    // The name is a `const` of another kind: no function, and no looking further out.
    return init.type === AST_NODE_TYPES.ArrowFunctionExpression || init.type === AST_NODE_TYPES.FunctionExpression ? init : null;
  });
}

/**
 * `err instanceof TransactionCanceledException`, `err instanceof client_dynamodb_1.ThrottlingException`:
 * the AWS SDK's exception classes carry the error's name, so the check reads `err.name`.
 * Other classes (an app's own, a driver's) say nothing known.
 */
function getSdkExceptionName(node: TSESTree.Node): ErrorValueCheck | undefined {
  const name = node.type === AST_NODE_TYPES.Identifier ? node.name : node.type === AST_NODE_TYPES.MemberExpression ? getKeyName(node, MEMBER_NAME) : undefined;
  if (name === undefined || !name.endsWith('Exception')) return undefined;
  const check: ErrorValueCheck = { property: 'name', value: name, match: 'equal', node };
  return getErrorNature(check, 'dynamodb') === undefined ? undefined : check;
}

function makeCondition(polarity: 'in' | 'notIn', values: ErrorValueCheck[], kinds: ErrorCheckKind[]): ErrorCondition {
  return { polarity, values, isOpaque: false, isWeak: false, kinds: [...new Set(kinds)] };
}

function opaque(kinds: ErrorCheckKind[]): ErrorCondition {
  return { polarity: 'in', values: [], isOpaque: true, isWeak: false, kinds: [...new Set(kinds)] };
}

const PROPERTY_KINDS: Record<string, ErrorProperty | 'retryable'> = {
  name: 'name',
  errorName: 'name',
  __type: 'name',
  codeName: 'name',
  errorType: 'name',
  code: 'code',
  Code: 'code',
  sqlState: 'code',
  sqlstate: 'code',
  errno: 'code',
  message: 'message',
  errmsg: 'message',
  httpStatusCode: 'httpStatus',
  statusCode: 'httpStatus',
  status: 'httpStatus',
  errorLabels: 'label',
  $retryable: 'retryable',
  retryable: 'retryable',
};

/** Wrappers around the error object whose properties are the database error's (`err.cause.code`). */
const WRAPPER_PROPERTIES = new Set(['cause', 'original', 'originalError', 'error', 'err', 'errorResponse', '$metadata', 'response', 'data', 'parent']);

/** `err.code`, `err?.$metadata?.httpStatusCode`, `(err as AWSError).name`, `String(err.code)`, `err.code ?? ''`, an alias `code`. */
function getErrorProperty(expression: TSESTree.Node, rules: ErrorBinding): ErrorCheckKind | undefined {
  const node = unwrapExpression(expression, THROUGH_AWAIT);
  // A default for a missing property (`err?.code ?? ''`) is no value the error has.
  if (node.type === AST_NODE_TYPES.LogicalExpression && (node.operator === '??' || node.operator === '||') && isDefaultValue(node.right)) {
    return getErrorProperty(node.left, rules);
  }
  if (node.type === AST_NODE_TYPES.Identifier) {
    const alias = rules.aliases.get(node.name);
    if (alias === undefined) return undefined;
    return typeof alias === 'string' ? alias : getErrorProperty(alias, rules);
  }
  if (node.type === AST_NODE_TYPES.CallExpression) {
    // `String(err.code)`, `Number(err.code)`, `err.code.toString()`, `err.name.toLowerCase()`
    const callee = unwrapExpression(node.callee, THROUGH_AWAIT);
    if (callee.type === AST_NODE_TYPES.Identifier && (callee.name === 'String' || callee.name === 'Number') && node.arguments[0]) {
      return getErrorProperty(node.arguments[0], rules);
    }
    if (callee.type === AST_NODE_TYPES.MemberExpression && ['toString', 'toUpperCase', 'toLowerCase', 'trim'].includes(getKeyName(callee, MEMBER_NAME) ?? '')) {
      return getErrorProperty(callee.object, rules);
    }
    return undefined;
  }
  if (node.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const name = getKeyName(node, MEMBER_NAME);
  if (name === undefined || !isErrorReference(node.object, rules, true)) return undefined;
  const kind = PROPERTY_KINDS[name];
  if (kind) return kind;
  return 'other';
}

/** `''`, `0`, `` `` ``: the literal a property read falls back to. */
function isDefaultValue(node: TSESTree.Node): boolean {
  const value = unwrapExpression(node, THROUGH_AWAIT);
  return (value.type === AST_NODE_TYPES.Literal && (typeof value.value === 'string' || typeof value.value === 'number')) || (value.type === AST_NODE_TYPES.TemplateLiteral && value.expressions.length === 0);
}

/** The error itself, an alias of it, or a wrapper property of it (`err.cause`). */
export function isErrorReference(expression: TSESTree.Node, rules: ErrorBinding, allowWrappers = false): boolean {
  const node = unwrapExpression(expression, THROUGH_AWAIT);
  if (node.type === AST_NODE_TYPES.Identifier) {
    if (node.name === rules.errorName) return true;
    const alias = rules.aliases.get(node.name);
    return alias !== undefined && typeof alias !== 'string' && isErrorReference(alias, rules, allowWrappers);
  }
  if (allowWrappers && node.type === AST_NODE_TYPES.MemberExpression) {
    const name = getKeyName(node, MEMBER_NAME);
    return name !== undefined && WRAPPER_PROPERTIES.has(name) && isErrorReference(node.object, rules, true);
  }
  return false;
}

export function referencesError(node: TSESTree.Node, rules: ErrorBinding): boolean {
  let found = false;
  visitNodes(node, { skipTypeAnnotations: true }, (child) => {
    if (found) return false;
    if (child.type === AST_NODE_TYPES.Identifier && (child.name === rules.errorName || rules.aliases.has(child.name))) {
      const parent = child.parent;
      const isPropertyName = parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === child && !parent.computed;
      if (!isPropertyName) found = true;
    }
    return !found;
  });
  return found;
}

/** The error parameter's name, or the properties bound by a destructuring parameter. */
export function readErrorParam(
  param: TSESTree.Node | null,
  contextKeys: readonly string[] = [],
): { errorName: string | undefined; aliases: Map<string, TSESTree.Node | ErrorCheckKind> } {
  const aliases = new Map<string, TSESTree.Node | ErrorCheckKind>();
  let node = param;
  if (node?.type === AST_NODE_TYPES.AssignmentPattern) node = node.left;
  if (!node) return { errorName: undefined, aliases };
  if (node.type === AST_NODE_TYPES.Identifier) return { errorName: node.name, aliases };
  if (node.type === AST_NODE_TYPES.ObjectPattern) {
    let errorName: string | undefined;
    for (const property of node.properties) {
      if (property.type !== AST_NODE_TYPES.Property) continue;
      const key = property.computed ? undefined : getKeyName(property);
      const target = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
      if (!key) continue;
      // p-retry 7: `shouldRetry({ error })`, `shouldRetry({ error: { code } })`
      if (contextKeys.includes(key) && target.type === AST_NODE_TYPES.ObjectPattern) {
        const inner = readErrorParam(target);
        for (const [name, kind] of inner.aliases) aliases.set(name, kind);
        continue;
      }
      if (target.type !== AST_NODE_TYPES.Identifier) continue;
      if (contextKeys.includes(key)) {
        errorName = target.name;
        continue;
      }
      const kind = PROPERTY_KINDS[key];
      if (kind) aliases.set(target.name, kind);
    }
    return { errorName, aliases };
  }
  return { errorName: undefined, aliases };
}

/** `const code = err.code`, `const { code } = err`, `const e = err as PgError`, `const retryable = isRetryable(err)`. */
export function collectAliases(statements: readonly TSESTree.Statement[], rules: ErrorBinding): void {
  if (rules.errorName === undefined && rules.aliases.size === 0) return;
  for (const statement of statements) {
    if (statement.type !== AST_NODE_TYPES.VariableDeclaration) continue;
    for (const declarator of statement.declarations) {
      const init = declarator.init;
      if (!init) continue;
      if (declarator.id.type === AST_NODE_TYPES.Identifier) {
        if (getErrorProperty(init, rules) || isErrorReference(init, rules) || referencesError(init, rules)) {
          rules.aliases.set(declarator.id.name, init);
        }
      } else if (declarator.id.type === AST_NODE_TYPES.ObjectPattern && isErrorReference(init, rules, true)) {
        for (const property of declarator.id.properties) {
          if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
          const key = getKeyName(property);
          const target = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
          const kind = key ? PROPERTY_KINDS[key] : undefined;
          if (kind && target.type === AST_NODE_TYPES.Identifier) rules.aliases.set(target.name, kind);
        }
      }
    }
  }
}

/** Literal values of a comparison operand: `'X'`, `23505`, a `const` holding one, or an array of them. */
function toValueChecks(property: ErrorCheckKind, node: TSESTree.Node, match: ErrorValue['match']): ErrorValueCheck[] {
  if (property === 'retryable' || property === 'helper' || property === 'instanceof' || property === 'other') return [];
  const value = unwrapExpression(node, THROUGH_AWAIT);
  if (value.type === AST_NODE_TYPES.Literal && (typeof value.value === 'string' || typeof value.value === 'number')) {
    return [{ property, value: value.value, match, node: value }];
  }
  if (value.type === AST_NODE_TYPES.TemplateLiteral && value.expressions.length === 0) {
    return [{ property, value: value.quasis[0]?.value.cooked ?? '', match, node: value }];
  }
  if (value.type === AST_NODE_TYPES.Identifier) {
    const init = getConstInit(value);
    if (init && init !== value) return toValueChecks(property, init, match);
  }
  return [];
}

/** Elements of `['A', 'B']`, `new Set(['A', 'B'])`, or a `const` holding one. */
function getListValues(node: TSESTree.Node, property: ErrorProperty): ErrorValueCheck[] | undefined {
  let value = unwrapExpression(node, THROUGH_AWAIT);
  if (value.type === AST_NODE_TYPES.Identifier) {
    const init = getConstInit(value);
    if (!init) return undefined;
    value = unwrapExpression(init, THROUGH_AWAIT);
  }
  if (value.type === AST_NODE_TYPES.NewExpression && value.arguments[0]) value = unwrapExpression(value.arguments[0], THROUGH_AWAIT);
  if (value.type !== AST_NODE_TYPES.ArrayExpression) return undefined;
  const values: ErrorValueCheck[] = [];
  for (const element of value.elements) {
    if (!element || element.type === AST_NODE_TYPES.SpreadElement) return undefined;
    const checks = toValueChecks(property, element, 'equal');
    if (checks.length === 0) return undefined;
    values.push(...checks);
  }
  return values;
}

/** The initializer of a `const` declared in the same file (found by walking up to the declaring scope). */
function getConstInit(identifier: TSESTree.Identifier): TSESTree.Expression | undefined {
  return findInEnclosingBlocks(identifier, (declaration) => getConstDeclaratorInit(declaration, identifier.name));
}

/** The initializer of `name` when `declaration` is a `const` declaring it. */
function getConstDeclaratorInit(declaration: TSESTree.Node, name: string): TSESTree.Expression | undefined {
  if (declaration.type !== AST_NODE_TYPES.VariableDeclaration || declaration.kind !== 'const') return undefined;
  for (const declarator of declaration.declarations) {
    if (declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === name && declarator.init) return declarator.init;
  }
  return undefined;
}

/**
 * The first answer `pick` gives for a statement (an exported one read as its declaration)
 * of a block around `identifier`, innermost block first; `null` ends the search with none.
 */
function findInEnclosingBlocks<T>(identifier: TSESTree.Identifier, pick: (declaration: TSESTree.Node) => T | null | undefined): T | undefined {
  for (let current: TSESTree.Node | undefined = identifier.parent; current; current = current.parent) {
    if (current.type !== AST_NODE_TYPES.Program && current.type !== AST_NODE_TYPES.BlockStatement && current.type !== AST_NODE_TYPES.StaticBlock) continue;
    for (const statement of current.body) {
      const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
      if (!declaration) continue;
      const found = pick(declaration);
      if (found === null) return undefined;
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// Small AST helpers

/** `retry`, `this.save` → `save`, `client.query` → `query`. */
export function getCalleeName(callee: TSESTree.Node): string | undefined {
  const node = unwrapExpression(callee, THROUGH_AWAIT);
  if (node.type === AST_NODE_TYPES.Identifier) return node.name;
  if (node.type === AST_NODE_TYPES.MemberExpression) return getKeyName(node, MEMBER_NAME);
  return undefined;
}
