// Catalogue schema v7: the author's own signature, an optional PNG uploaded with the book and
// kept with the private files (only the personalisation service reads it, to draw it on the
// dedication page of each Persona).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE books ADD COLUMN author_signature_key text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE books DROP COLUMN author_signature_key`.execute(db);
}
