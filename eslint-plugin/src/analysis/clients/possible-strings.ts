import { ASTUtils, AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { getKeyName } from '../ast';
import type { AnyRuleContext } from '../per-file-cache';
import { findImportedReads, getCommonJsExportName, parseModule, readModuleText, WHOLE_MODULE } from '../modules';
import { getParameterSlot, getSlotArguments } from './call-sites';
import { resolveConst } from './mongo-connect-calls';
import { getMemberCall } from './value-bindings';

const MAX_DEPTH = 4;

/**
 * The strings an expression can be, as far as the code says: a string literal, a `const`
 * holding one, the fallback of `process.env.X ?? 'host'` (or `||`), both branches of a
 * conditional, a parameter's default, or what every caller in the file passes for a
 * parameter (`run('batchWrite', params)` → `operation` is `'batchWrite'`). Undefined when
 * a value is unknown (an environment variable with no fallback, a call).
 */
export function getPossibleStrings(context: AnyRuleContext, node: TSESTree.Node, depth = 0): string[] | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const value = resolveConst(context.sourceCode, node);
  switch (value.type) {
    case AST_NODE_TYPES.Literal:
      return typeof value.value === 'string' ? [value.value] : undefined;
    case AST_NODE_TYPES.TemplateLiteral:
      return value.expressions.length === 0 ? [value.quasis[0]?.value.cooked ?? ''] : undefined;
    case AST_NODE_TYPES.LogicalExpression:
      // `process.env.DB_HOST ?? 'orders.cluster-….docdb.amazonaws.com'`: the code's own value is the fallback.
      return value.operator === '??' || value.operator === '||' ? getPossibleStrings(context, value.right, depth + 1) : undefined;
    case AST_NODE_TYPES.ConditionalExpression: {
      const consequent = getPossibleStrings(context, value.consequent, depth + 1);
      const alternate = getPossibleStrings(context, value.alternate, depth + 1);
      return consequent && alternate ? [...consequent, ...alternate] : undefined;
    }
    case AST_NODE_TYPES.Identifier:
      return getParameterStrings(context, value, depth) ?? getAliasStrings(context, value, depth) ?? getImportedStrings(context, value, depth);
    default:
      return undefined;
  }
}

/** `function connect(host = 'orders.cluster-….docdb.amazonaws.com')`, and what the file's callers pass. */
function getParameterStrings(context: AnyRuleContext, identifier: TSESTree.Identifier, depth: number): string[] | undefined {
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(identifier), identifier);
  const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || definition?.type !== 'Parameter') return undefined;
  const pattern = definition.name.parent;
  const fallback = pattern?.type === AST_NODE_TYPES.AssignmentPattern && pattern.left === definition.name ? pattern.right : undefined;
  const slot = getParameterSlot(variable);
  const passed = slot && getSlotArguments(context, slot);
  if (!passed) return fallback ? getPossibleStrings(context, fallback, depth + 1) : undefined;
  const found: string[] = [];
  for (const argument of passed) {
    // An explicit `undefined` takes the default.
    const given = argument.type === AST_NODE_TYPES.Identifier && argument.name === 'undefined' ? fallback : argument;
    const strings = given && getPossibleStrings(context, given, depth + 1);
    if (!strings) return undefined;
    found.push(...strings);
  }
  return found;
}

/** Modules parsed for the strings they export, by file, while their text is unchanged (a few are enough: config modules). */
const stringModules = new Map<string, { text: string; context: AnyRuleContext | undefined }>();
const MAX_STRING_MODULES = 20;
/** Modules parsed here are not asked about their own imports: one module away only. */
const parsedHere = new WeakSet<object>();

/**
 * `import { DB_HOST } from './config'` with `export const DB_HOST = process.env.DB_HOST ??
 * 'orders.cluster-….docdb.amazonaws.com'`: the strings the module's own code gives it.
 */
function getImportedStrings(context: AnyRuleContext, identifier: TSESTree.Identifier, depth: number): string[] | undefined {
  const ast = context.sourceCode.ast;
  if (parsedHere.has(ast)) return undefined;
  const read = findImportedReads(context).find((candidate) => candidate.node === identifier);
  if (!read || read.exportName === WHOLE_MODULE) return undefined;
  const moduleContext = getStringModule(context, read.file);
  const exported = moduleContext && findExportedExpression(moduleContext, read.exportName);
  return exported ? getPossibleStrings(moduleContext, exported, depth + 1) : undefined;
}

function getStringModule(context: AnyRuleContext, file: string): AnyRuleContext | undefined {
  const text = readModuleText(file);
  if (text === undefined) return undefined;
  const cached = stringModules.get(file);
  if (cached?.text === text) return cached.context;
  const parsed = parseModule(context, file, text);
  if (parsed) parsedHere.add(parsed.sourceCode.ast);
  if (stringModules.size >= MAX_STRING_MODULES) stringModules.delete(stringModules.keys().next().value as string);
  stringModules.set(file, { text, context: parsed });
  return parsed;
}

/** `export const NAME = …`, `export { local as NAME }`, `exports.NAME = …`, `module.exports = { NAME: … }`. */
function findExportedExpression(context: AnyRuleContext, name: string): TSESTree.Node | undefined {
  for (const statement of context.sourceCode.ast.body) {
    if (statement.type === AST_NODE_TYPES.ExportNamedDeclaration && !statement.source) {
      const declaration = statement.declaration;
      if (declaration?.type === AST_NODE_TYPES.VariableDeclaration && declaration.kind === 'const') {
        const found = declaration.declarations.find((declarator) => declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === name);
        if (found?.init) return found.init;
      }
      for (const specifier of statement.specifiers) {
        const exported = specifier.exported.type === AST_NODE_TYPES.Identifier ? specifier.exported.name : specifier.exported.value;
        if (exported === name && specifier.local.type === AST_NODE_TYPES.Identifier) return specifier.local;
      }
    }
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement || statement.expression.type !== AST_NODE_TYPES.AssignmentExpression) continue;
    const { left, right } = statement.expression;
    const target = getCommonJsExportName(left);
    if (target === name) return right;
    if (target === WHOLE_MODULE && right.type === AST_NODE_TYPES.ObjectExpression) {
      for (const property of right.properties) {
        if (property.type === AST_NODE_TYPES.Property && !property.computed && getKeyName(property) === name) return property.value;
      }
    }
  }
  return undefined;
}

/** `const host = otherConst`: one step further. */
function getAliasStrings(context: AnyRuleContext, identifier: TSESTree.Identifier, depth: number): string[] | undefined {
  const resolved = resolveConst(context.sourceCode, identifier);
  return resolved === identifier ? undefined : getPossibleStrings(context, resolved, depth + 1);
}

/**
 * When `node` is the object of a method call, that call and the names the method can have:
 * `client.put(…)` → `put`; `this.client[operation](params)` → what `operation` can be
 * (a `const`, or what every caller of the enclosing function passes).
 */
export function getCalledMethodNames(context: AnyRuleContext, node: TSESTree.Node): { call: TSESTree.CallExpression; names: string[] } | undefined {
  const found = getMemberCall(node);
  if (!found) return undefined;
  const name = getKeyName(found.member);
  if (name !== undefined) return { call: found.call, names: [name] };
  const names = found.member.computed ? getPossibleStrings(context, found.member.property) : undefined;
  return names && names.length > 0 ? { call: found.call, names: [...new Set(names)] } : undefined;
}
