import type { TSESTree } from '@typescript-eslint/utils';
import { getDbValues, type ResolvedValue } from './db-values';
import type { KnownKind } from './mongo-kinds';
import type { ThisOwner } from './this-owners';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';

/**
 * The file's values as MongoDB sees them (db-values.ts answers for every database): a
 * MongoDB kind, `other` for anything else that is known, `undefined` when unknown.
 */
export interface MongoValues {
  /** True when the file imports or requires `mongodb` or `mongoose`. */
  readonly importsMongo: boolean;
  /** True when the file imports a library with look-alike methods (Prisma, TypeORM, …). */
  readonly importsLookAlike: boolean;
  /** True when ESLint has type information for the file (typed linting). */
  readonly hasTypes: boolean;
  /** What the expression evaluates to, from imports, annotations and data flow. */
  getKind(node: TSESTree.Node): KnownKind | undefined;
  /** What a field of `this` holds in code whose `this` is `owner`. */
  getFieldKind(owner: ThisOwner, name: string): KnownKind | undefined;
  /** What the expression's TypeScript type says, when ESLint has type information. */
  getTypeKind(node: TSESTree.Node): KnownKind | undefined;
  /**
   * The `new MongoClient(…)` / `MongoClient.connect(…)` expression a client, db or
   * collection value comes from, when a single one can be followed in this file.
   */
  getClientOrigin(node: TSESTree.Node): TSESTree.NewExpression | TSESTree.CallExpression | undefined;
}

function asKind(value: ResolvedValue | undefined): KnownKind | undefined {
  if (value === undefined || value === 'other') return value;
  return value.database === 'mongodb' ? value.kind : 'other';
}

/** The file's MongoDB view of its values; built once per file. */
export const getMongoValues = createPerFileCache((context: AnyRuleContext): MongoValues => {
  const values = getDbValues(context);
  return {
    importsMongo: values.importsMongo,
    importsLookAlike: values.importsLookAlike,
    hasTypes: values.hasTypes,
    getKind: (node) => asKind(values.getValue(node)),
    getFieldKind: (owner, name) => asKind(values.getFieldValue(owner, name)),
    getTypeKind: (node) => asKind(values.getTypeValue(node)),
    getClientOrigin: (node) => {
      const origin = values.getOrigin(node, (value) => value.database === 'mongodb' && value.kind === 'client');
      return origin?.type === 'NewExpression' || origin?.type === 'CallExpression' ? origin : undefined;
    },
  };
});
