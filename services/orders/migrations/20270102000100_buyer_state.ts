// Orders schema v17: the buyer's state (GST state code), asked at checkout: a printed copy's
// destination, an e-book buyer's home — the tax invoice's place of supply (issue 23). NULL for
// orders from before it, and for a checkout that did not say: the invoice then names the shop's
// own state (IGST Act s. 12(2)(b): no address on record).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('buyer_state', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('buyer_state').execute();
}
