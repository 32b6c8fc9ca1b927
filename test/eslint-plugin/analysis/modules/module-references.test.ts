import { describe, expect, it } from 'vitest';
import {
  CALL,
  CONSTRUCT,
  findGlobalIdentifiers,
  findGlobalReferences,
  findImportedTypeReferences,
  findModuleReferences,
  findRequireCallsByText,
  hasModuleImport,
  type TraceMap,
} from '../../../../eslint-plugin/src/analysis/modules/module-references';
import { type AnalyseOptions, analyse, textOf } from '../../harness';

/** What a pg / AWS SDK client test follows: `new Pool()`, `new DynamoDBClient()`, `pg.types.setTypeParser()`. */
const TRACE_MAP: TraceMap<string> = {
  pg: { Pool: { [CONSTRUCT]: 'pool' }, types: { setTypeParser: { [CALL]: 'type parser' } } },
  '@aws-sdk/client-dynamodb': { DynamoDBClient: { [CONSTRUCT]: 'dynamodb client' } },
};

/** `info: source text (CALL|CONSTRUCT)` of each reference found. */
function references(code: string, options?: AnalyseOptions): string[] {
  return analyse(
    code,
    (context) =>
      findModuleReferences(context, TRACE_MAP).map(
        (reference) => `${reference.info}: ${textOf(code, reference.node)} (${reference.type === CALL ? 'CALL' : reference.type === CONSTRUCT ? 'CONSTRUCT' : 'other'})`,
      ),
    options,
  );
}

describe('findModuleReferences', () => {
  it('follows named, aliased, default and namespace imports, in source order', () => {
    const code = `
      import { DynamoDBClient as Client } from '@aws-sdk/client-dynamodb';
      import pg from 'pg';
      import * as postgres from 'pg';
      import { Pool } from 'pg';
      export const pool = new Pool({ max: 5 });
      export const other = new pg.Pool();
      postgres.types.setTypeParser(1700, parseFloat);
      export const ddb = new Client({ region: 'eu-west-1' });`;
    expect(references(code)).toEqual([
      'pool: new Pool({ max: 5 }) (CONSTRUCT)',
      'pool: new pg.Pool() (CONSTRUCT)',
      'type parser: postgres.types.setTypeParser(1700, parseFloat) (CALL)',
      "dynamodb client: new Client({ region: 'eu-west-1' }) (CONSTRUCT)",
    ]);
  });

  it('follows require, destructured require and a require member', () => {
    const code = `
      const { Pool } = require('pg');
      const pg = require('pg');
      const a = new Pool();
      const b = new pg.Pool();
      const c = new (require('pg').Pool)();`;
    expect(references(code, { sourceType: 'commonjs' })).toEqual([
      'pool: new Pool() (CONSTRUCT)',
      'pool: new pg.Pool() (CONSTRUCT)',
      "pool: new (require('pg').Pool)() (CONSTRUCT)",
    ]);
  });

  it('never matches a local class of the same name, another library or a require that is not Node’s', () => {
    const code = `
      import { Pool as GenericPool } from 'generic-pool';
      import { DynamoDBClient } from './fake-dynamodb';
      class Pool {}
      new Pool();
      new GenericPool();
      new DynamoDBClient({});
      function load(require) { return new (require('pg').Pool)(); }`;
    expect(references(code)).toEqual([]);
  });

  it('follows only the require calls it is given, when given', () => {
    const code = `
      const first = require('pg');
      const second = require('pg');
      new first.Pool();
      new second.Pool();`;
    const found = analyse(
      code,
      (context) => {
        const requireCalls = findRequireCallsByText(context, ['pg']).slice(1);
        return findModuleReferences(context, TRACE_MAP, { requireCalls }).map((reference) => textOf(code, reference.node));
      },
      { sourceType: 'commonjs' },
    );
    expect(found).toEqual(['new second.Pool()']);
  });
});

