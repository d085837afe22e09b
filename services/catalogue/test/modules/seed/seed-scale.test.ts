// The scale data set's books, on both databases: counts, the home tabs' rules, the tag
// vocabulary, and the same books for the same seed.
import { describeWithPostgres } from '@persona/test-kit';
import { sql, type Database } from '@persona/db';
import type { CatalogueDB } from '../../../src/db';
import { seedScaleCatalogue } from '../../../src/modules/seed/seed-scale';
import { openTestDatabase } from '../../support';

function contract(kind: 'pglite' | 'postgres') {
  let database: Database<CatalogueDB>;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ database, dispose } = await openTestDatabase(kind));
  });
  afterAll(() => dispose());

  it('adds varied books in every home tab, with their full text and an exact tag vocabulary', async () => {
    const made = await seedScaleCatalogue(database.db, { books: 300, seed: 42, batch: 128 });
    expect(made).toHaveLength(300);
    const count = async (query: ReturnType<typeof sql<{ n: number }>>) => Number((await query.execute(database.db)).rows[0]!.n);
    expect(await count(sql`SELECT count(*)::int AS n FROM books`)).toBe(300);
    expect(await count(sql`SELECT count(*)::int AS n FROM book_contents`)).toBe(300);
    expect(await count(sql`SELECT count(DISTINCT category_id)::int AS n FROM books`)).toBeGreaterThanOrEqual(10);
    // The spec's tab rules (§5) each keep some books.
    expect(await count(sql`SELECT count(*)::int AS n FROM books WHERE 'Fiction' = ANY(tags)`)).toBeGreaterThan(30);
    expect(await count(sql`SELECT count(*)::int AS n FROM books WHERE 'Self-Help' = ANY(tags)`)).toBeGreaterThan(5);
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM books b WHERE EXISTS (SELECT 1 FROM unnest(b.tags) t WHERE t LIKE '%Memoir%' OR t LIKE '%Biography%' OR t LIKE '%Historical%')`,
      ),
    ).toBeGreaterThan(5);
    // Dates over two years; prices in whole paise in range; ratings 2.5–5; no book with two spellings of one tag.
    const { rows } = await sql<{ oldest: Date; newest: Date; min: number; max: number; low: number; high: number; dup: number }>`
      SELECT min(created_at) AS oldest, max(created_at) AS newest, min(price_paise) AS min, max(price_paise) AS max, min(rating) AS low, max(rating) AS high,
             (SELECT count(*) FROM books b WHERE (SELECT count(DISTINCT lower(t)) FROM unnest(b.tags) t) <> cardinality(b.tags))::int AS dup
      FROM books`.execute(database.db);
    const r = rows[0]!;
    expect(new Date(r.newest).getTime() - new Date(r.oldest).getTime()).toBeGreaterThan(300 * 86_400_000);
    expect(r.min).toBeGreaterThanOrEqual(9900);
    expect(r.max).toBeLessThanOrEqual(149_950);
    expect(Number(r.low)).toBeGreaterThanOrEqual(2.5);
    expect(Number(r.high)).toBeLessThanOrEqual(5);
    expect(r.dup).toBe(0);
    const vocabulary = await sql<{ mismatched: number }>`
      SELECT count(*)::int AS mismatched FROM (
        SELECT t.tag, count(*) AS n FROM books b, unnest(b.tags) t(tag) GROUP BY t.tag
      ) actual FULL JOIN tag_counts c ON c.tag = actual.tag WHERE c.books IS DISTINCT FROM actual.n`.execute(database.db);
    expect(vocabulary.rows[0]!.mismatched).toBe(0);
    expect(await count(sql`SELECT count(*)::int AS n FROM tag_counts`)).toBeGreaterThan(60);
  });

  it('makes the same books for the same seed', async () => {
    const first = await seedScaleCatalogue(database.db, { books: 5, seed: 7 });
    const second = await seedScaleCatalogue(database.db, { books: 5, seed: 7 });
    expect(second.map((b) => [b.title, b.author, b.pricePaise])).toEqual(first.map((b) => [b.title, b.author, b.pricePaise]));
    expect(second.map((b) => b.id)).not.toEqual(first.map((b) => b.id));
  });
}

describe('the scale books on PGlite', () => contract('pglite'));
describeWithPostgres()('the scale books on PostgreSQL', () => contract('postgres'));
