/**
 * Calls that open a MongoDB connection with a URI and an options object:
 * `new MongoClient(uri, options)`, `MongoClient.connect(uri, options)`,
 * `mongoose.connect(uri, options)`, `mongoose.createConnection(uri, options)`.
 * Found by following `mongodb` / `mongoose` imports and requires, so look-alikes
 * from other libraries are never matched.
 */
import { ASTUtils, AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getKeyName, unwrapExpression } from '../ast';
import { findModuleReferences, hasModuleImport, type TraceMap } from '../modules';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';
import { MONGO_MODULES } from './mongo-vocabulary';

export type UriLiteral = TSESTree.StringLiteral | TSESTree.TemplateLiteral;

export interface MongoConnectCall {
  node: TSESTree.CallExpression | TSESTree.NewExpression;
  /** How the call reads in messages, e.g. `new MongoClient()`. */
  callee: string;
  /** The literal that is the URI argument (directly or through a `const`). */
  uriLiteral: UriLiteral | undefined;
  /** A literal fallback of the URI argument (`process.env.URI ?? 'mongodb://…'`): tells the host, not the value. */
  fallbackUriLiteral: UriLiteral | undefined;
  /** The options object literal (directly or through a `const`). */
  options: TSESTree.ObjectExpression | undefined;
  /** The `retryWrites: true|false` property that takes effect, when it is a boolean literal. */
  retryWritesProperty: (TSESTree.Property & { value: TSESTree.BooleanLiteral }) | undefined;
  /** `tlsCAFile` / `sslCA` string value of the options object, when literal. */
  caFile: string | undefined;
}

const { CALL, CONSTRUCT, ESM } = ASTUtils.ReferenceTracker;

const mongoClientTrace = { [CONSTRUCT]: 'new MongoClient()', connect: { [CALL]: 'MongoClient.connect()' } };
const mongooseTrace = {
  connect: { [CALL]: 'mongoose.connect()' },
  createConnection: { [CALL]: 'mongoose.createConnection()' },
};
const traceMap = {
  mongodb: { [ESM]: true, MongoClient: mongoClientTrace, default: { MongoClient: mongoClientTrace } },
  mongoose: { [ESM]: true, ...mongooseTrace, default: mongooseTrace },
} as unknown as TraceMap<string>;

/**
 * Every MongoDB connect call of the file, found once per file. A file whose text names
 * neither package has none, and is not searched (most files of a project).
 */
export const findMongoConnectCalls = createPerFileCache((context: AnyRuleContext): readonly MongoConnectCall[] => {
  if (!hasModuleImport(context, MONGO_MODULES)) return [];
  const calls: MongoConnectCall[] = [];
  for (const reference of findModuleReferences(context, traceMap)) {
    const node = reference.node;
    if (node.type !== AST_NODE_TYPES.CallExpression && node.type !== AST_NODE_TYPES.NewExpression) continue;
    calls.push(describeCall(context.sourceCode, node, reference.info));
  }
  return calls;
});

function describeCall(
  sourceCode: Readonly<TSESLint.SourceCode>,
  node: TSESTree.CallExpression | TSESTree.NewExpression,
  callee: string,
): MongoConnectCall {
  const [uriArgument, optionsArgument] = node.arguments;
  const uriValue = uriArgument && resolveConst(sourceCode, uriArgument);
  const uriLiteral = uriValue && isUriLiteral(uriValue) ? uriValue : undefined;
  let fallbackUriLiteral: UriLiteral | undefined;
  if (uriValue?.type === AST_NODE_TYPES.LogicalExpression && (uriValue.operator === '??' || uriValue.operator === '||')) {
    const fallback = resolveConst(sourceCode, uriValue.right);
    if (isUriLiteral(fallback)) fallbackUriLiteral = fallback;
  }
  const optionsValue = optionsArgument && resolveConst(sourceCode, optionsArgument);
  const options = optionsValue?.type === AST_NODE_TYPES.ObjectExpression ? optionsValue : undefined;
  return {
    node,
    callee,
    uriLiteral,
    fallbackUriLiteral,
    options,
    retryWritesProperty: options && getRetryWritesProperty(options),
    caFile: options && getCaFile(sourceCode, options),
  };
}

