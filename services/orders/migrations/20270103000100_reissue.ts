// Orders schema: after the sale (issue 23). A Persona re-issued with corrected names is a row per
// re-issue (its id the page's, so a second press makes one new Persona): the order then names the
// new Persona, the row keeps the one it replaced (whose holder still finds the order by it) and
// what was corrected. An order refunded in full says when (its Personas' licence ended then). A
// printed copy cancelled before dispatch keeps the id of the cancellation, which is also its
// refund's: a second press finds it done.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('persona_reissues')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('order_id', 'uuid', (c) => c.notNull().references('orders.id'))
    .addColumn('old_persona_id', 'text', (c) => c.notNull().unique())
    .addColumn('new_persona_id', 'text', (c) => c.notNull().unique())
    .addColumn('buyer_name', 'text', (c) => c.notNull())
    .addColumn('recipient_name', 'text')
    .addColumn('message', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX persona_reissues_order_idx ON persona_reissues (order_id, created_at)`.execute(db);
  await db.schema.alterTable('orders').addColumn('refunded_in_full_at', 'timestamptz').addColumn('print_cancel_id', 'uuid').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('refunded_in_full_at').dropColumn('print_cancel_id').execute();
  await db.schema.dropTable('persona_reissues').execute();
}
