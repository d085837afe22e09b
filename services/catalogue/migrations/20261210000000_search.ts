// Catalogue schema v2: every list question answered from indexes (DESIGN §11).
// - search keys: title and author folded (lower case, accents removed, spaces
//   collapsed) as stored generated columns, with trigram indexes (substring,
//   prefix and typo-tolerant similarity) and a full-text document over both
//   (every word, in any order, across title and author);
// - sort indexes for newest, price and rating;
// - tag_counts: the distinct tags as written and how many books carry each,
//   kept in the same transaction as every book write; it answers the chips
//   and turns the tab and chip rules into an indexed array overlap.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Extensions live in `public`, shared by every service of the database: one creator at a time.
  await sql`SELECT pg_advisory_xact_lock(hashtext('persona.extensions'))`.execute(db);
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`.execute(db);
  await sql`CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public`.execute(db);

  // unaccent() is only STABLE (its dictionary could change); with the dictionary named it is fixed,
  // which is what lets the key be a generated column and be indexed.
  await sql`
    CREATE FUNCTION search_key(text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    AS $$ SELECT btrim(regexp_replace(lower(public.unaccent('public.unaccent'::regdictionary, $1)), '\\s+', ' ', 'g')) $$`.execute(db);

  await sql`ALTER TABLE books ADD COLUMN title_key text GENERATED ALWAYS AS (search_key(title)) STORED`.execute(db);
  await sql`ALTER TABLE books ADD COLUMN author_key text GENERATED ALWAYS AS (search_key(author)) STORED`.execute(db);
  await sql`ALTER TABLE books ADD COLUMN search_doc tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, search_key(title) || ' ' || search_key(author))) STORED`.execute(
    db,
  );

  await sql`CREATE INDEX books_title_trgm_idx ON books USING gin (title_key public.gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX books_author_trgm_idx ON books USING gin (author_key public.gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX books_search_doc_idx ON books USING gin (search_doc)`.execute(db);
  // Exact and prefix matches (suggestions) by plain b-tree ranges.
  await sql`CREATE INDEX books_title_prefix_idx ON books (title_key text_pattern_ops)`.execute(db);
  await sql`CREATE INDEX books_author_prefix_idx ON books (author_key text_pattern_ops)`.execute(db);

  // Sorts: each read forwards or backwards, ties broken by id.
  await sql`CREATE INDEX books_price_idx ON books (price_paise, id)`.execute(db);
  await sql`CREATE INDEX books_rating_idx ON books (rating, created_at, id)`.execute(db);
  // Newest first and the sitemap's oldest first read (created_at, id) both ways (books_created_idx).

  await db.schema
    .createTable('tag_counts')
    .addColumn('tag', 'text', (c) => c.primaryKey())
    .addColumn('books', 'integer', (c) => c.notNull().check(sql`books > 0`))
    .execute();
  await sql`CREATE INDEX tag_counts_lower_trgm_idx ON tag_counts USING gin (lower(tag) public.gin_trgm_ops)`.execute(db);
  await sql`
    INSERT INTO tag_counts (tag, books)
    SELECT t.tag, count(*) FROM books b, unnest(b.tags) AS t(tag) GROUP BY t.tag`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tag_counts').execute();
  for (const index of [
    'books_rating_idx',
    'books_price_idx',
    'books_author_prefix_idx',
    'books_title_prefix_idx',
    'books_search_doc_idx',
    'books_author_trgm_idx',
    'books_title_trgm_idx',
  ]) {
    await db.schema.dropIndex(index).execute();
  }
  await sql`ALTER TABLE books DROP COLUMN search_doc, DROP COLUMN author_key, DROP COLUMN title_key`.execute(db);
  await sql`DROP FUNCTION search_key(text)`.execute(db);
}
