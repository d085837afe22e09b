// Every public list question of the catalogue as one indexed query (DESIGN §11):
// search, the home tabs' and explore chips' rules (spec §5), sort and pages;
// the chips' tag counts; related books; suggestions; the sitemap's listing.
//
// Search reads the folded keys (lower case, no accents: "zoe" finds "Zoë") and
// matches a title or author that contains the text (trigram indexes), or has
// every word of it as word beginnings, in any order, across title and author
// (the full-text index). Only when nothing matches so does it forgive a typo:
// each word is looked up in the vocabulary one letter away (missing, extra,
// swapped or changed) and the search runs again with the words that exist — a
// reader who spelt "ledger" right wants the ledgers, not the "leaders".
// User text only ever travels as a bound parameter: wildcards and quotes are
// plain characters.
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { COUNT_CAP, type BookSort, type HomeTab, type TagCount } from '@persona/contracts';
import type { CatalogueDB } from '../../db';
import { summariesInOrder, summaryQuery, type SummaryRow } from './books.repository';
import { knownWords, wordsBeginningWith } from './search-words.repository';
import { foldWord, oneLetterAway, typoPrefixes } from './spelling';

type Db = Kysely<CatalogueDB>;

export interface BookListFilter {
  search?: string;
  tag?: string;
  tab?: HomeTab;
  categoryId?: string;
}

export interface BookListPage {
  sort?: BookSort;
  page: number;
  limit: number;
  /** Where a search stops counting (SEARCH_COUNT_CAP). */
  countCap?: number;
}

/** The non-fiction tab keeps a tag containing one of these, case as written (spec §5). */
export const NON_FICTION_MARKERS = ['Memoir', 'Biography', 'Historical'] as const;

/** Escapes LIKE's wildcards and its escape character, so the text is matched as written. */
function likeEscaped(value: Expression<string> | RawBuilder<string>): RawBuilder<string> {
  return sql<string>`replace(replace(replace(${value}, '\\', '\\\\'), '%', '\\%'), '_', '\\_')`;
}

/** The words of a search as a prefix full-text query ("tag gita" → "tag:* & gita:*"), folded like the keys; null without a word. */
export function prefixTsQuery(text: string): string | null {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 12);
  return words.length > 0 ? words.map((w) => `${w}:*`).join(' & ') : null;
}

/** The search's words alone ('"tiffin"' → 'tiffin'), or the text itself when it has none ('%'). */
export function searchWords(text: string): string {
  const words = text.replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ').trim();
  return words || text;
}

interface SearchTerms {
  /** The folded search text, as typed: what a title or author may contain (spec §5). */
  contains: RawBuilder<string>;
  /** The folded words of the search: what ranks, and what is forgiven a typo. */
  key: RawBuilder<string>;
  prefix: RawBuilder<string>;
  wordStart: RawBuilder<string>;
  tsquery: string | null;
}

function searchTerms(text: string): SearchTerms {
  const key = sql<string>`search_key(${searchWords(text)})`;
  return {
    contains: sql<string>`'%' || ${likeEscaped(sql<string>`search_key(${text})`)} || '%'`,
    key,
    prefix: sql<string>`${likeEscaped(key)} || '%'`,
    wordStart: sql<string>`'% ' || ${likeEscaped(key)} || '%'`,
    tsquery: prefixTsQuery(text),
  };
}

/**
 * How a search matches: as written (substring or every word), or — once nothing does — with its
 * words corrected (a full-text query of each word or the vocabulary's words one letter from it).
 */
export type SearchMode = 'written' | { corrected: string; rankAs?: string };

function matches(t: SearchTerms, mode: SearchMode): RawBuilder<SqlBool> {
  if (mode !== 'written') return sql<SqlBool>`b.search_doc @@ to_tsquery('simple', ${mode.corrected})`;
  const branches = [sql`b.title_key LIKE ${t.contains}`, sql`b.author_key LIKE ${t.contains}`];
  if (t.tsquery) branches.push(sql`b.search_doc @@ to_tsquery('simple', search_key(${t.tsquery}))`);
  return sql<SqlBool>`(${sql.join(branches, sql` OR `)})`;
}

