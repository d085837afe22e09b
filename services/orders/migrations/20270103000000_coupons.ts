// Orders schema v19: coupon codes (issue 23). A code (kept in capitals: case does not matter) takes
// a percent or an amount off the book's price. `used` counts the redemptions held (reserved at a
// checkout, or final once paid): a checkout reserves one with `UPDATE … SET used = used + 1 WHERE
// used < total_limit RETURNING`, so no number of concurrent checkouts passes the limit; the
// per-e-mail count is a row per (code, e-mail) moved the same way in the same transaction. A
// redemption is a row per order: reserved, final (paid) or released (its count given back when the
// payment failed, the checkout was left, or the order was refunded in full).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('coupons')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('percent_off', 'integer', (c) => c.check(sql`percent_off BETWEEN 1 AND 100`))
    .addColumn('amount_off_paise', 'integer', (c) => c.check(sql`amount_off_paise > 0`))
    .addColumn('min_order_paise', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`min_order_paise >= 0`),
    )
    .addColumn('valid_from', 'timestamptz')
    .addColumn('valid_to', 'timestamptz')
    // Empty: every book.
    .addColumn('book_ids', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('total_limit', 'integer', (c) => c.check(sql`total_limit > 0`))
    .addColumn('per_email_limit', 'integer', (c) => c.check(sql`per_email_limit > 0`))
    .addColumn('used', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`used >= 0`),
    )
    .addColumn('active', 'boolean', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('coupons_one_offer', sql`(percent_off IS NULL) <> (amount_off_paise IS NULL)`)
    .execute();
  await db.schema
    .createTable('coupon_email_uses')
    .addColumn('coupon_id', 'uuid', (c) => c.notNull().references('coupons.id'))
    // Lower case.
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().check(sql`used >= 0`))
    .addPrimaryKeyConstraint('coupon_email_uses_pk', ['coupon_id', 'email'])
    .execute();
  await db.schema
    .createTable('coupon_redemptions')
    .addColumn('order_id', 'uuid', (c) => c.primaryKey().references('orders.id'))
    .addColumn('coupon_id', 'uuid', (c) => c.notNull().references('coupons.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('discount_paise', 'integer', (c) => c.notNull().check(sql`discount_paise >= 0`))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state IN ('reserved', 'final', 'released')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX coupon_redemptions_coupon_idx ON coupon_redemptions (coupon_id, created_at)`.execute(db);
  // The sweep's question: reservations held longer than a checkout lives.
  await sql`CREATE INDEX coupon_redemptions_reserved_idx ON coupon_redemptions (created_at) WHERE state = 'reserved'`.execute(db);
  await db.schema
    .alterTable('orders')
    .addColumn('coupon_id', 'uuid', (c) => c.references('coupons.id'))
    .addColumn('coupon_code', 'text')
    .addColumn('discount_paise', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`discount_paise >= 0`),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('discount_paise').dropColumn('coupon_code').dropColumn('coupon_id').execute();
  await db.schema.dropTable('coupon_redemptions').execute();
  await db.schema.dropTable('coupon_email_uses').execute();
  await db.schema.dropTable('coupons').execute();
}