function isUriLiteral(node: TSESTree.Node | undefined): node is UriLiteral {
  if (!node) return false;
  if (node.type === AST_NODE_TYPES.TemplateLiteral) return true;
  return node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string';
}

/** `x` → the initializer of `const x = …` when it is the only definition; other nodes unchanged. TS wrappers (`!`, `as`) are looked through. */
export function resolveConst(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): TSESTree.Node {
  const unwrapped = unwrapExpression(node, { typeAssertions: false, chains: false });
  if (unwrapped.type !== AST_NODE_TYPES.Identifier) return unwrapped;
  const variable = ASTUtils.findVariable(sourceCode.getScope(unwrapped), unwrapped);
  const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (
    definition?.node.type !== AST_NODE_TYPES.VariableDeclarator ||
    definition.node.id.type !== AST_NODE_TYPES.Identifier ||
    definition.parent?.type !== AST_NODE_TYPES.VariableDeclaration ||
    definition.parent.kind !== 'const' ||
    !definition.node.init
  ) {
    return unwrapped;
  }
  return unwrapExpression(definition.node.init, { typeAssertions: false, chains: false });
}

/** The last `retryWrites` property with a boolean literal value, unless a later spread may override it. */
function getRetryWritesProperty(options: TSESTree.ObjectExpression): MongoConnectCall['retryWritesProperty'] {
  let found: MongoConnectCall['retryWritesProperty'];
  for (const property of options.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) {
      found = undefined;
      continue;
    }
    if (getKeyName(property, { templates: false })?.toLowerCase() !== 'retrywrites') continue;
    const value = property.value;
    found =
      value.type === AST_NODE_TYPES.Literal && typeof value.value === 'boolean' && property.kind === 'init'
        ? (property as TSESTree.Property & { value: TSESTree.BooleanLiteral })
        : undefined;
  }
  return found;
}

/**
 * The CA file named by `tlsCAFile` / `tlsCertificateFile`-style options: a string, or the
 * `.pem` path inside how the value is built (`path.resolve(__dirname, 'global-bundle.pem')`,
 * `` `${dir}/global-bundle.pem` ``, `fs.readFileSync('rds-combined-ca-bundle.pem')`, an
 * array of them for `ca`).
 */
function getCaFile(sourceCode: Readonly<TSESLint.SourceCode>, options: TSESTree.ObjectExpression): string | undefined {
  for (const property of options.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const name = getKeyName(property, { templates: false })?.toLowerCase();
    if (name !== 'tlscafile' && name !== 'sslca' && name !== 'ca') continue;
    const value = property.value;
    if (value.type === AST_NODE_TYPES.Literal && typeof value.value === 'string' && name !== 'ca') return value.value;
    const pem = findPemPath(sourceCode, value, 0);
    if (pem !== undefined) return pem;
  }
  return undefined;
}

/** A string ending in `.pem` among the literal pieces of an expression, a few calls deep. */
function findPemPath(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node, depth: number): string | undefined {
  if (depth > 3) return undefined;
  const value = resolveConst(sourceCode, node);
  if (value.type === AST_NODE_TYPES.Literal) return typeof value.value === 'string' && /\.pem$/i.test(value.value) ? value.value : undefined;
  if (value.type === AST_NODE_TYPES.TemplateLiteral) {
    const last = value.quasis[value.quasis.length - 1]?.value.cooked ?? '';
    return /\.pem$/i.test(last) ? last.replace(/^\//, '') : undefined;
  }
  const parts =
    value.type === AST_NODE_TYPES.CallExpression
      ? value.arguments
      : value.type === AST_NODE_TYPES.ArrayExpression
        ? value.elements
        : value.type === AST_NODE_TYPES.BinaryExpression && value.operator === '+'
          ? [value.right]
          : [];
  for (const part of parts) {
    if (!part || part.type === AST_NODE_TYPES.SpreadElement) continue;
    const found = findPemPath(sourceCode, part, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
