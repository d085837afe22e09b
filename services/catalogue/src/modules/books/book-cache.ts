// Caches serialised public answers per catalogue version. Every request learns
// the current version from a database read that started after it arrived, so
// a write committed through any instance shows at once (read your own writes,
// DESIGN §11); requests arriving together share one such read, so a burst
// costs one tiny query, never one per request. ETags carry the version and the key.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { CatalogueDB } from '../../db';
import { readCatalogueVersion } from '../catalogue-version.repository';

export interface CachedAnswer {
  body: string;
  etag: string;
}

export interface BookCacheOptions {
  /** Memory for cached answers, in bytes of JSON text. */
  maxBytes?: number;
}

export class BookCache {
  #version = -1;
  /** The version read in flight, and the one queued to start after it. */
  #inflight: Promise<number> | null = null;
  #queued: Promise<number> | null = null;
  readonly #entries: LRUCache<string, CachedAnswer>;

  constructor(
    private readonly db: Kysely<CatalogueDB>,
    options: BookCacheOptions = {},
  ) {
    this.#entries = new LRUCache<string, CachedAnswer>({
      maxSize: options.maxBytes ?? 32 * 1024 * 1024,
      sizeCalculation: (entry, key) => entry.body.length + key.length + 64,
    });
  }

  /** Forgets every answer (after a write through this instance; others notice the version). */
  invalidate(): void {
    this.#entries.clear();
  }

  /**
   * The catalogue version as of a read that started after this call. A read
   * already in flight may have started before a write this caller saw commit,
   * so callers arriving during it wait for the next one, which they share.
   */
  version(): Promise<number> {
    if (!this.#inflight) return (this.#inflight = this.#read());
    this.#queued ??= this.#inflight.then(
      () => this.#startQueued(),
      () => this.#startQueued(),
    );
    return this.#queued;
  }

  #startQueued(): Promise<number> {
    this.#queued = null;
    return (this.#inflight = this.#read());
  }

  #read(): Promise<number> {
    const read = readCatalogueVersion(this.db).then((version) => {
      if (version !== this.#version) {
        this.#entries.clear();
        this.#version = version;
      }
      return version;
    });
    read.then(
      () => this.#settle(read),
      () => this.#settle(read),
    );
    return read;
  }

  #settle(read: Promise<number>): void {
    if (this.#inflight === read) this.#inflight = null;
  }

  /** The cached answer for `key`, or a fresh one from `load` (null answers are not cached). */
  async answer(key: string, load: () => Promise<unknown | null>): Promise<CachedAnswer | null> {
    const version = await this.version();
    const hit = this.#entries.get(key);
    if (hit) return hit;
    const data = await load();
    if (data === null) return null;
    const body = JSON.stringify(data);
    const tag = createHash('sha1').update(key).digest('base64url').slice(0, 12);
    const entry = { body, etag: `"v${version}-${tag}"` };
    // Kept only if no write moved the version while it loaded.
    if (version === this.#version) this.#entries.set(key, entry);
    return entry;
  }
}
