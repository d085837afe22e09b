// Catalogue schema v5: the facts a buyer checks on a book's page. Its language (English unless
// the administrator names another), the pages of its full PDF (counted when one is uploaded) and
// the words of its full text (counted when it is written; here once for the books there are).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE books ADD COLUMN language text NOT NULL DEFAULT 'English', ADD COLUMN page_count integer, ADD COLUMN word_count integer`.execute(db);
  await sql`
    UPDATE books b SET word_count = counted.words
    FROM (
      SELECT c.book_id, sum(array_length(regexp_split_to_array(btrim(p.text), '\s+'), 1))::int AS words
      FROM book_contents c, jsonb_array_elements_text(c.paragraphs) AS p(text)
      WHERE btrim(p.text) <> ''
      GROUP BY c.book_id
    ) counted
    WHERE counted.book_id = b.id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE books DROP COLUMN language, DROP COLUMN page_count, DROP COLUMN word_count`.execute(db);
}
