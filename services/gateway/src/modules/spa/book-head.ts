// Reads one book from the catalogue for the /book/:id head, with a short cache
// so a burst of link previews costs one upstream call.
import type { Book } from '@persona/contracts';
import { truncate, type PageHead } from './html';

export type BookLookup = { status: 'found'; book: Book } | { status: 'missing' } | { status: 'unknown' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class BookHeadSource {
  readonly #cache = new Map<string, { at: number; value: BookLookup }>();

  constructor(
    private readonly catalogueUrl: string,
    private readonly ttlMs = 30_000,
    private readonly timeoutMs = 1500,
  ) {}

  async lookup(id: string): Promise<BookLookup> {
    if (!UUID.test(id)) return { status: 'missing' };
    const hit = this.#cache.get(id);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    let value: BookLookup;
    try {
      const res = await fetch(`${this.catalogueUrl}/api/books/${id}`, { signal: AbortSignal.timeout(this.timeoutMs) });
      if (res.status === 404) value = { status: 'missing' };
      else if (!res.ok) return { status: 'unknown' };
      else value = { status: 'found', book: ((await res.json()) as { data: Book }).data };
    } catch {
      // The page still works without the preview tags; the SPA fetches the book itself.
      return { status: 'unknown' };
    }
    if (this.#cache.size > 1000) this.#cache.clear();
    this.#cache.set(id, { at: Date.now(), value });
    return value;
  }
}

export function bookHead(book: Book, publicUrl: string): PageHead {
  const url = `${publicUrl}/book/${book._id}`;
  const description = truncate(book.description);
  const title = `${book.title} by ${book.author} | Persona Books`;
  return {
    title,
    description,
    canonical: url,
    og: {
      type: 'book',
      title: `${book.title} — a Persona by ${book.author}`,
      description,
      url,
      image: book.coverImage ? `${publicUrl}${book.coverImage.url}` : undefined,
    },
    preloadImage: book.coverImage?.url,
  };
}

export const NOT_FOUND_HEAD: PageHead = { title: 'Page not found | Persona Books', noindex: true };
export const BOOK_NOT_FOUND_HEAD: PageHead = { title: 'Book not found | Persona Books', noindex: true };
