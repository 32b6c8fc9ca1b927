import { describe, expect, it } from 'vitest';
import { findDbCalls } from '../../../../eslint-plugin/src/analysis/clients/db-calls';
import { createsRecords } from '../../../../eslint-plugin/src/analysis/clients/record-creation';
import { analyse } from '../../harness';

/** `database operation: creates?` for every database call of the file. */
function creations(code: string): string[] {
  return analyse(code, (context) => findDbCalls(context).map((call) => `${call.database} ${call.operation}: ${createsRecords(call)}`));
}

describe('createsRecords', () => {
  it('DynamoDB: puts, batch writes, transactions and PartiQL create; updates, deletes and reads do not', () => {
    const code = `
      import { DynamoDBClient, PutItemCommand, BatchWriteItemCommand, TransactWriteItemsCommand, ExecuteStatementCommand, UpdateItemCommand, DeleteItemCommand, GetItemCommand } from '@aws-sdk/client-dynamodb';
      const ddb = new DynamoDBClient({});
      await ddb.send(new PutItemCommand({ TableName: 't', Item: {} }));
      await ddb.send(new BatchWriteItemCommand({ RequestItems: {} }));
      await ddb.send(new TransactWriteItemsCommand({ TransactItems: [] }));
      await ddb.send(new ExecuteStatementCommand({ Statement: 'INSERT INTO t VALUE {}' }));
      await ddb.send(new UpdateItemCommand({ TableName: 't', Key: {} }));
      await ddb.send(new DeleteItemCommand({ TableName: 't', Key: {} }));
      await ddb.send(new GetItemCommand({ TableName: 't', Key: {} }));`;
    expect(creations(code)).toEqual([
      'dynamodb PutItem: true',
      'dynamodb BatchWriteItem: true',
      'dynamodb TransactWriteItems: true',
      'dynamodb ExecuteStatement: true',
      'dynamodb UpdateItem: false',
      'dynamodb DeleteItem: false',
      'dynamodb GetItem: false',
    ]);
  });

  it('MongoDB: inserts and bulkWrite create; updates and finds do not', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      const orders = new MongoClient('mongodb://localhost').db().collection('orders');
      await orders.insertOne({ total: 1 });
      await orders.insertMany([{ total: 1 }]);
      await orders.bulkWrite([]);
      await orders.updateOne({ _id: 1 }, { $set: { total: 2 } }, { upsert: true });
      await orders.find({}).toArray();`;
    expect(creations(code)).toEqual([
      'mongodb insertOne: true',
      'mongodb insertMany: true',
      'mongodb bulkWrite: true',
      'mongodb updateOne: false',
      'mongodb find: false',
    ]);
  });

  it('PostgreSQL: INSERT and a writing WITH create; UPDATE, SELECT and unknown text do not', () => {
    const code = `
      import { Pool } from 'pg';
      const pool = new Pool();
      await pool.query('INSERT INTO orders (id) VALUES ($1)', [1]);
      await pool.query('WITH moved AS (DELETE FROM cart RETURNING *) INSERT INTO orders SELECT * FROM moved');
      await pool.query('WITH recent AS (SELECT * FROM orders) SELECT * FROM recent');
      await pool.query('UPDATE orders SET paid = true');
      await pool.query(text);`;
    expect(creations(code).map((line) => line.endsWith(': true'))).toEqual([true, true, false, false, false]);
  });
});
