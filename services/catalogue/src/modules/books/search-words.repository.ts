// The search vocabulary (search_words): every word the books' search documents hold. Words are
// added with each book write; a word whose last book went stays (a correction to it simply
// finds nothing) until the vocabulary is rebuilt.
import { sql, type Kysely } from 'kysely';
import type { CatalogueDB } from '../../db';

type Db = Kysely<CatalogueDB>;

/** Adds the words of a book's title and author (after its row is written). */
export async function addSearchWords(db: Db, bookId: string): Promise<void> {
  await sql`INSERT INTO search_words (word) SELECT DISTINCT unnest(tsvector_to_array(search_doc)) FROM books WHERE id = ${bookId} ON CONFLICT DO NOTHING`.execute(
    db,
  );
}

/** Makes the vocabulary again from every book (after a bulk load). */
export async function rebuildSearchWords(db: Db): Promise<void> {
  await sql`DELETE FROM search_words`.execute(db);
  await sql`INSERT INTO search_words (word) SELECT DISTINCT unnest(tsvector_to_array(search_doc)) FROM books`.execute(db);
}

/** Which of `candidates` are words of the catalogue. */
export async function knownWords(db: Db, candidates: readonly string[]): Promise<Set<string>> {
  if (candidates.length === 0) return new Set();
  const { rows } = await sql<{ word: string }>`SELECT word FROM search_words WHERE word = ANY(${[...new Set(candidates)]}::text[])`.execute(db);
  return new Set(rows.map((r) => r.word));
}
