// The catalogue schema as kysely sees it: the tables its migrations make (db.generated.ts, `node
// scripts/db-types.mjs`), narrowed where the code knows more than PostgreSQL's types say. Row types
// stay inside repositories.
import type { Refine } from '@persona/db';
import type { ColumnType } from 'kysely';
import type { DB } from './db.generated';

/** A stored generated column: PostgreSQL computes it, no statement writes it. */
type Computed<T> = ColumnType<T, never, never>;

export type CategoriesTable = DB['categories'];

export type BooksTable = Refine<
  DB['books'],
  {
    /** The title and author folded for search (lower case, no accents, single spaces). */
    title_key: Computed<string>;
    author_key: Computed<string>;
    /** The full-text document over both keys. */
    search_doc: Computed<string>;
  }
>;

export type SearchWordsTable = DB['search_words'];

export type TagCountsTable = DB['tag_counts'];

/** A book's long texts, apart from the short row lists read: JSON written as text. */
export type BookContentsTable = Refine<
  DB['book_contents'],
  {
    paragraphs: ColumnType<string[], string | undefined, string>;
    sample_content: ColumnType<unknown, string | undefined, string>;
  }
>;

export type CatalogueMetaTable = DB['catalogue_meta'];

export type CatalogueDB = Refine<DB, { books: BooksTable; book_contents: BookContentsTable }>;
