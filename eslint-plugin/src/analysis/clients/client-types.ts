import type { TSESTree } from '@typescript-eslint/utils';
import type * as ts from 'typescript';
import type { AnyRuleContext } from '../per-file-cache';

/**
 * With typed linting: which database-client package declares the type of an
 * expression (`pool` imported from `./db` is a `Pool` of `pg`). The declaring module
 * comes from the declaration file's path (`node_modules/pg/`, `node_modules/@types/pg/`)
 * or from an ambient `declare module 'pg' { … }`.
 */

export interface DeclaredType {
  /** Package name: `pg`, `pg-pool`, `postgres`, `aws-sdk`, `@aws-sdk/client-dynamodb`, … */
  module: string;
  /** The type's symbol name: `Pool`, `PoolClient`, `DynamoDBDocument`, `PutCommand`, … */
  name: string;
}

export interface ClientTypeChecker {
  getDeclaredType(node: TSESTree.Node): DeclaredType | undefined;
  /** The type is known (not `any`, `unknown` or an error) and none of the wanted packages declares it: evidence against a client. */
  isOtherType(node: TSESTree.Node): boolean;
}

const PACKAGE_PATH = /\/node_modules\/(?:@types\/)?((?:@aws-sdk\/[^/]+)|[^/@][^/]*)\//;

// ts.TypeFlags: Any | Unknown; Null | Undefined | Void; Union; Intersection.
const ANY_OR_UNKNOWN = 1 | 2;
const NULLISH = 16384 | 32768 | 65536;
const UNION = 1048576;
const INTERSECTION = 2097152;

/** Type services when ESLint has a TypeScript program for the file; undefined otherwise (never throws). */
export function getClientTypeChecker(context: AnyRuleContext, modules: readonly string[]): ClientTypeChecker | undefined {
  const services = context.sourceCode.parserServices;
  if (!services?.program || !services.esTreeNodeToTSNodeMap) return undefined;
  const checker = services.program.getTypeChecker();
  const map = services.esTreeNodeToTSNodeMap;
  const wanted = new Set(modules);

  /** `"pg".Pool` (ambient `declare module 'pg'`) or `"/…/node_modules/@types/pg/index".Pool`. */
  function getModuleOf(symbol: ts.Symbol, declaration: ts.Declaration): string | undefined {
    const qualified = /^"([^"]+)"\./.exec(checker.getFullyQualifiedName(symbol))?.[1];
    if (qualified && !qualified.includes('/node_modules/') && !qualified.startsWith('/')) return qualified;
    const file = (qualified ?? declaration.getSourceFile().fileName).replace(/\\/g, '/');
    return PACKAGE_PATH.exec(`${file}/`)?.[1];
  }

  function classify(type: ts.Type, depth: number): DeclaredType | undefined {
    if (depth > 3 || type.flags & ANY_OR_UNKNOWN) return undefined;
    if (type.flags & (UNION | INTERSECTION)) {
      const members = (type as ts.UnionOrIntersectionType).types.filter((member) => !(member.flags & NULLISH));
      const found = members.map((member) => classify(member, depth + 1));
      if (type.flags & UNION) {
        const first = found[0];
        return first && found.every((other) => other?.module === first.module && other.name === first.name) ? first : undefined;
      }
      return found.find((item) => item !== undefined);
    }
    for (const symbol of [type.aliasSymbol, type.getSymbol()]) {
      if (!symbol) continue;
      for (const declaration of symbol.getDeclarations() ?? []) {
        const module = getModuleOf(symbol, declaration);
        if (module && wanted.has(module)) return { module, name: symbol.getName() };
      }
    }
    // The project's own class that extends `Collection`, an interface that extends `Model`.
    if (type.isClassOrInterface()) {
      for (const base of checker.getBaseTypes(type as ts.InterfaceType)) {
        const found = classify(base, depth + 1);
        if (found) return found;
      }
    }
    return undefined;
  }

  return {
    isOtherType(node) {
      try {
        const tsNode = map.get(node as never) as ts.Node | undefined;
        if (!tsNode) return false;
        const type = checker.getTypeAtLocation(tsNode);
        return !(type.flags & ANY_OR_UNKNOWN) && !isErrorType(type) && classify(type, 0) === undefined;
      } catch {
        return false;
      }
    },
    getDeclaredType(node) {
      try {
        const tsNode = map.get(node as never) as ts.Node | undefined;
        return tsNode ? classify(checker.getTypeAtLocation(tsNode), 0) : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** The type TypeScript gives an unresolved name (`intrinsicName: 'error'`): says nothing. */
function isErrorType(type: ts.Type): boolean {
  return (type as { intrinsicName?: string }).intrinsicName === 'error';
}
