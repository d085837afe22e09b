// The catalogue schema as kysely sees it. Row types stay inside repositories.
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface CategoriesTable {
  id: Generated<string>;
  name: string;
  description: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BooksTable {
  id: Generated<string>;
  title: string;
  author: string;
  price_paise: number;
  printing_cost_paise: Generated<number>;
  tags: Generated<string[]>;
  rating: Generated<number>;
  category_id: string | null;
  trail_limit: Generated<number>;
  cover_key: string | null;
  image_keys: Generated<string[]>;
  sample_pdf_key: string | null;
  full_pdf_key: string | null;
  /** The author's own signature (a PNG among the private files); null without one. */
  author_signature_key: ColumnType<string | null, string | null | undefined, string | null>;
  language: Generated<string>;
  /** Pages of the full PDF (counted when it is uploaded); null without one. */
  page_count: ColumnType<number | null, number | null | undefined, number | null>;
  /** Words of the full text (counted when it is written); null without one. */
  word_count: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Generated: the title and author folded for search (lower case, no accents, single spaces). */
  title_key: ColumnType<string, never, never>;
  author_key: ColumnType<string, never, never>;
  /** Generated: the full-text document over both keys. */
  search_doc: ColumnType<string, never, never>;
}

export interface SearchWordsTable {
  word: string;
}

export interface TagCountsTable {
  tag: string;
  books: number;
}

/** A book's long texts, apart from the short row lists read. */
export interface BookContentsTable {
  book_id: string;
  paragraphs: ColumnType<string[], string | undefined, string>;
  description: ColumnType<string, string | undefined, string>;
  sample_content: ColumnType<unknown, string | undefined, string>;
}

export interface CatalogueMetaTable {
  id: number;
  version: number;
  demo_seeded_at: Date | null;
}

export interface CatalogueDB {
  categories: CategoriesTable;
  books: BooksTable;
  book_contents: BookContentsTable;
  tag_counts: TagCountsTable;
  search_words: SearchWordsTable;
  catalogue_meta: CatalogueMetaTable;
  outbox: any;
  inbox: any;
}
