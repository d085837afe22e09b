// Personalisation schema v4: every Persona made from now on carries a leak mark (issue 13, point 7),
// kept with it so a copy found in the wild leads back to its order in one index lookup.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('personas').addColumn('mark', 'bigint').execute();
  await sql`CREATE INDEX personas_mark_idx ON personas (mark) WHERE mark IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX personas_mark_idx`.execute(db);
  await db.schema.alterTable('personas').dropColumn('mark').execute();
}
