// Catalogue schema v3: a book's long texts (description and sample) move beside its full text
// in book_contents, so the `books` row a list reads, filters and sorts is short: a search over
// 100,000 books touches a few thousand short rows, not a few thousand pages of prose. A list
// fetches the texts of the one page of books it answers.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE book_contents ADD COLUMN description text NOT NULL DEFAULT '', ADD COLUMN sample_content jsonb NOT NULL DEFAULT '""'::jsonb`.execute(
    db,
  );
  await sql`INSERT INTO book_contents (book_id) SELECT id FROM books b WHERE NOT EXISTS (SELECT 1 FROM book_contents c WHERE c.book_id = b.id)`.execute(db);
  await sql`UPDATE book_contents c SET description = b.description, sample_content = b.sample_content FROM books b WHERE b.id = c.book_id`.execute(db);
  await sql`ALTER TABLE books DROP COLUMN description, DROP COLUMN sample_content`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE books ADD COLUMN description text NOT NULL DEFAULT '', ADD COLUMN sample_content jsonb NOT NULL DEFAULT '""'::jsonb`.execute(db);
  await sql`UPDATE books b SET description = c.description, sample_content = c.sample_content FROM book_contents c WHERE b.id = c.book_id`.execute(db);
  await sql`ALTER TABLE book_contents DROP COLUMN description, DROP COLUMN sample_content`.execute(db);
}
