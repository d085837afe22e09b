// Caches serialised book answers per catalogue version. The version is read
// from the database at most once per `ttlMs` (and at once after a local
// write), so a change made through any instance shows within that window and
// a repeat request costs no query. ETags carry the version and the query.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CatalogueDB } from '../../db';
import { readCatalogueVersion } from '../catalogue-version.repository';

export interface CachedAnswer {
  body: string;
  etag: string;
}

export class BookCache {
  #version = 0;
  #checkedAt = 0;
  #pending: Promise<number> | null = null;
  #entries = new Map<string, CachedAnswer>();

  constructor(
    private readonly db: Kysely<CatalogueDB>,
    private readonly ttlMs = 500,
    private readonly maxEntries = 500,
  ) {}

  /** Forget the version, so the next request reads it again (after a local write). */
  invalidate(): void {
    this.#checkedAt = 0;
  }

  async version(): Promise<number> {
    if (Date.now() - this.#checkedAt < this.ttlMs) return this.#version;
    this.#pending ??= readCatalogueVersion(this.db)
      .then((version) => {
        if (version !== this.#version) this.#entries.clear();
        this.#version = version;
        this.#checkedAt = Date.now();
        return version;
      })
      .finally(() => {
        this.#pending = null;
      });
    return this.#pending;
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
    // Only keep it if no write moved the version while we loaded.
    if (version === this.#version) {
      if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(key, entry);
    }
    return entry;
  }
}
