// Catalogue schema v6: the search vocabulary by byte order. A word typed with a typo before it was
// finished ("backwatr" for "backwaters") is two letters from the whole word, so the one-letter
// lookup misses it; the words beginning with one of its one-letter neighbours ("backwat",
// "backwate") are ranges of this index, one probe each.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX search_words_prefix_idx ON search_words (word text_pattern_ops)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('search_words_prefix_idx').execute();
}
