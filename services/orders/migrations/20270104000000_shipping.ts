// Orders schema: shipping a printed copy to the right person on time (issue 24). The address (JSON)
// now carries the courier's name and phone, state, second line and landmark, so nothing changes for
// it here. Every paid printed copy gets a ship-by date (the shop's day, printedDelivery at payment):
// `ship_by_key` orders the dispatch list by it, earliest first, read as a descending key like every
// list (a date 2026-12-03 is the key -20261203; none sorts last), with its own small partial index.
// Printed copies paid before this rule were promised dispatch within two business days of payment
// (a gift's day was not yet asked of the courier): that is their ship-by date.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('ship_by', 'text').execute();
  await sql`ALTER TABLE orders ADD COLUMN ship_by_key integer NOT NULL
            GENERATED ALWAYS AS (coalesce(-(replace(ship_by, '-', '')::integer), -2147483647)) STORED`.execute(db);
  // The second business day (Monday to Saturday) after the shop's day of payment, a Sunday counting from Monday.
  await sql`
    UPDATE orders SET ship_by = (
      SELECT to_char(day, 'YYYY-MM-DD')
      FROM (SELECT (paid_at AT TIME ZONE 'UTC' + interval '5 hours 30 minutes')::date AS paid_on) p,
           LATERAL (SELECT CASE WHEN extract(isodow FROM p.paid_on) = 7 THEN p.paid_on + 1 ELSE p.paid_on END AS start) s,
           LATERAL generate_series(s.start + 1, s.start + 9, interval '1 day') AS day
      WHERE extract(isodow FROM day) <> 7
      ORDER BY day
      OFFSET 1 LIMIT 1
    )
    WHERE payment_status = 'paid' AND delivery_type = 'physical' AND paid_at IS NOT NULL`.execute(db);
  await sql`CREATE INDEX orders_dispatch_idx ON orders (ship_by_key, id) WHERE delivery_type = 'physical' AND delivery_status = 'pending'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_dispatch_idx').execute();
  await db.schema.alterTable('orders').dropColumn('ship_by_key').dropColumn('ship_by').execute();
}