/** What ranks above a mere substring (relevance's first three tiers): the title's beginning (or all of it), the author's or a word of it. */
function strongMatch(t: SearchTerms): RawBuilder<SqlBool> {
  return sql<SqlBool>`(b.title_key LIKE ${t.prefix} OR b.author_key LIKE ${t.prefix} OR b.author_key LIKE ${t.wordStart})`;
}

/** Exact title, then title prefix, then author (its beginning or a word's), then the rest; corrected matches ranked as their corrected text, else newest first. */
function relevance(t: SearchTerms, mode: SearchMode): RawBuilder<unknown>[] {
  if (mode !== 'written') return mode.rankAs ? relevance(searchTerms(mode.rankAs), 'written') : [];
  return [
    sql`CASE
      WHEN b.title_key = ${t.key} THEN 0
      WHEN b.title_key LIKE ${t.prefix} THEN 1
      WHEN b.author_key LIKE ${t.prefix} OR b.author_key LIKE ${t.wordStart} THEN 2
      ELSE 3 END`,
  ];
}

/** Books carrying one of the tags the subquery names: the books' GIN index on `tags` answers the overlap. */
function hasTagIn(vocabulary: RawBuilder<SqlBool>): RawBuilder<SqlBool> {
  return sql<SqlBool>`b.tags && ARRAY(SELECT tag FROM tag_counts WHERE ${vocabulary})`;
}

function tabRule(tab: HomeTab): RawBuilder<SqlBool> {
  switch (tab) {
    // Exact tag "Fiction": "Historical Fiction" or "fiction" do not count (spec §5).
    case 'fiction':
      return sql<SqlBool>`b.tags @> ARRAY['Fiction']::text[]`;
    case 'self-help':
      return sql<SqlBool>`b.tags @> ARRAY['Self-Help']::text[]`;
    case 'non-fiction':
      return hasTagIn(
        sql.join(
          NON_FICTION_MARKERS.map((m) => sql<SqlBool>`tag LIKE ${`%${m}%`}`),
          sql` OR `,
        ) as RawBuilder<SqlBool>,
      );
  }
}

/** The chips' rule (spec §5): a tag that contains the chip text, case-insensitively. */
function chipRule(chip: string): RawBuilder<SqlBool> {
  return hasTagIn(sql<SqlBool>`lower(tag) LIKE '%' || ${likeEscaped(sql`lower(${chip})`)} || '%'`);
}

/** The books (short rows only) a filter keeps. */
function filtered(db: Db, filter: BookListFilter, mode: SearchMode = 'written') {
  let query = db.selectFrom('books as b').select('b.id');
  const search = filter.search?.trim();
  if (search) query = query.where(matches(searchTerms(search), mode));
  const tag = filter.tag?.trim();
  if (tag) query = query.where(chipRule(tag));
  if (filter.tab) query = query.where(tabRule(filter.tab));
  if (filter.categoryId) query = query.where('b.category_id', '=', filter.categoryId);
  return query;
}

function sortKeys(sort: BookSort, search: string | undefined, mode: SearchMode): RawBuilder<unknown>[] {
  switch (sort) {
    case 'relevance':
      if (search) return [...relevance(searchTerms(search), mode), sql`b.created_at DESC`, sql`b.id DESC`];
      return [sql`b.created_at DESC`, sql`b.id DESC`];
    case 'newest':
      return [sql`b.created_at DESC`, sql`b.id DESC`];
    case 'price-asc':
      return [sql`b.price_paise ASC`, sql`b.id ASC`];
    case 'price-desc':
      return [sql`b.price_paise DESC`, sql`b.id DESC`];
    case 'rating':
      return [sql`b.rating DESC`, sql`b.created_at DESC`, sql`b.id DESC`];
  }
}

/** A search's matches are counted up to this many ("10,000+ books"); a list without one is counted exactly. */
export const SEARCH_COUNT_CAP = COUNT_CAP;

export interface BookListAnswer {
  books: SummaryRow[];
  total: number;
  /** True when a search matches more than `total` books (counting stopped at SEARCH_COUNT_CAP). */
  totalCapped: boolean;
}

