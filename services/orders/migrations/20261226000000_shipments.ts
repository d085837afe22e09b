// Orders schema v7: a printed copy's shipment (carrier and tracking number, both optional, and
// when it left), set when an administrator marks it shipped.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('carrier', 'text').addColumn('tracking_number', 'text').addColumn('shipped_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('carrier').dropColumn('tracking_number').dropColumn('shipped_at').execute();
}
