import { describe, expect, it } from 'vitest';
import { getObjectIdAccess } from '../../../eslint-plugin/src/fix';
import { applyFix, inFile, type AnalyseOptions } from '../harness';

/** How the file would write `new ObjectId()`, and the file after the edits that make it available. */
function access(code: string, options: AnalyseOptions = {}): { expression: string; output: string } | undefined {
  const found = inFile(code, (sourceCode) => getObjectIdAccess(sourceCode), options);
  if (!found) return undefined;
  const output = applyFix(
    code,
    (sourceCode) => {
      const fixes = getObjectIdAccess(sourceCode)?.fixes;
      return fixes && ((fixer) => fixes(fixer));
    },
    options,
  );
  return { expression: found.expression, output: output ?? code };
}

describe('getObjectIdAccess', () => {
  it('reuses an imported ObjectId under its local name', () => {
    const code = "import { ObjectId as Oid } from 'bson';\n";
    expect(access(code)).toEqual({ expression: 'Oid', output: code });
  });

  it('reads it from a namespace import', () => {
    const code = "import * as mongo from 'mongodb';\n";
    expect(access(code)).toEqual({ expression: 'mongo.ObjectId', output: code });
  });

  it('extends an import of the driver', () => {
    expect(access("import { MongoClient } from 'mongodb';\n")).toEqual({
      expression: 'ObjectId',
      output: "import { MongoClient, ObjectId } from 'mongodb';\n",
    });
  });

  it('extends a destructured require of the driver', () => {
    expect(access("const { MongoClient } = require('mongodb');\n", { sourceType: 'commonjs' })).toEqual({
      expression: 'ObjectId',
      output: "const { MongoClient, ObjectId } = require('mongodb');\n",
    });
  });

  it('reuses an ObjectId bound at the top of a CommonJS file, with either parser', () => {
    const code = "const { MongoClient } = require('mongodb');\nconst ObjectId = require('bson').ObjectId;\n";
    for (const language of ['javascript', 'typescript'] as const) {
      expect(access(code, { sourceType: 'commonjs', language })).toEqual({ expression: 'ObjectId', output: code });
    }
  });

  it('adds an import after the last import', () => {
    expect(access("import express from 'express';\nimport { db } from './db';\nrun();\n")).toEqual({
      expression: 'ObjectId',
      output: "import express from 'express';\nimport { db } from './db';\nimport { ObjectId } from 'mongodb';\nrun();\n",
    });
  });

  it('adds a require after the directives of a file that uses require', () => {
    expect(access("'use strict';\nconst db = require('./db');\n", { sourceType: 'commonjs' })).toEqual({
      expression: 'ObjectId',
      output: "'use strict';\nconst { ObjectId } = require('mongodb');\nconst db = require('./db');\n",
    });
  });

  it('turns a type-only import of ObjectId into a value import', () => {
    expect(access("import type { ObjectId } from 'mongodb';\n")).toEqual({ expression: 'ObjectId', output: "import { ObjectId } from 'mongodb';\n" });
    expect(access("import { type ObjectId, MongoClient } from 'mongodb';\n")).toEqual({
      expression: 'ObjectId',
      output: "import { ObjectId, MongoClient } from 'mongodb';\n",
    });
  });

  it('gives up on a type-only import of several names', () => {
    expect(access("import type { ObjectId, Db } from 'mongodb';\n")).toBeUndefined();
  });
});
