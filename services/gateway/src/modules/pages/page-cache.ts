// Rendered pages, kept by what they were made of: the page's address, the content coding it was
// sent in, the exact text of every API answer it was rendered with, and the year (the footer's
// copyright line). A page is a pure function of those (the renderer reads nothing else), so a kept page is the page a render would make now;
// any change to its data (a price edit, a new book) is another key, and the old page ages out of
// the LRU. A repeated view then costs reading its answers from the shared cache and a hash,
// instead of React's render and the compression (tens of milliseconds for a page of books).
import { createHash } from 'node:crypto';
import type { ContentCoding } from '../compression';

export interface CachedPage {
  status: number;
  /** The page, compressed in `coding` (or as it is, for none). */
  body: Buffer;
  coding?: ContentCoding;
}

export class PageCache {
  readonly #pages = new Map<string, CachedPage>();
  #bytes = 0;

  constructor(private readonly maxBytes = 16 * 1024 * 1024) {}

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
    const page = this.#pages.get(key);
    if (page) {
      // Most recently used last.
      this.#pages.delete(key);
      this.#pages.set(key, page);
    }
    return page;
  }

  set(key: string, page: CachedPage): void {
    if (page.body.length > this.maxBytes / 8) return;
    const old = this.#pages.get(key);
    if (old) {
      this.#pages.delete(key);
      this.#bytes -= old.body.length;
    }
    this.#pages.set(key, page);
    this.#bytes += page.body.length;
    for (const [oldest, entry] of this.#pages) {
      if (this.#bytes <= this.maxBytes) break;
      this.#pages.delete(oldest);
      this.#bytes -= entry.body.length;
    }
  }

  get size(): number {
    return this.#pages.size;
  }

  get bytes(): number {
    return this.#bytes;
  }
}
