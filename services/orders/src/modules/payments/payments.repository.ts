// Payments' reads and writes on an order: its Razorpay order, the move to paid (once), each
// attempt, and the reconciler's questions to the provider.
import { sql, type Kysely } from 'kysely';
import type { OrdersDB } from '../../db';
import type { OrderRow } from '../order-records/orders.repository';

type Db = Kysely<OrdersDB>;

export const findOrderByRazorpayOrderId = (db: Db, rzp: string) => db.selectFrom('orders').selectAll().where('razorpay_order_id', '=', rzp).executeTakeFirst();

/** Records the order's Razorpay order, and when the reconciler first asks about it. */
export async function setRazorpayOrderId(db: Db, id: string, razorpayOrderId: string, firstCheckAt: Date | null): Promise<void> {
  await db
    .updateTable('orders')
    .set({ razorpay_order_id: razorpayOrderId, payment_check_at: firstCheckAt, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/**
 * Moves an order to paid once; answers the row only when this call made the transition.
 * `captureCheckAt`: when the reconciler makes sure the payment is captured (a verify proves an
 * authorisation only); null when the provider said it was captured.
 */
export async function markPaid(
  db: Db,
  id: string,
  razorpayPaymentId: string,
  via: string,
  captureCheckAt: Date | null,
  shipBy: string | null = null,
): Promise<OrderRow | undefined> {
  return db
    .updateTable('orders')
    .set({
      payment_status: 'paid',
      ship_by: shipBy,
      paid_at: sql`now()`,
      razorpay_payment_id: razorpayPaymentId,
      paid_via: via,
      payment_check_at: captureCheckAt,
      persona_status: 'generating',
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .where('payment_status', '<>', 'paid')
    .returningAll()
    .executeTakeFirst();
}

/** Records a failed or started attempt; never moves an order back from paid. */
export async function markUnpaidAttempt(db: Db, id: string, status: 'attempted' | 'failed'): Promise<void> {
  await db.updateTable('orders').set({ payment_status: status, updated_at: new Date() }).where('id', '=', id).where('payment_status', '<>', 'paid').execute();
}

export async function recordAttempt(
  db: Db,
  attempt: { order_id: string; razorpay_payment_id: string | null; outcome: string; source: string; detail?: string },
): Promise<void> {
  await db
    .insertInto('payment_attempts')
    .values({ ...attempt, detail: attempt.detail ?? null })
    .execute();
}

/** The reconciler asks about the order at its next run (a payment authorised, to be captured). */
export async function askAboutPaymentNow(db: Db, id: string): Promise<void> {
  await db
    .updateTable('orders')
    .set({ payment_check_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** Nothing more to ask the provider about the order (its payment is captured). */
export async function paymentChecksDone(db: Db, id: string): Promise<void> {
  await db.updateTable('orders').set({ payment_check_at: null }).where('id', '=', id).execute();
}

/**
 * Claims up to `limit` orders (unpaid, or paid with a payment not yet seen captured) whose question to the provider is due at `now`, the longest
 * due first, and moves each one's due time on (`next`: the order's next question, null when its
 * schedule is over) in the same transaction: two reconcilers never claim the same order (SKIP
 * LOCKED), and one that stops mid-way has the orders it claimed asked about again when next due.
 */
export async function claimPaymentChecks(db: Db, now: Date, limit: number, next: (row: OrderRow) => Date | null): Promise<OrderRow[]> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('orders')
      .selectAll()
      .where('payment_check_at', '<=', now)
      .orderBy('payment_check_at')
      .orderBy('id')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    for (const row of rows) {
      await trx
        .updateTable('orders')
        .set({ payment_check_at: next(row), payment_checks: sql`payment_checks + 1` })
        .where('id', '=', row.id)
        .execute();
    }
    return rows;
  });
}
