import { describe, expect, it } from 'vitest';
import { findDbCalls } from '../../../../eslint-plugin/src/analysis/clients/db-calls';
import { isProbeCall } from '../../../../eslint-plugin/src/analysis/clients/probe-calls';
import { analyse, textOf } from '../../harness';

/** `call text: probe?` for every database call of the file. */
function probes(code: string): string[] {
  return analyse(code, (context) => findDbCalls(context).map((call) => `${textOf(code, call.node).split('\n')[0]}: ${isProbeCall(context, call)}`));
}

describe('isProbeCall', () => {
  it('is true for connecting, SELECT without FROM, and DynamoDB Describe/List calls', () => {
    const code = `
      import { Pool } from 'pg';
      import postgres from 'postgres';
      import { DynamoDBClient, DescribeTableCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
      const pool = new Pool();
      const sql = postgres();
      const ddb = new DynamoDBClient({});
      const PING = 'SELECT 1';
      await pool.connect();
      await pool.query(PING);
      await pool.query('select now()');
      await sql\`select 1\`;
      await ddb.send(new DescribeTableCommand({ TableName: 'orders' }));
      await ddb.send(new ListTablesCommand({}));`;
    expect(probes(code)).toEqual([
      'pool.connect(): true',
      'pool.query(PING): true',
      "pool.query('select now()'): true",
      'sql`select 1`: true',
      "ddb.send(new DescribeTableCommand({ TableName: 'orders' })): true",
      'ddb.send(new ListTablesCommand({})): true',
    ]);
  });

  it('is false for work: reads from tables, writes, unknown SQL and MongoDB operations', () => {
    const code = `
      import { Pool } from 'pg';
      import { MongoClient } from 'mongodb';
      import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
      const pool = new Pool();
      const ddb = new DynamoDBClient({});
      const orders = new MongoClient('mongodb://localhost').db().collection('orders');
      await pool.query('SELECT id FROM orders');
      await pool.query('INSERT INTO orders (id) VALUES (1)');
      await pool.query(buildQuery());
      await ddb.send(new GetItemCommand({ TableName: 'orders', Key: {} }));
      await orders.countDocuments({});`;
    expect(probes(code).map((line) => line.endsWith(': true'))).toEqual([false, false, false, false, false]);
  });
});