async function listPage(db: Db, filter: BookListFilter, page: BookListPage, mode: SearchMode): Promise<BookListAnswer> {
  const search = filter.search?.trim() || undefined;
  const sort = page.sort ?? (search ? 'relevance' : 'newest');
  const query = filtered(db, filter, mode);
  const cap = page.countCap ?? SEARCH_COUNT_CAP;
  const counted = search
    ? db
        .selectFrom(
          query
            .clearSelect()
            .select(sql`1`.as('one'))
            .limit(cap + 1)
            .as('matches'),
        )
        .select((eb) => eb.fn.countAll<number>().as('n'))
    : query.clearSelect().select((eb) => eb.fn.countAll<number>().as('n'));
  const [ids, count] = await Promise.all([
    query
      .orderBy(sql.join(sortKeys(sort, search, mode)))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit)
      .execute(),
    counted.executeTakeFirstOrThrow(),
  ]);
  const n = Number(count.n);
  return {
    books: await summariesInOrder(
      db,
      ids.map((row) => row.id),
    ),
    total: Math.min(n, cap),
    totalCapped: n > cap,
  };
}

/** Longest word corrected: past it a typo is as likely to be two (and the candidates many). */
const CORRECTED_WORD_MAX = 24;
/** Corrections kept for one typed word (the most alike first): a typo stands for a word, not for a shelf. */
const CORRECTIONS_PER_WORD = 8;

export interface Correction {
  /** The full-text query of the corrected search. */
  query: string;
  /** The vocabulary's words that stood in for a typo. */
  words: string[];
  /** The search with each typo replaced by its likeliest word ("backwatr ledger" → "backwaters ledger"): what ranks the corrected matches. */
  text: string;
}

/**
 * The search's words with the vocabulary's words one letter from each, as a full-text query
 * ("tifin ledgr" → "(tifin:* | tiffin:*) & (ledgr:* | ledger:*)"); null when no word has a correction.
 * A word is corrected to a whole word one letter away ("tifin" → "tiffin") or, when it has none,
 * to words that begin one letter away ("backwatr" → "backwaters": a typo before the word was finished).
 */
export async function correctSearch(db: Db, text: string): Promise<Correction | null> {
  const words = [
    ...new Set(
      text
        .split(/[^\p{L}\p{M}\p{N}]+/u)
        .map(foldWord)
        .filter((w) => w.length >= 3 && w.length <= CORRECTED_WORD_MAX),
    ),
  ].slice(0, 6);
  if (words.length === 0) return null;
  const near = new Map(words.map((w) => [w, oneLetterAway(w)]));
  const known = await knownWords(db, [...near.values()].flat());
  const whole = new Map(words.map((w) => [w, near.get(w)!.filter((c) => known.has(c))]));
  // Only a word with no whole word one letter away is taken for an unfinished one.
  const unfinished = new Map(words.filter((w) => whole.get(w)!.length === 0).map((w) => [w, typoPrefixes(w)]));
  const begun = await wordsBeginningWith(db, [...unfinished.values()].flat(), CORRECTIONS_PER_WORD);
  const used: string[] = [];
  const likeliest = new Map<string, string>();
  const groups = words.map((w) => {
    const candidates = whole.get(w)!.length > 0 ? whole.get(w)! : [...new Set((unfinished.get(w) ?? []).flatMap((p) => begun.get(p) ?? []))];
    const found = candidates.slice(0, CORRECTIONS_PER_WORD);
    if (found.length > 0) likeliest.set(w, found[0]!);
    used.push(...found);
    return found.length > 0 ? `(${[w, ...found].map((x) => `${x}:*`).join(' | ')})` : `${w}:*`;
  });
  if (used.length === 0) return null;
  const corrected = text
    .split(/([^\p{L}\p{M}\p{N}]+)/u)
    .map((part) => likeliest.get(foldWord(part)) ?? part)
    .join('');
  return { query: groups.join(' & '), words: used, text: corrected };
}

/** A search's answer: a page of books, and — when they match only once its typos are corrected — the title it most likely meant. */
export interface SearchAnswer extends BookListAnswer {
  /** The best match's title when the books match only a corrected search, or the closest title when nothing matches at all. */
  didYouMean?: string;
}

/** The title nearest a search that matches nothing even corrected (trigram similarity of the whole title). */
async function closestTitle(db: Db, text: string): Promise<string | undefined> {
  const key = sql<string>`search_key(${searchWords(text)})`;
  const { rows } = await sql<{ title: string }>`
    SELECT b.title FROM books b WHERE b.title_key OPERATOR(public.%) ${key}
    ORDER BY public.similarity(b.title_key, ${key}) DESC, b.rating DESC, b.id LIMIT 1`.execute(db);
  return rows[0]?.title;
}

