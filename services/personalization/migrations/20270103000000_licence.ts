// Personalisation schema v5: a Persona's licence (issue 23). It ends when its order is refunded in
// full, or when an administrator's re-issue replaces it with a corrected Persona (`replaced_by`, the
// new one's id, set when the new one is ready). Either way the Persona stays genuine — its record
// and signature are unchanged and still verify — but it downloads no more. A refunded order is
// kept too, so a Persona of it made after the refund (a retry still queued) is born ended. An order
// now has a Persona per issue: its order id is no longer unique, only indexed.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('personas')
    .addColumn('licence_ended_at', 'timestamptz')
    .addColumn('licence_end', 'text')
    .addColumn('replaced_by', 'text')
    .execute();
  await db.schema
    .alterTable('personas')
    .addCheckConstraint('personas_licence_end_check', sql`licence_end IN ('refunded', 'replaced')`)
    .execute();
  await sql`ALTER TABLE personas DROP CONSTRAINT personas_order_id_key`.execute(db);
  await sql`CREATE INDEX personas_order_idx ON personas (order_id)`.execute(db);
  await db.schema
    .createTable('refunded_orders')
    .addColumn('order_id', 'uuid', (c) => c.primaryKey())
    .addColumn('refunded_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('refunded_orders').execute();
  await sql`DROP INDEX personas_order_idx`.execute(db);
  await sql`ALTER TABLE personas ADD CONSTRAINT personas_order_id_key UNIQUE (order_id)`.execute(db);
  await db.schema.alterTable('personas').dropConstraint('personas_licence_end_check').execute();
  await db.schema.alterTable('personas').dropColumn('licence_ended_at').dropColumn('licence_end').dropColumn('replaced_by').execute();
}
