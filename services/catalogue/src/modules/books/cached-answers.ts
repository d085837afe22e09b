// The public routes' answers (books, tags, related, suggestions, sitemap), through the version cache: each answer is
// computed once per catalogue version and key (on the read replica when one is
// caught up, see BookCache), and served as its JSON text.
import { DEFAULT_PAGE_SIZE, SITEMAP_URLS_PER_FILE, SUGGESTIONS_MAX, type BookQuery, type RelatedQuery, type TagQuery } from '@persona/contracts';
import type { Kysely } from 'kysely';
import type { CatalogueDB } from '../../db';
import type { BookCache, CachedAnswer } from './book-cache';
import * as lists from './book-lists.repository';
import { toBook, toSitemapEntry, toSuggestions, toSummary } from './books.mapper';
import * as repo from './books.repository';

/** Search text as the cache sees it: the same answer for "  Tiffin " and "tiffin". */
const searchKey = (text: string | undefined) => text?.trim().replace(/\s+/g, ' ').toLowerCase() ?? '';

export function listBooksAnswer(cache: BookCache, query: BookQuery): Promise<CachedAnswer> {
  const page = query.page ?? 1;
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const filter = { search: query.search, tag: query.tag, tab: query.tab, categoryId: query.category };
  const key = `list:${JSON.stringify([searchKey(query.search), searchKey(query.tag), query.tab ?? '', query.category ?? '', query.sort ?? '', page, limit])}`;
  return cache.answer(key, async (db) => {
    const { books, total, totalCapped, didYouMean } = await lists.listBooks(db, filter, { sort: query.sort, page, limit });
    return { data: books.map(toSummary), meta: { total, page, limit, ...(totalCapped ? { totalCapped } : {}), ...(didYouMean ? { didYouMean } : {}) } };
  }) as Promise<CachedAnswer>;
}

export function bookAnswer(cache: BookCache, id: string): Promise<CachedAnswer | null> {
  return cache.answer(`book:${id}`, async (db) => {
    const book = await repo.findBook(db, id);
    return book ? { data: toBook(book) } : null;
  });
}

export function tagsAnswer(cache: BookCache, query: TagQuery): Promise<CachedAnswer> {
  const page = query.page ?? 1;
  const limit = query.limit ?? 100;
  const sort = query.sort ?? 'name';
  return cache.answer(`tags:${JSON.stringify([searchKey(query.q), sort, page, limit])}`, async (db) => {
    const { tags, total } = await lists.listTags(db, { q: query.q, sort, page, limit });
    return { data: tags, meta: { total, page, limit } };
  }) as Promise<CachedAnswer>;
}

export function relatedAnswer(cache: BookCache, id: string, query: RelatedQuery): Promise<CachedAnswer | null> {
  const limit = query.limit ?? 4;
  return cache.answer(`related:${id}:${limit}`, async (db) => {
    const books = await lists.relatedBooks(db, id, limit);
    return books ? { data: books.map(toSummary) } : null;
  });
}

/** Suggestions need two characters of text: one letter matches half the catalogue and helps nobody. */
export const SUGGEST_MIN_LENGTH = 2;

export function suggestAnswer(cache: BookCache, text: string): Promise<CachedAnswer> {
  const q = searchKey(text);
  return cache.answer(`suggest:${q}`, async (db) => ({
    data: q.length < SUGGEST_MIN_LENGTH ? [] : toSuggestions(await lists.suggest(db, q, SUGGESTIONS_MAX)),
  })) as Promise<CachedAnswer>;
}

async function sitemapIndex(db: Kysely<CatalogueDB>) {
  const { total, files } = await lists.sitemapFiles(db, SITEMAP_URLS_PER_FILE);
  return { total, files: files.map((f) => ({ file: f.file, lastModified: f.last.toISOString() })), perFile: SITEMAP_URLS_PER_FILE };
}

export function sitemapIndexAnswer(cache: BookCache): Promise<CachedAnswer> {
  return cache.answer('sitemap', async (db) => ({
    data: await sitemapIndex(db),
  })) as Promise<CachedAnswer>;
}

export function sitemapFileAnswer(cache: BookCache, file: number): Promise<CachedAnswer | null> {
  return cache.answer(`sitemap:${file}`, async (db) => {
    const entries = await lists.sitemapEntries(db, file, SITEMAP_URLS_PER_FILE);
    // File 1 exists even for an empty catalogue (an empty sitemap), later ones only with books.
    return entries.length === 0 && file > 1 ? null : { data: entries.map(toSitemapEntry) };
  });
}