/** One page of the books matching the filter, and how many match in all. A page past the end is empty. */
export async function listBooks(db: Db, filter: BookListFilter, page: BookListPage): Promise<SearchAnswer> {
  const written = await listPage(db, filter, page, 'written');
  const search = filter.search?.trim();
  if (written.total > 0 || !search) return written;
  const correction = await correctSearch(db, search);
  if (correction) {
    const mode = { corrected: correction.query, rankAs: correction.text };
    const answer = await listPage(db, filter, page, mode);
    const best = page.page === 1 ? answer.books[0] : (await listPage(db, filter, { ...page, page: 1, limit: 1 }, mode)).books[0];
    if (best) return { ...answer, didYouMean: best.title };
  }
  const closest = await closestTitle(db, search);
  return closest ? { ...written, didYouMean: closest } : written;
}

/** The distinct lower-cased tags and how many books carry each (the chips), by name or by count; `q` keeps tags containing it. */
export async function listTags(
  db: Db,
  options: { q?: string; sort: 'name' | 'count'; page: number; limit: number },
): Promise<{ tags: TagCount[]; total: number }> {
  const q = options.q?.trim();
  // "all" is the chip that shows every book (spec §2), never a tag's chip.
  const where = q ? sql`lower(tag) <> 'all' AND lower(tag) LIKE '%' || ${likeEscaped(sql`lower(${q})`)} || '%'` : sql`lower(tag) <> 'all'`;
  // By name: accents sort beside their letter, the same on every database.
  const byName = sql`search_key(lower(tag)) COLLATE "C", lower(tag) COLLATE "C"`;
  const order = options.sort === 'count' ? sql`sum(books) DESC, ${byName}` : byName;
  const [rows, total] = await Promise.all([
    sql<TagCount>`
      SELECT lower(tag) AS tag, sum(books)::integer AS count FROM tag_counts WHERE ${where}
      GROUP BY lower(tag) ORDER BY ${order} LIMIT ${options.limit} OFFSET ${(options.page - 1) * options.limit}`.execute(db),
    sql<{ n: number }>`SELECT count(DISTINCT lower(tag))::integer AS n FROM tag_counts WHERE ${where}`.execute(db),
  ]);
  return { tags: rows.rows, total: Number(total.rows[0]?.n ?? 0) };
}

/** How many candidates of each kind (same category, shared tag) are scored for "You Might Also Like". */
const RELATED_CANDIDATES = 200;

/**
 * Other books of the same category or sharing a tag (never the book itself):
 * same category first, then most tags shared (case-insensitively), then newest.
 * Undefined when the book does not exist.
 */
export async function relatedBooks(db: Db, id: string, limit: number): Promise<SummaryRow[] | undefined> {
  const book = await db.selectFrom('books').select(['id', 'category_id', 'tags']).where('id', '=', id).executeTakeFirst();
  if (!book) return undefined;
  const lowerTags = book.tags.map((t) => t.toLowerCase());
  // Every spelling of the book's tags ("Fiction", "fiction") that some book carries.
  const spellings = sql`ARRAY(SELECT tag FROM tag_counts WHERE lower(tag) = ANY(${lowerTags}::text[]))`;
  const candidates = sql<{ id: string }>`
    (SELECT b.id FROM books b WHERE b.category_id = ${book.category_id} AND b.id <> ${id} ORDER BY b.created_at DESC, b.id DESC LIMIT ${RELATED_CANDIDATES})
    UNION
    (SELECT b.id FROM books b WHERE b.tags && ${spellings} AND b.id <> ${id} ORDER BY b.created_at DESC, b.id DESC LIMIT ${RELATED_CANDIDATES})`;
  const sameCategory = book.category_id ? sql`CASE WHEN b.category_id = ${book.category_id} THEN 10 ELSE 0 END` : sql`0`;
  const rows = await summaryQuery(db)
    .where('b.id', 'in', sql<string>`(SELECT id FROM (${candidates}) AS c)`)
    .orderBy(sql`${sameCategory} + (SELECT count(*) FROM unnest(b.tags) AS t(tag) WHERE lower(t.tag) = ANY(${lowerTags}::text[])) DESC`)
    .orderBy(sql`b.created_at DESC`)
    .orderBy(sql`b.id DESC`)
    .limit(limit)
    .execute();
  return rows;
}

