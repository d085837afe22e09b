// The tag vocabulary (tag_counts): every distinct tag as written and how many
// books carry it. Kept exact in the same transaction as every book write, it
// answers the chips (GET /api/tags) and turns the tab and chip rules (a tag
// equal to / containing some text) into an overlap with a short list of tags,
// which the books' GIN index on `tags` answers.
import { sql, type Kysely } from 'kysely';
import type { CatalogueDB } from '../../db';

type Db = Kysely<CatalogueDB>;

/**
 * Recounts the given tags after a book write. Call it after the write's
 * catalogue version bump: that row lock orders concurrent book writes, so the
 * recount sees every write committed before this one.
 */
export async function refreshTagCounts(db: Db, tags: readonly string[]): Promise<void> {
  const distinct = [...new Set(tags)];
  if (distinct.length === 0) return;
  await sql`DELETE FROM tag_counts WHERE tag = ANY(${distinct}::text[])`.execute(db);
  await sql`
    INSERT INTO tag_counts (tag, books)
    SELECT t.tag, count(*) FROM books b, unnest(b.tags) AS t(tag)
    WHERE b.tags && ${distinct}::text[] AND t.tag = ANY(${distinct}::text[])
    GROUP BY t.tag`.execute(db);
}

/** Recounts every tag (after a bulk load such as the scale seed). */
export async function rebuildTagCounts(db: Db): Promise<void> {
  await sql`DELETE FROM tag_counts`.execute(db);
  await sql`INSERT INTO tag_counts (tag, books) SELECT t.tag, count(*) FROM books b, unnest(b.tags) AS t(tag) GROUP BY t.tag`.execute(db);
}
