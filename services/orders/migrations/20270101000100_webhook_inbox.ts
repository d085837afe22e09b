// Orders schema v14: the payment webhooks' inbox. A delivery is recorded (its neutral action, as
// the provider's adapter read it) and answered at once; the payment it brings is made from the
// inbox by a background round (payments/webhook-inbox.ts). Before, each webhook paid its order in
// the request: 50 deliveries at once waited up to a second for their 200 while the Personas they
// caused were made on the same cores, and Razorpay retries (and finally disables) a webhook that is
// slow to answer. Rows received before this are handled already.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('webhook_events')
    .addColumn('action', 'jsonb')
    .addColumn('due_at', 'timestamptz')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('handled_at', 'timestamptz')
    .addColumn('outcome', 'text')
    .execute();
  await sql`UPDATE webhook_events SET handled_at = received_at, outcome = 'handled before the inbox'`.execute(db);
  await sql`CREATE INDEX webhook_events_due_idx ON webhook_events (due_at) WHERE handled_at IS NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX webhook_events_due_idx`.execute(db);
  await db.schema
    .alterTable('webhook_events')
    .dropColumn('action')
    .dropColumn('due_at')
    .dropColumn('attempts')
    .dropColumn('last_error')
    .dropColumn('handled_at')
    .dropColumn('outcome')
    .execute();
}
