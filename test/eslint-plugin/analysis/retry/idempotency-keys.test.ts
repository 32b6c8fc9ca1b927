import { describe, expect, it } from 'vitest';
import { findKeyCreations, isKeyLikeName } from '../../../../eslint-plugin/src/analysis/retry/idempotency-keys';
import { type AnalyseOptions, analyse } from '../../harness';

const labels = (code: string, options?: AnalyseOptions) =>
  analyse(code, (context) => findKeyCreations(context).map((creation) => `${creation.label}${creation.isTimestamp ? ' (time)' : ''}`), options);

describe('findKeyCreations', () => {
  it('follows imports, requires, aliases and namespaces', () => {
    expect(
      labels(`
        import { randomUUID as makeId } from 'node:crypto';
        import { v4 } from 'uuid';
        import * as uuid from 'uuid';
        import { nanoid } from 'nanoid';
        import { ObjectId } from 'mongodb';
        import mongoose from 'mongoose';
        makeId(); v4(); uuid.v7(); nanoid(); new ObjectId(); new mongoose.Types.ObjectId();`),
    ).toEqual(['makeId()', 'v4()', 'uuid.v7()', 'nanoid()', 'new ObjectId()', 'new mongoose.Types.ObjectId()']);
    expect(
      labels(
        `const { v4: uuid } = require('uuid');
        const crypto = require('crypto');
        uuid(); crypto.randomUUID();`,
        { sourceType: 'commonjs' },
      ),
    ).toEqual(['uuid()', 'crypto.randomUUID()']);
  });

  it('new ObjectId(hex) converts an id, it does not make one', () => {
    expect(labels(`import { ObjectId } from 'mongodb'; new ObjectId(userId); new ObjectId();`)).toEqual(['new ObjectId()']);
  });

  it('finds the globals crypto.randomUUID() and Date.now()', () => {
    expect(labels(`crypto.randomUUID(); Date.now();`)).toEqual(['crypto.randomUUID()', 'Date.now() (time)']);
  });

  it('ignores local look-alikes', () => {
    expect(
      labels(`
        const randomUUID = () => 'x';
        function nanoid() { return 'y'; }
        class ObjectId {}
        const Date = { now: () => 1 };
        randomUUID(); nanoid(); new ObjectId(); Date.now();`),
    ).toEqual([]);
  });
});

describe('isKeyLikeName', () => {
  it('reads names that identify a request or a record', () => {
    for (const name of ['id', '_id', 'orderId', 'requestKey', 'idempotencyKey', 'ClientRequestToken', 'nonce']) {
      expect(isKeyLikeName(name), name).toBe(true);
    }
    for (const name of ['createdAt', 'updatedAt', 'timestamp', 'valid', 'started']) expect(isKeyLikeName(name), name).toBe(false);
  });
});
