// Orders schema v10: gifts (DESIGN §12). A gift's recipient, message, address and delivery day
// live on its order; the recipient's e-mail waits in `emails` until its `send_after` (a scheduled
// send kept in the database, so a restart neither loses nor repeats it). A recipient's address
// finds the gifts it was given in the library.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('gift_recipient_name', 'text')
    .addColumn('gift_message', 'text')
    .addColumn('gift_recipient_email', 'text')
    .addColumn('gift_deliver_on', 'text')
    .execute();
  await sql`ALTER TABLE orders ADD CONSTRAINT orders_gift_complete CHECK ((gift_recipient_name IS NULL) = (gift_deliver_on IS NULL))`.execute(db);
  await sql`CREATE INDEX orders_gift_recipient_idx ON orders (lower(gift_recipient_email)) WHERE gift_recipient_email IS NOT NULL`.execute(db);
  await db.schema.alterTable('emails').addColumn('send_after', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('emails').dropColumn('send_after').execute();
  await sql`DROP INDEX orders_gift_recipient_idx`.execute(db);
  await sql`ALTER TABLE orders DROP CONSTRAINT orders_gift_complete`.execute(db);
  await db.schema
    .alterTable('orders')
    .dropColumn('gift_recipient_name')
    .dropColumn('gift_message')
    .dropColumn('gift_recipient_email')
    .dropColumn('gift_deliver_on')
    .execute();
}
