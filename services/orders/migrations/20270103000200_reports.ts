// Orders schema: the owner's monthly reports (issue 23). The settlement reconciliation reads the
// orders paid in a month (by when they were paid, not made) and looks up Razorpay's payment ids
// it settled; at a million orders each would otherwise read the whole table.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX orders_paid_at_idx ON orders (paid_at) WHERE payment_status = 'paid'`.execute(db);
  await sql`CREATE INDEX orders_razorpay_payment_idx ON orders (razorpay_payment_id) WHERE razorpay_payment_id IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['orders_razorpay_payment_idx', 'orders_paid_at_idx']) await db.schema.dropIndex(index).execute();
}
