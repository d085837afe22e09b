// Catalogue schema v1: categories, books, their full text kept apart from the
// list-facing row, and a version counter that list caches and ETags key on.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('categories')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE UNIQUE INDEX categories_name_key ON categories (lower(name))`.execute(db);

  await db.schema
    .createTable('books')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('price_paise', 'integer', (c) => c.notNull().check(sql`price_paise >= 0`))
    .addColumn('printing_cost_paise', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`printing_cost_paise >= 0`),
    )
    .addColumn('tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('rating', sql`numeric(3,2)`, (c) => c.notNull().defaultTo(0))
    .addColumn('category_id', 'uuid', (c) => c.references('categories.id').onDelete('restrict'))
    .addColumn('sample_content', 'jsonb', (c) => c.notNull().defaultTo(sql`'""'::jsonb`))
    .addColumn('trail_limit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cover_key', 'text')
    .addColumn('image_keys', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('sample_pdf_key', 'text')
    .addColumn('full_pdf_key', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('books_category_idx').on('books').column('category_id').execute();
  await db.schema.createIndex('books_created_idx').on('books').columns(['created_at', 'id']).execute();
  await sql`CREATE INDEX books_tags_idx ON books USING gin (tags)`.execute(db);

  // The full text never travels with the public row, so it lives apart.
  await db.schema
    .createTable('book_contents')
    .addColumn('book_id', 'uuid', (c) => c.primaryKey().references('books.id').onDelete('cascade'))
    .addColumn('paragraphs', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();

  await db.schema
    .createTable('catalogue_meta')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(1))
    .addColumn('demo_seeded_at', 'timestamptz')
    .execute();
  await db.insertInto('catalogue_meta').values({ id: 1, version: 1 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('catalogue_meta').execute();
  await db.schema.dropTable('book_contents').execute();
  await db.schema.dropTable('books').execute();
  await db.schema.dropTable('categories').execute();
}
