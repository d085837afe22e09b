// Orders schema v4: the administrator's list is paid orders unless asked otherwise, so a delivery
// status or type is nearly always asked together with a payment status: each pair its own
// (payment_status, filter, created_at, id) b-tree, so the page and its capped count are one
// index range (index-only for the count) rather than a walk filtering rows from the heap.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX orders_payment_delivery_created_idx ON orders (payment_status, delivery_status, created_at, id)`.execute(db);
  await sql`CREATE INDEX orders_payment_type_created_idx ON orders (payment_status, delivery_type, created_at, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_payment_type_created_idx').execute();
  await db.schema.dropIndex('orders_payment_delivery_created_idx').execute();
}
