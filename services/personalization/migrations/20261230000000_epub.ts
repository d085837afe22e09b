// Personalisation schema v3: a Persona's EPUB (a book typeset from its text) has its SHA-256 kept
// beside the PDF's, so an uploaded EPUB can be told genuine, and its Persona found by it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('personas').addColumn('epub_sha256', 'text').execute();
  await sql`CREATE INDEX personas_epub_sha256_idx ON personas (epub_sha256) WHERE epub_sha256 IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX personas_epub_sha256_idx`.execute(db);
  await db.schema.alterTable('personas').dropColumn('epub_sha256').execute();
}
