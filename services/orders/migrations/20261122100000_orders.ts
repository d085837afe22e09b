// Orders schema v1: orders (money in paise, the three statuses), the webhook
// events already handled, the payment attempts seen, and buyer e-mails waiting
// to be sent.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('orders')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('persona_id', 'text', (c) => c.notNull().unique())
    .addColumn('book_id', 'uuid', (c) => c.notNull())
    .addColumn('book_title', 'text', (c) => c.notNull())
    .addColumn('book_author', 'text', (c) => c.notNull())
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('delivery_type', 'text', (c) => c.notNull().check(sql`delivery_type IN ('digital', 'physical')`))
    .addColumn('address', 'jsonb')
    .addColumn('base_paise', 'integer', (c) => c.notNull())
    .addColumn('printing_paise', 'integer', (c) => c.notNull())
    .addColumn('delivery_paise', 'integer', (c) => c.notNull())
    .addColumn('amount_paise', 'integer', (c) => c.notNull().check(sql`amount_paise >= 100`))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('INR'))
    .addColumn('payment_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('created')
        .check(sql`payment_status IN ('created', 'attempted', 'paid', 'failed')`),
    )
    .addColumn('delivery_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`delivery_status IN ('pending', 'shipped', 'delivered', 'cancelled')`),
    )
    .addColumn('persona_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`persona_status IN ('pending', 'generating', 'ready', 'failed')`),
    )
    .addColumn('persona_error', 'text')
    .addColumn('persona_sha256', 'text')
    .addColumn('razorpay_order_id', 'text', (c) => c.unique())
    .addColumn('razorpay_payment_id', 'text')
    .addColumn('paid_via', 'text')
    .addColumn('idempotency_key', 'text', (c) => c.unique())
    .addColumn('request_hash', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('paid_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('orders_created_idx').on('orders').columns(['created_at', 'id']).execute();
  await sql`CREATE INDEX orders_unsettled_idx ON orders (created_at) WHERE payment_status <> 'paid' AND razorpay_order_id IS NOT NULL`.execute(db);

  await db.schema
    .createTable('webhook_events')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('payment_attempts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('order_id', 'uuid', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('razorpay_payment_id', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('emails')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('order_id', 'uuid', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .execute();
  await sql`CREATE UNIQUE INDEX emails_once_idx ON emails (order_id, kind)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('emails').execute();
  await db.schema.dropTable('payment_attempts').execute();
  await db.schema.dropTable('webhook_events').execute();
  await db.schema.dropTable('orders').execute();
}
