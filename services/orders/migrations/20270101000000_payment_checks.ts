// Orders schema v13: when the reconciler next asks the provider about an unpaid order. Each order
// with a Razorpay order has its own due time (a couple of minutes after it was made, then less and
// less often: payments/payment-checks.ts), claimed with SKIP LOCKED, so every unpaid order is
// asked about whatever the number of abandoned checkouts; before, the reconciler asked about the
// 50 oldest of the last 48 hours, and a shop with more abandoned checkouts than that found a
// silently paid order two days late or never. NULL: nothing to ask (paid, or the asking is over).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('payment_check_at', 'timestamptz')
    .addColumn('payment_checks', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The unpaid orders of the last three days (the reconciler's whole window) are due now.
  await sql`
    UPDATE orders SET payment_check_at = now()
    WHERE payment_status <> 'paid' AND razorpay_order_id IS NOT NULL AND created_at > now() - interval '3 days'`.execute(db);
  await sql`CREATE INDEX orders_payment_check_idx ON orders (payment_check_at) WHERE payment_check_at IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX orders_payment_check_idx`.execute(db);
  await db.schema.alterTable('orders').dropColumn('payment_check_at').dropColumn('payment_checks').execute();
}
