// Book reads for the public routes, through the version cache.
import { DEFAULT_PAGE_SIZE, type BookQuery } from '@persona/contracts';
import type { Kysely } from 'kysely';
import type { CatalogueDB } from '../../db';
import type { BookCache, CachedAnswer } from './book-cache';
import * as repo from './books.repository';

export function listBooksAnswer(db: Kysely<CatalogueDB>, cache: BookCache, query: BookQuery): Promise<CachedAnswer> {
  const page = query.page ?? 1;
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const filter = { search: query.search, tag: query.tag, categoryId: query.category };
  const key = `list:${JSON.stringify([filter.search?.trim().toLowerCase() ?? '', filter.tag?.trim().toLowerCase() ?? '', filter.categoryId ?? '', page, limit])}`;
  return cache.answer(key, async () => {
    const { books, total } = await repo.listBooks(db, filter, page, limit);
    return { data: books, meta: { total, page, limit } };
  }) as Promise<CachedAnswer>;
}

export function bookAnswer(db: Kysely<CatalogueDB>, cache: BookCache, id: string): Promise<CachedAnswer | null> {
  return cache.answer(`book:${id}`, async () => {
    const book = await repo.findBook(db, id);
    return book ? { data: book } : null;
  });
}
