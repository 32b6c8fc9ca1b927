// Order persistence on Amazon DocumentDB (MongoDB driver). Every method here has a
// retry-safety problem that the plugin reports; see the comment above each one.
import { MongoClient, type ClientSession, type Collection, type ObjectId } from 'mongodb';
import { client, ordersDb } from '../db/documentdb-client.js';

export interface Order {
  _id?: ObjectId;
  customerId: string;
  totalCents: number;
  status: 'cart' | 'placed' | 'paid' | 'shipping' | 'expired';
  reminders?: number;
  updatedAt: Date;
}

export interface OrderEvent {
  _id?: ObjectId;
  orderId: ObjectId;
  kind: string;
  at: Date;
}

export interface Payment {
  orderId: ObjectId;
  amountCents: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

// The audit trail lives on its own cluster; ids are left to the server there.
const auditClient = new MongoClient(process.env.AUDIT_DOCDB_URI ?? 'mongodb://localhost:27017/audit', {
  forceServerObjectId: true,
});

export class OrderRepository {
  constructor(
    private readonly orders: Collection<Order>,
    private readonly payments: Collection<Payment>,
    private readonly events: Collection<OrderEvent>,
  ) {}

  /**
   * Places an order, retrying on failure.
   * mongo-require-insert-id: the document (and so its `_id`) is rebuilt on every
   * attempt; an attempt whose reply was lost is inserted a second time.
   */
  async place(customerId: string, totalCents: number): Promise<void> {
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        await this.orders.insertOne({ customerId, totalCents, status: 'placed', updatedAt: new Date() });
        return;
      } catch (error) {
        if (attempt === 3) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
      }
    }
  }

  /** mongo-require-insert-id: no `_id` in the document. */
  async recordEvent(orderId: ObjectId, kind: string): Promise<void> {
    await this.events.insertOne({ orderId, kind, at: new Date() });
  }

  /** mongo-require-insert-id: no `_id`, and `forceServerObjectId` on the client. */
  async audit(orderId: ObjectId, kind: string): Promise<void> {
    await auditClient.db('audit').collection('order_events').insertOne({ orderId, kind, at: new Date() });
  }

  /**
   * mongo-no-non-retryable-write: `updateMany` is not retried on a transient error
   * (idempotent `$set`; a suggestion rewrites it into retryable single-document writes).
   */
  async expireStaleCarts(now: Date): Promise<void> {
    await this.orders.updateMany({ status: 'cart', updatedAt: { $lt: new Date(now.getTime() - 7 * DAY_MS) } }, { $set: { status: 'expired' } });
  }

  /** mongo-no-non-retryable-write: not retried, and `$inc` is not idempotent. */
  async countReminder(customerId: string): Promise<void> {
    await this.orders.updateMany({ customerId, status: 'cart' }, { $inc: { reminders: 1 } });
  }

  /** mongo-no-non-retryable-write: `deleteMany` is not retried on a transient error. */
  async purgeExpired(): Promise<void> {
    await this.orders.deleteMany({ status: 'expired' });
  }

  /** mongo-no-non-retryable-write: a `bulkWrite` containing `deleteMany` is not retryable. */
  async closeDay(paidIds: ObjectId[]): Promise<void> {
    await this.orders.bulkWrite([
      ...paidIds.map((_id) => ({ updateOne: { filter: { _id }, update: { $set: { status: 'shipping' as const } } } })),
      { deleteMany: { filter: { status: 'expired' } } },
    ]);
  }

  /**
   * mongo-no-retry-in-transaction: the payment insert is retried by hand inside the
   * transaction; a transient error aborts the whole transaction, so retry that instead.
   */
  async pay(orderId: ObjectId, amountCents: number): Promise<void> {
    const session: ClientSession = client.startSession();
    try {
      await session.withTransaction(async () => {
        await this.orders.updateOne({ _id: orderId }, { $set: { status: 'paid', updatedAt: new Date() } }, { session });
        for (let attempt = 1; attempt <= 3; attempt++) {
          try {
            await this.payments.updateOne({ orderId }, { $set: { orderId, amountCents } }, { session, upsert: true });
            break;
          } catch (error) {
            if (attempt === 3) throw error;
          }
        }
      });
    } finally {
      await session.endSession();
    }
  }

  /**
   * mongo-prefer-projection-on-find-and-modify (strict): the whole order is returned,
   * and with retryable writes cached for deduplication.
   */
  async claimNextForShipping(): Promise<Order | null> {
    return this.orders.findOneAndUpdate({ status: 'paid' }, { $set: { status: 'shipping', updatedAt: new Date() } }, { returnDocument: 'after' });
  }
}

export const orderRepository = new OrderRepository(
  ordersDb().collection<Order>('orders'),
  ordersDb().collection<Payment>('payments'),
  ordersDb().collection<OrderEvent>('order_events'),
);
