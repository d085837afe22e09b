// The catalogue's API addresses every feature reads (through useApiData), in one place, so
// the server's render and the browser ask for exactly the same address. No page ever reads
// the whole catalogue: each asks for what it shows (DESIGN §11).
import type { BookQuery, TagQuery } from '@persona/contracts';

type Query = Record<string, string | number | undefined>;

/** `path?query`, without empty values, in a fixed order (the cache key). */
function address(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === '') continue;
    params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export function booksPath(query: BookQuery): string {
  return address('/books', {
    search: query.search?.trim(),
    tag: query.tag,
    tab: query.tab,
    category: query.category,
    sort: query.sort,
    page: query.page,
    limit: query.limit,
  });
}

export const bookPath = (id: string) => `/books/${encodeURIComponent(id)}`;

export const relatedBooksPath = (id: string, limit: number) => address(`/books/${encodeURIComponent(id)}/related`, { limit });

export function tagsPath(query: TagQuery): string {
  return address('/tags', { q: query.q?.trim(), sort: query.sort, page: query.page, limit: query.limit });
}

export const suggestionsPath = (text: string) => address('/books/suggest', { q: text.trim() });

export const categoriesPath = '/categories';
