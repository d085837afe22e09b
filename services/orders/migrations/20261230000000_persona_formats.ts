// Orders schema v11: the files a ready Persona comes as ('pdf', or 'pdf,epub' for a book typeset
// from its text), told by persona.ready; null (orders made ready before) reads as the PDF only.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('persona_formats', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('persona_formats').execute();
}
