// Orders schema v18: refunds (issue 23). A row per refund an administrator asks for; its id is the
// X-Refund-Idempotency key sent to Razorpay, so a retry after a lost answer makes one refund, never
// two. Amounts in integer paise; what is refunded (every refund not failed) never passes what was
// paid (checked under the order's row lock). The state only moves forward: requested (ours, not yet
// acknowledged) → pending (Razorpay has it) → processed | failed, from the API's answer, the signed
// refund.* webhooks and a poller with a due time per refund, like the payment checks.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('refunds')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('order_id', 'uuid', (c) => c.notNull().references('orders.id'))
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('amount_paise', 'integer', (c) => c.notNull().check(sql`amount_paise > 0`))
    .addColumn('speed', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('requested', 'pending', 'processed', 'failed')`))
    .addColumn('provider_refund_id', 'text', (c) => c.unique())
    .addColumn('failure', 'text')
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('processed_at', 'timestamptz')
    .addColumn('check_at', 'timestamptz')
    .addColumn('checks', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`CREATE INDEX refunds_order_idx ON refunds (order_id, created_at)`.execute(db);
  await sql`CREATE INDEX refunds_check_idx ON refunds (check_at) WHERE check_at IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('refunds').execute();
}
