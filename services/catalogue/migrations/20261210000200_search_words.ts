// Catalogue schema v4: the search vocabulary, every word (lexeme) of the books' titles and
// authors as their search documents hold it. A search that matches nothing as written looks
// its words up here, one letter away (missing, extra, swapped or changed), and searches again
// with the words that exist: precise for short words (where letter triples are too few to
// tell a typo from another word), and a few index probes instead of a similarity per book.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('search_words')
    .addColumn('word', 'text', (c) => c.primaryKey())
    .execute();
  await sql`INSERT INTO search_words (word) SELECT DISTINCT unnest(tsvector_to_array(search_doc)) FROM books ON CONFLICT DO NOTHING`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('search_words').execute();
}
