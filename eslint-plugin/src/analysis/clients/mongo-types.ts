import type { TSESTree } from '@typescript-eslint/utils';
import { getClientTypeChecker } from './client-types';
import type { KnownKind, MongoValueKind } from './mongo-kinds';
import type { AnyRuleContext } from '../per-file-cache';

/** What a node's TypeScript type says about MongoDB, when ESLint has type information. */
export interface MongoTypeServices {
  /** `collection`, `model`, …, `other` for any other type, `undefined` for `any`/`unknown`/errors. */
  getTypeKind(node: TSESTree.Node): KnownKind | undefined;
}

/** Type names each driver declares, by the kind of value they are. */
const TYPE_KINDS: Record<string, Record<string, MongoValueKind>> = {
  mongodb: { Collection: 'collection', Db: 'db', MongoClient: 'client', ClientSession: 'session' },
  mongoose: { Model: 'model', Connection: 'connection', ClientSession: 'session', Collection: 'collection' },
};

/**
 * Type information when ESLint has it (typed linting); `undefined` otherwise, and never
 * throws with other parsers. The same type check as pg and DynamoDB, read as MongoDB kinds.
 */
export function getMongoTypeServices(context: AnyRuleContext): MongoTypeServices | undefined {
  const types = getClientTypeChecker(context, Object.keys(TYPE_KINDS));
  if (!types) return undefined;
  return {
    getTypeKind(node) {
      const declared = types.getDeclaredType(node);
      if (declared) return TYPE_KINDS[declared.module]?.[declared.name] ?? 'other';
      return types.isOtherType(node) ? 'other' : undefined;
    },
  };
}