describe('findRequireCallsByText', () => {
  it('finds require calls of the listed modules, also through createRequire', () => {
    const code = `
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      const { MongoClient } = require('mongodb');
      const mongoose = require("mongoose");
      const pg = require('pg');`;
    const found = analyse(code, (context) =>
      findRequireCallsByText(context, ['mongodb', 'mongoose']).map(({ call, module }) => `${module}: ${textOf(code, call)}`),
    );
    expect(found).toEqual(["mongodb: require('mongodb')", 'mongoose: require("mongoose")']);
  });

  it('ignores the text in comments and strings, and other callees, also names that end in require', () => {
    const code = `
      // const { MongoClient } = require('mongodb');
      const help = "run require('mongodb') first";
      loader.require('mongodb');
      $require('mongodb');
      \u0024require('mongodb');
      ÿrequire('mongodb');`;
    expect(analyse(code, (context) => findRequireCallsByText(context, ['mongodb']))).toEqual([]);
  });

  it('reads a specifier written with escapes from the tree, and answers later questions about other modules of the same file', () => {
    const code = `
      const { MongoClient } = require('\\x6dongodb');
      const pg = require('pg');
      const db = require('./db');`;
    const found = analyse(code, (context) => [
      ...findRequireCallsByText(context, ['mongodb']).map(({ call, module }) => `${module}: ${textOf(code, call)}`),
      ...findRequireCallsByText(context, ['pg', './db']).map(({ module }) => module),
      ...findRequireCallsByText(context, ['mongodb', 'pg']).map(({ module }) => module),
    ]);
    expect(found).toEqual(["mongodb: require('\\x6dongodb')", 'pg', './db', 'mongodb', 'pg']);
  });
});

describe('findGlobalIdentifiers', () => {
  it('finds the undeclared global and not a local variable of the same name', () => {
    const code = `
      const id = crypto.randomUUID();
      function local() { const crypto = { randomUUID: () => 'x' }; return crypto.randomUUID(); }
      export const again = crypto.getRandomValues(new Uint8Array(4));`;
    const found = analyse(code, (context) => {
      const globalScope = context.sourceCode.scopeManager?.globalScope;
      if (!globalScope) throw new Error('no global scope');
      return findGlobalIdentifiers(globalScope, 'crypto').map((identifier) => `${identifier.loc.start.line}:${textOf(code, identifier.parent!)}`);
    });
    expect(found).toEqual(['2:crypto.randomUUID', '4:crypto.getRandomValues']);
  });

  it('finds the references of a global the config or a comment declares', () => {
    const code = `/* global crypto */\nexport const id = crypto.randomUUID();`;
    const found = analyse(code, (context) => findGlobalIdentifiers(context.sourceCode.scopeManager!.globalScope!, 'crypto').map((identifier) => identifier.loc.start.line));
    expect(found).toEqual([2]);
  });

  it('finds nothing when the file declares the name itself, in a module or in a script', () => {
    const module = `import crypto from 'node:crypto'; crypto.randomUUID();`;
    expect(analyse(module, (context) => findGlobalIdentifiers(context.sourceCode.scopeManager!.globalScope!, 'crypto'))).toEqual([]);
    const script = `var crypto = require('node:crypto'); crypto.randomUUID();`;
    expect(analyse(script, (context) => findGlobalIdentifiers(context.sourceCode.scopeManager!.globalScope!, 'crypto'), { sourceType: 'script' })).toEqual([]);
  });
});

describe('findGlobalReferences', () => {
  const DATE_NOW: TraceMap<string> = { Date: { now: { [CALL]: 'timestamp' } } };

  it('finds calls of a built-in global through its path', () => {
    const code = `const key = Date.now(); const t = new Date().getTime(); export const later = Date.now() + 1000;`;
    expect(analyse(code, (context) => findGlobalReferences(context, DATE_NOW).map((reference) => `${reference.info}: ${textOf(code, reference.node)}`))).toEqual([
      'timestamp: Date.now()',
      'timestamp: Date.now()',
    ]);
  });

  it('not when the file shadows the global', () => {
    const code = `const Date = { now: () => 1 }; export const key = Date.now();`;
    expect(analyse(code, (context) => findGlobalReferences(context, DATE_NOW))).toEqual([]);
  });
});

