// All kysely code for books. It answers rows (books.mapper makes the public
// shapes); the full text (book_contents.paragraphs) and the full PDF key are
// not in those rows. A book's description and sample live beside its full text in
// book_contents, so the `books` row lists search and sort is short.
import { sql, type Kysely } from 'kysely';
import type { CheckoutBook, SampleContent } from '@persona/contracts';
import type { CatalogueDB } from '../../db';
import { countWords } from './book-facts';
import { addSearchWords } from './search-words.repository';

type Db = Kysely<CatalogueDB>;

export interface BookRecord {
  id: string;
  title: string;
  author: string;
  description: string;
  pricePaise: number;
  printingCostPaise: number;
  tags: string[];
  rating: number;
  categoryId: string | null;
  sampleContent: SampleContent;
  trailLimit: number;
  coverKey: string | null;
  imageKeys: string[];
  samplePdfKey: string | null;
  fullPdfKey: string | null;
  /** The author's own signature (PNG, private files); null without one. */
  authorSignatureKey: string | null;
  language: string;
  /** Pages of the full PDF; null without one. */
  pageCount: number | null;
}

/** The columns a list item needs, with its category's name and its description. */
export function summaryQuery(db: Db) {
  return db
    .selectFrom('books as b')
    .leftJoin('categories as c', 'c.id', 'b.category_id')
    .innerJoin('book_contents as bc', 'bc.book_id', 'b.id')
    .select([
      'b.id',
      'b.title',
      'b.author',
      'bc.description',
      'b.price_paise',
      'b.printing_cost_paise',
      'b.tags',
      'b.rating',
      'b.category_id',
      'c.name as category_name',
      'b.trail_limit',
      'b.cover_key',
      'b.image_keys',
      'b.sample_pdf_key',
      sql<boolean>`b.full_pdf_key IS NOT NULL`.as('has_full_pdf'),
      sql<boolean>`b.author_signature_key IS NOT NULL`.as('has_author_signature'),
      // The reader's rule (its hasReadableSample): a non-blank line, or a non-blank page that is not an ad.
      sql<boolean>`CASE jsonb_typeof(bc.sample_content)
        WHEN 'string' THEN (bc.sample_content #>> '{}') ~ '[^[:space:]]'
        WHEN 'array' THEN EXISTS (
          SELECT 1 FROM jsonb_array_elements(bc.sample_content) AS page
          WHERE (page ->> 'content') ~ '[^[:space:]]' AND (page -> 'isAd') IS DISTINCT FROM 'true'::jsonb)
        ELSE false END`.as('has_text_sample'),
      'b.language',
      'b.page_count',
      'b.word_count',
      'b.created_at',
      'b.updated_at',
    ]);
}

function baseQuery(db: Db) {
  return summaryQuery(db).select('bc.sample_content');
}

