import type { TSESTree } from '@typescript-eslint/utils';
import type * as ts from 'typescript';
import { type KnownKind, mergeKinds, type MongoValueKind } from './mongo-kinds';
import type { AnyRuleContext } from '../per-file-cache';

/** What a node's TypeScript type says about MongoDB, when ESLint has type information. */
export interface MongoTypeServices {
  /** `collection`, `model`, …, `other` for any other type, `undefined` for `any`/`unknown`/errors. */
  getTypeKind(node: TSESTree.Node): KnownKind | undefined;
}

/**
 * Type information when ESLint has it (typed linting); `undefined` otherwise, and never
 * throws with other parsers (unlike `getParserServices` without a TypeScript parser).
 */
export function getMongoTypeServices(context: AnyRuleContext): MongoTypeServices | undefined {
  const services = context.sourceCode.parserServices;
  if (!services?.program || !services.esTreeNodeToTSNodeMap) return undefined;
  const checker = services.program.getTypeChecker();
  const map = services.esTreeNodeToTSNodeMap;
  return {
    getTypeKind(node) {
      try {
        const tsNode = map.get(node as never) as ts.Node | undefined;
        return tsNode ? classifyType(checker, checker.getTypeAtLocation(tsNode), 0) : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

const TYPE_KINDS: Record<string, Record<string, MongoValueKind>> = {
  mongodb: { Collection: 'collection', Db: 'db', MongoClient: 'client', ClientSession: 'session' },
  mongoose: { Model: 'model', Connection: 'connection', ClientSession: 'session', Collection: 'collection' },
};

// TypeFlags.Any | TypeFlags.Unknown; TypeFlags.Null | Undefined | Void.
const ANY_OR_UNKNOWN = 1 | 2;
const NULLISH = 16384 | 32768 | 65536;
const UNION = 1048576;
const INTERSECTION = 2097152;

function classifyType(checker: ts.TypeChecker, type: ts.Type, depth: number): KnownKind | undefined {
  if (type.flags & ANY_OR_UNKNOWN) return undefined;
  if (type.flags & UNION) {
    let kind: KnownKind | undefined;
    for (const member of (type as ts.UnionType).types) {
      if (member.flags & NULLISH) continue;
      const next = classifyType(checker, member, depth);
      if (next === undefined) return undefined;
      kind = kind === undefined ? next : mergeKinds(kind, next);
    }
    return kind;
  }
  if (type.flags & INTERSECTION) {
    for (const member of (type as ts.IntersectionType).types) {
      const next = classifyType(checker, member, depth);
      if (next && next !== 'other') return next;
    }
    return 'other';
  }
  const symbol = type.getSymbol() ?? type.aliasSymbol;
  if (symbol) {
    for (const declaration of symbol.getDeclarations() ?? []) {
      const file = declaration.getSourceFile().fileName.replace(/\\/g, '/');
      const module = /\/node_modules\/(mongodb|mongoose)\//.exec(file)?.[1];
      const kind = module ? TYPE_KINDS[module]?.[symbol.getName()] : undefined;
      if (kind) return kind;
    }
  }
  // A class that extends `Collection` or an interface that extends `Model`.
  if (depth < 3 && type.isClassOrInterface()) {
    for (const base of checker.getBaseTypes(type as ts.InterfaceType)) {
      const next = classifyType(checker, base, depth + 1);
      if (next && next !== 'other') return next;
    }
  }
  return 'other';
}