describe('hasModuleImport', () => {
  it('tells whether the file names one of the modules in quotes', () => {
    const has = (code: string, modules: string[]) => analyse(code, (context) => hasModuleImport(context, modules));
    expect(has(`import { Pool } from 'pg';`, ['pg'])).toBe(true);
    expect(has(`const { MongoClient } = require("mongodb");`, ['pg', 'mongodb'])).toBe(true);
    expect(has('const ddb = await import(`@aws-sdk/client-dynamodb`);', ['@aws-sdk/client-dynamodb'])).toBe(true);
    // `pg-pool` is another module; an identifier or a comment naming pg is no import.
    expect(has(`import PgPool from 'pg-pool'; const pg = 1; // uses pg`, ['pg'])).toBe(false);
    expect(has(`import { PrismaClient } from '@prisma/client';`, ['pg', 'mongodb', 'mongoose'])).toBe(false);
  });

  it('answers each list alike whatever was asked before, in any of the three quotes', () => {
    const code = `const a = require('pg-pool'); const b = "mongodb"+'pg'; const c = \`mongoose\`;`;
    const lists: string[][] = [['pg-pool'], ['pg'], ['mongodb', 'mongoose'], ['postgres'], ['mongoose'], ['pg-pool', 'pg']];
    expect(analyse(code, (context) => lists.map((modules) => hasModuleImport(context, modules)))).toEqual([true, true, true, false, true, true]);
    // A quote ending one name does not hide the next name; quotes of two kinds do not make a name.
    const joined = (code: string) => analyse(code, (context) => ['x', 'pg', 'mongodb'].map((name) => hasModuleImport(context, [name])));
    expect(joined(`const s = 1; // 'x'pg'`)).toEqual([true, true, false]);
    expect(joined('const s = 1; // \'mongodb" "pg`')).toEqual([false, false, false]);
  });
});

describe('findImportedTypeReferences', () => {
  /** `module path in <the type around the reference>`. */
  function typeReferences(code: string, modules: readonly string[]): string[] {
    return analyse(code, (context) => findImportedTypeReferences(context, modules).map(({ reference, path, module }) => `${module} ${path.join('.')} in ${textOf(code, reference.parent)}`));
  }

  it('finds types that name an export, with its path inside the module', () => {
    const code = `
      import type { Pool, PoolClient } from 'pg';
      import AWS from 'aws-sdk';
      import * as ddb from '@aws-sdk/client-dynamodb';
      export function run(pool: Pool, documents: AWS.DynamoDB.DocumentClient) {
        let client: PoolClient | undefined;
        const raw: ddb.DynamoDBClient = make();
        return [pool, documents, client, raw];
      }`;
    expect(typeReferences(code, ['pg', 'aws-sdk', '@aws-sdk/client-dynamodb'])).toEqual([
      'pg Pool in : Pool',
      'pg PoolClient in PoolClient | undefined',
      'aws-sdk DynamoDB.DocumentClient in : AWS.DynamoDB.DocumentClient',
      '@aws-sdk/client-dynamodb DynamoDBClient in : ddb.DynamoDBClient',
    ]);
  });

  it('finds them in unions and generic arguments; skips local types and modules not asked for', () => {
    const code = `
      import type { Pool } from 'pg';
      import type { Collection } from 'mongodb';
      interface DynamoDBClient { send(): void }
      export function run(a: Pool | undefined, b: Promise<Pool>, c: DynamoDBClient, d: Collection) {
        return [a, b, c, d];
      }`;
    expect(typeReferences(code, ['pg', '@aws-sdk/client-dynamodb'])).toEqual(['pg Pool in Pool | undefined', 'pg Pool in <Pool>']);
  });
});
