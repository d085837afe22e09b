// Orders schema v8: the dashboard's numbers and the lists they link to, at a million orders.
// Paid sales by day are a range of a partial index that carries the amount (read without the
// table); the printed copies waiting for dispatch have their own small partial index (counted
// and listed from it); the list's new Persona filter, asked with a payment status like the
// others (v4), has its (payment_status, persona_status, created_at, id) b-tree.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX orders_paid_sales_idx ON orders (created_at) INCLUDE (amount_paise) WHERE payment_status = 'paid'`.execute(db);
  await sql`CREATE INDEX orders_awaiting_dispatch_idx ON orders (created_at, id)
            WHERE payment_status = 'paid' AND delivery_type = 'physical' AND delivery_status = 'pending'`.execute(db);
  await sql`CREATE INDEX orders_payment_persona_created_idx ON orders (payment_status, persona_status, created_at, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['orders_payment_persona_created_idx', 'orders_awaiting_dispatch_idx', 'orders_paid_sales_idx'])
    await db.schema.dropIndex(index).execute();
}
