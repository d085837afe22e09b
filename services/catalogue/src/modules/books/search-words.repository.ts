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

/**
 * The vocabulary's words beginning with each of `prefixes` (up to `perPrefix` each, in byte
 * order): one range of the byte-ordered index per prefix, so a few hundred prefixes stay a few
 * milliseconds. Prefixes are compared as written (the vocabulary is folded already).
 */
export async function wordsBeginningWith(db: Db, prefixes: readonly string[], perPrefix: number): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (prefixes.length === 0) return out;
  const { rows } = await sql<{ prefix: string; word: string }>`
    SELECT p.prefix, w.word FROM unnest(${[...new Set(prefixes)]}::text[]) AS p(prefix)
    CROSS JOIN LATERAL (
      SELECT s.word FROM search_words s
      WHERE s.word ~>=~ p.prefix AND s.word ~<~ (p.prefix || chr(1114111))
      ORDER BY s.word USING ~<~ LIMIT ${perPrefix}
    ) AS w`.execute(db);
  for (const row of rows) out.set(row.prefix, [...(out.get(row.prefix) ?? []), row.word]);
  return out;
}