const SUGGESTED_BOOKS = 5;
const SUGGESTED_AUTHORS = 3;

/** What the header search box is offered: matching books, then authors. */
export interface SuggestionRows {
  books: Array<{ id: string; title: string; author: string }>;
  authors: Array<{ author: string; books: number }>;
}

/** Up to `max` suggestions for the header search box: the best matching books, then authors (with corrected words when nothing matches as written). */
export async function suggest(db: Db, text: string, max: number): Promise<SuggestionRows> {
  const t = searchTerms(text);
  const booksWhere = (where: RawBuilder<SqlBool>, mode: SearchMode) =>
    db
      .selectFrom('books as b')
      .select(['b.id', 'b.title', 'b.author'])
      .where(where)
      .orderBy(sql.join([...relevance(t, mode), sql`b.rating DESC`, sql`b.id`]))
      .limit(max)
      .execute();
  const books = async (mode: SearchMode) => {
    if (mode !== 'written') return booksWhere(matches(t, mode), mode);
    // The strong matches (exact title, the title's beginning, the author's or a word of it) rank
    // before every other and their indexes answer them; a short prefix contained in a fifth of the
    // catalogue is scanned for only when they are fewer than asked. The answer is the same.
    const strong = await booksWhere(strongMatch(t), mode);
    return strong.length >= max ? strong : booksWhere(matches(t, mode), mode);
  };
  const authors = async (words: RawBuilder<string>[] | null) => {
    // As written: the text begins the name or one of its words; corrected: one of the corrected words does.
    const starts = (word: RawBuilder<string>) => sql`(b.author_key LIKE ${likeEscaped(word)} || '%' OR b.author_key LIKE '% ' || ${likeEscaped(word)} || '%')`;
    const where = words ? sql.join(words.map(starts), sql` OR `) : starts(t.key);
    const order = words ? sql`` : sql`CASE WHEN b.author_key LIKE ${t.prefix} THEN 0 ELSE 1 END,`;
    const { rows } = await sql<{ author: string; books: number }>`
      SELECT min(b.author) AS author, count(*)::integer AS books FROM books b WHERE ${where}
      GROUP BY b.author_key ORDER BY ${order} count(*) DESC, b.author_key LIMIT ${SUGGESTED_AUTHORS}`.execute(db);
    return rows;
  };
  let [bookRows, authorRows] = await Promise.all([books('written'), authors(null)]);
  if (bookRows.length === 0 && authorRows.length === 0) {
    const correction = await correctSearch(db, text);
    if (correction) {
      [bookRows, authorRows] = await Promise.all([
        books({ corrected: correction.query, rankAs: correction.text }),
        authors(correction.words.map((w) => sql<string>`${w}`)),
      ]);
    }
  }
  const bookCount = Math.min(bookRows.length, Math.max(SUGGESTED_BOOKS, max - authorRows.length));
  return { books: bookRows.slice(0, bookCount), authors: authorRows.slice(0, max - bookCount) };
}

/** The sitemap's files: books oldest first, `perFile` to a file, each with its newest change. */
export async function sitemapFiles(db: Db, perFile: number): Promise<{ total: number; files: Array<{ file: number; last: Date }> }> {
  const { rows } = await sql<{ file: number; n: number; last: Date }>`
    SELECT file::integer AS file, count(*)::integer AS n, max(updated_at) AS last FROM (
      SELECT (row_number() OVER (ORDER BY created_at, id) - 1) / ${perFile} + 1 AS file, updated_at FROM books
    ) AS numbered GROUP BY file ORDER BY file`.execute(db);
  return {
    total: rows.reduce((sum, r) => sum + Number(r.n), 0),
    files: rows.map((r) => ({ file: Number(r.file), last: new Date(r.last) })),
  };
}

/** One sitemap file's books (ids and last change). */
export function sitemapEntries(db: Db, file: number, perFile: number): Promise<Array<{ id: string; updated_at: Date }>> {
  return db
    .selectFrom('books')
    .select(['id', 'updated_at'])
    .orderBy('created_at')
    .orderBy('id')
    .offset((file - 1) * perFile)
    .limit(perFile)
    .execute();
}
