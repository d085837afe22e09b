// Rendered pages, kept by what they were made of: the page's address, the content coding it was
// sent in, the exact text of every API answer it was rendered with, and the year (the footer's
// copyright line). A page is a pure function of those (the renderer reads nothing else), so a kept page is the page a render would make now;
// any change to its data (a price edit, a new book) is another key, and the old page ages out of
// the LRU. A repeated view then costs reading its answers from the shared cache and a hash,
// instead of React's render and the compression (tens of milliseconds for a page of books).
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ContentCoding } from '../compression';

export interface CachedPage {
  status: number;
  /** The page, compressed in `coding` (or as it is, for none). */
  body: Buffer;
  coding?: ContentCoding;
}

export class PageCache {
  readonly #pages: LRUCache<string, CachedPage>;

  /** `maxBytes` of compressed pages in all; one page may take an eighth of it. */
  constructor(maxBytes = 16 * 1024 * 1024) {
    this.#pages = new LRUCache<string, CachedPage>({
      maxSize: maxBytes,
      maxEntrySize: maxBytes / 8,
      sizeCalculation: (page) => Math.max(1, page.body.length),
    });
  }

  /** The key of a page: its address, coding and answers' texts (null when an answer failed: such a page is not kept). */
  static key(url: string, coding: ContentCoding | undefined, texts: ReadonlyArray<string | null>, now = new Date()): string | null {
    if (texts.some((text) => text === null)) return null;
    const hash = createHash('sha256')
      .update(url)
      .update('\0')
      .update(coding ?? 'identity')
      .update('\0')
      .update(String(now.getFullYear()));
    for (const text of texts) hash.update('\0').update(text!);
    return hash.digest('base64url');
  }

  get(key: string): CachedPage | undefined {
    return this.#pages.get(key);
  }

  /** Keeps the page, the least recently used ones leaving to make room (a page over its share is not kept). */
  set(key: string, page: CachedPage): void {
    this.#pages.set(key, page);
  }

  get size(): number {
    return this.#pages.size;
  }

  get bytes(): number {
    return this.#pages.calculatedSize;
  }
}
