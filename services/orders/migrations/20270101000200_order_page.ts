// Orders schema v15: what the order page (issue 23) adds. An administrator's private notes on an
// order (the id is the page's own, so a second press adds one note), and the e-mail a resent copy
// copies (a copy is an e-mail of its own, kind and all, under the occasion `resend:<request id>`),
// and an index for an order's payment attempts.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('order_notes')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('order_id', 'uuid', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX order_notes_order_idx ON order_notes (order_id, created_at)`.execute(db);
  await db.schema
    .alterTable('emails')
    .addColumn('resend_of', 'uuid', (c) => c.references('emails.id').onDelete('set null'))
    .execute();
  // The page reads an order's payment attempts: by order, not by a scan of every attempt.
  await sql`CREATE INDEX payment_attempts_order_idx ON payment_attempts (order_id, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX payment_attempts_order_idx`.execute(db);
  await db.schema.alterTable('emails').dropColumn('resend_of').execute();
  await db.schema.dropTable('order_notes').execute();
}
