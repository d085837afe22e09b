// Orders schema v12: an e-mail an order may owe more than once. The shop's own alert that a paid
// Persona could not be made goes out once per failure (each persona.failed: a retry that fails
// again is a new failure), so it names what made it due in `occasion` (the event's id). Every
// other e-mail keeps '' there and stays one per order and kind, as before.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('emails')
    .addColumn('occasion', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`DROP INDEX emails_once_idx`.execute(db);
  await sql`CREATE UNIQUE INDEX emails_once_idx ON emails (order_id, kind, occasion)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM emails WHERE occasion <> ''`.execute(db);
  await sql`DROP INDEX emails_once_idx`.execute(db);
  await sql`CREATE UNIQUE INDEX emails_once_idx ON emails (order_id, kind)`.execute(db);
  await db.schema.alterTable('emails').dropColumn('occasion').execute();
}
