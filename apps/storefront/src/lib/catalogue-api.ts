// Catalogue calls every feature needs: the whole public list (paged through at the server's
// maximum page size), one book by id, and the categories.
import type { Book, BookSummary, Category, Envelope, ListOf } from '@persona/contracts';
import { api } from '@persona/web-kit/api-client';

export const MAX_PAGE_SIZE = 100;
/** A guard against a runaway loop; 50 pages of 100 is far beyond any storefront catalogue. */
const MAX_PAGES = 50;

export interface BookListQuery {
  search?: string;
  tag?: string;
  category?: string;
  page?: number;
  limit?: number;
}

export function getBooksPage(query: BookListQuery, signal?: AbortSignal): Promise<ListOf<BookSummary>> {
  return api.get<ListOf<BookSummary>>('/books', { ...query }, signal);
}

export async function getAllBooks(signal?: AbortSignal): Promise<BookSummary[]> {
  const books: BookSummary[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const answer = await getBooksPage({ page, limit: MAX_PAGE_SIZE }, signal);
    books.push(...answer.data);
    const total = answer.meta?.total ?? books.length;
    if (answer.data.length === 0 || books.length >= total) break;
  }
  return books;
}

export async function getBook(id: string, signal?: AbortSignal): Promise<Book> {
  const answer = await api.get<Envelope<Book>>(`/books/${encodeURIComponent(id)}`, undefined, signal);
  return answer.data;
}

export async function getCategories(signal?: AbortSignal): Promise<Category[]> {
  const answer = await api.get<ListOf<Category> | Envelope<Category[]>>('/categories', undefined, signal);
  return answer.data;
}
