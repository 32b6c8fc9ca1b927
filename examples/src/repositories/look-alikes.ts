// Code that looks like the order repository's problems but is fine: the plugin must
// stay silent on every line of this file.
import { PrismaClient } from '@prisma/client';
import { createEntityAdapter, createSlice, type PayloadAction, type Update } from '@reduxjs/toolkit';
import { ObjectId, type Collection } from 'mongodb';
import { client, ordersDb } from '../db/documentdb-client.js';

interface Order {
  _id: ObjectId;
  customerId: string;
  status: string;
  updatedAt: Date;
}

// Prisma's updateMany/deleteMany are not MongoDB driver calls.
const prisma = new PrismaClient();

export async function archiveInactiveCustomers(): Promise<void> {
  await prisma.customer.updateMany({ where: { lastOrderAt: null }, data: { archived: true } });
  await prisma.customer.deleteMany({ where: { archived: true, deletedAt: { not: null } } });
}

// A Redux Toolkit entity adapter: updateMany(state, updates) changes client state.
const ordersAdapter = createEntityAdapter<{ id: string; status: string }>();

export const ordersSlice = createSlice({
  name: 'orders',
  initialState: ordersAdapter.getInitialState(),
  reducers: {
    ordersChanged(state, action: PayloadAction<Update<{ id: string; status: string }, string>[]>) {
      ordersAdapter.updateMany(state, action.payload);
    },
    orderAdded(state, action: PayloadAction<{ id: string; status: string }>) {
      ordersAdapter.addOne(state, action.payload);
    },
  },
});

// Arrays and Maps have find/filter, not database writes.
export function latestOrder(orders: Order[]): Order | undefined {
  return orders.find((order) => order.status === 'placed');
}

const statusCache = new Map<string, string>();
export function forget(customerId: string): void {
  statusCache.delete(customerId);
}

const orders: Collection<Order> = ordersDb().collection<Order>('orders');

// A find-and-modify that returns only what it needs.
export async function claimNext(): Promise<ObjectId | undefined> {
  const claimed = await orders.findOneAndUpdate(
    { status: 'paid' },
    { $set: { status: 'shipping', updatedAt: new Date() } },
    { returnDocument: 'after', projection: { _id: 1 } },
  );
  return claimed?._id;
}

// Inserts that carry their own _id: a retry re-sends the same document.
export async function place(customerId: string): Promise<ObjectId> {
  const _id = new ObjectId();
  await orders.insertOne({ _id, customerId, status: 'placed', updatedAt: new Date() });
  await orders.insertMany([{ _id: new ObjectId(), customerId, status: 'cart', updatedAt: new Date() }]);
  return _id;
}

// Single-document writes are retryable.
export async function markPaid(orderId: ObjectId): Promise<void> {
  await orders.updateOne({ _id: orderId }, { $set: { status: 'paid', updatedAt: new Date() } });
}

// A multi-document update inside a transaction: withTransaction retries the whole
// transaction on transient errors.
export async function cancelCustomerOrders(customerId: string): Promise<void> {
  await client.withSession((session) =>
    session.withTransaction(async () => {
      await orders.updateMany({ customerId, status: 'cart' }, { $set: { status: 'expired' } }, { session });
    }),
  );
}