/** The list items of `ids`, in that order (a list picks its page on the short rows, then reads their texts). */
export async function summariesInOrder(db: Db, ids: readonly string[]): Promise<SummaryRow[]> {
  if (ids.length === 0) return [];
  const rows = await summaryQuery(db).where('b.id', 'in', ids).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** A list item's row. */
export type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaryQuery>['executeTakeFirstOrThrow']>>;
/** A book page's row: the list item's and its sample. */
export type BookRow = Awaited<ReturnType<ReturnType<typeof baseQuery>['executeTakeFirstOrThrow']>>;

export function findBook(db: Db, id: string): Promise<BookRow | undefined> {
  return baseQuery(db).where('b.id', '=', id).executeTakeFirst();
}

/** The book's full text, paragraph by paragraph (none yet: empty); undefined when there is no such book. */
export async function findBookParagraphs(db: Db, id: string): Promise<string[] | undefined> {
  const row = await db
    .selectFrom('books')
    .leftJoin('book_contents as bc', 'bc.book_id', 'books.id')
    .select('bc.paragraphs')
    .where('books.id', '=', id)
    .executeTakeFirst();
  return row && ((row.paragraphs as string[] | null) ?? []);
}

/** What a checkout prices from, in paise as stored (never through the public answer's rupees). */
export function findCheckoutBook(db: Db, id: string): Promise<CheckoutBook | undefined> {
  return db
    .selectFrom('books')
    .select(['id', 'title', 'author', 'price_paise as pricePaise', 'printing_cost_paise as printingCostPaise'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** What a book's source answer is made of besides its text, with when the book was last written. */
export interface SourceHead {
  id: string;
  title: string;
  author: string;
  /** The blurb a printed Persona's back cover carries (issue 27). */
  description: string;
  language: string;
  fullPdfKey: string | null;
  coverKey: string | null;
  authorSignatureKey: string | null;
  updatedAt: Date;
}

export async function findSourceHead(db: Db, id: string): Promise<SourceHead | undefined> {
  const row = await db
    .selectFrom('books')
    .leftJoin('book_contents as bc', 'bc.book_id', 'books.id')
    .select([
      'books.id',
      'books.title',
      'books.author',
      'bc.description',
      'books.language',
      'books.full_pdf_key',
      'books.cover_key',
      'books.author_signature_key',
      'books.updated_at',
    ])
    .where('books.id', '=', id)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      title: row.title,
      author: row.author,
      description: row.description ?? '',
      language: row.language,
      fullPdfKey: row.full_pdf_key,
      coverKey: row.cover_key,
      authorSignatureKey: row.author_signature_key,
      updatedAt: new Date(row.updated_at),
    }
  );
}

/** The book as its writes see it, its row locked until the transaction ends. */
export async function findBookRecord(db: Db, id: string): Promise<BookRecord | undefined> {
  const row = await db.selectFrom('books').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  if (!row) return undefined;
  const texts = await db.selectFrom('book_contents').select(['description', 'sample_content']).where('book_id', '=', id).executeTakeFirst();
  return {
    id: row.id,
    title: row.title,
    author: row.author,
    description: texts?.description ?? '',
    pricePaise: row.price_paise,
    printingCostPaise: row.printing_cost_paise,
    tags: row.tags,
    rating: Number(row.rating),
    categoryId: row.category_id,
    sampleContent: (texts?.sample_content ?? '') as SampleContent,
    trailLimit: row.trail_limit,
    coverKey: row.cover_key,
    imageKeys: row.image_keys,
    samplePdfKey: row.sample_pdf_key,
    fullPdfKey: row.full_pdf_key,
    authorSignatureKey: row.author_signature_key,
    language: row.language,
    pageCount: row.page_count,
  };
}

export type BookWrite = Omit<BookRecord, 'id'> & { content: string[] };

function toColumns(values: Omit<BookRecord, 'id'>) {
  return {
    title: values.title,
    author: values.author,
    price_paise: values.pricePaise,
    printing_cost_paise: values.printingCostPaise,
    tags: values.tags,
    rating: values.rating,
    category_id: values.categoryId,
    trail_limit: values.trailLimit,
    cover_key: values.coverKey,
    image_keys: values.imageKeys,
    sample_pdf_key: values.samplePdfKey,
    full_pdf_key: values.fullPdfKey,
    author_signature_key: values.authorSignatureKey,
    language: values.language,
    page_count: values.pageCount,
  };
}

function textColumns(values: Pick<BookRecord, 'description' | 'sampleContent'>) {
  return { description: values.description, sample_content: JSON.stringify(values.sampleContent) };
}

export async function insertBook(db: Db, values: BookWrite): Promise<string> {
  const { id } = await db
    .insertInto('books')
    .values({ ...toColumns(values), word_count: countWords(values.content) })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('book_contents')
    .values({ book_id: id, paragraphs: JSON.stringify(values.content), ...textColumns(values) })
    .execute();
  await addSearchWords(db, id);
  return id;
}

export async function updateBook(db: Db, id: string, values: Omit<BookRecord, 'id'>, content: string[] | undefined): Promise<void> {
  await db
    .updateTable('books')
    .set({ ...toColumns(values), ...(content !== undefined ? { word_count: countWords(content) } : {}), updated_at: new Date() })
    .where('id', '=', id)
    .execute();
  const texts = { ...textColumns(values), ...(content !== undefined ? { paragraphs: JSON.stringify(content) } : {}) };
  await db
    .insertInto('book_contents')
    .values({ book_id: id, ...texts })
    .onConflict((oc) => oc.column('book_id').doUpdateSet(texts))
    .execute();
  await addSearchWords(db, id);
}

export async function deleteBook(db: Db, id: string): Promise<BookRecord | undefined> {
  const record = await findBookRecord(db, id);
  if (!record) return undefined;
  await db.deleteFrom('books').where('id', '=', id).execute();
  return record;
}

export async function categoryExists(db: Db, id: string): Promise<boolean> {
  const row = await db.selectFrom('categories').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}
