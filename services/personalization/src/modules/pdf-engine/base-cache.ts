// Prepared books kept in memory, so a book's second and later Personas only
// pay for their own update. Least recently used first out, bounded by the
// bytes the entries hold (the service's PERSONA_PDF_CACHE_MB; 0 turns it off);
// builds of the same book at the same time share one preparation (lru-cache's
// fetch), and a preparation that fails is not kept.
import { LRUCache } from 'lru-cache';
import type { PreparedBase } from './prepare-base';

type Prepare = () => Promise<PreparedBase>;

export class BaseCache {
  private entries: LRUCache<string, PreparedBase, Prepare> | null = null;

  constructor(private maxBytes: number) {
    this.entries = BaseCache.make(maxBytes);
  }

  private static make(maxBytes: number): LRUCache<string, PreparedBase, Prepare> | null {
    if (maxBytes <= 0) return null;
    return new LRUCache<string, PreparedBase, Prepare>({
      maxSize: maxBytes,
      sizeCalculation: (base) => Math.max(1, base.footprint),
      fetchMethod: (_key, _stale, { context }) => context(),
    });
  }

  async get(key: string, make: Prepare): Promise<PreparedBase> {
    if (!this.entries) return make();
    const base = await this.entries.fetch(key, { context: make });
    // Undefined only when a fetch was aborted, which nothing here does; prepare it without the cache then.
    return base ?? make();
  }

  /** A new bound empties the cache. */
  setLimit(maxBytes: number) {
    if (maxBytes === this.maxBytes) return;
    this.maxBytes = maxBytes;
    this.entries = BaseCache.make(maxBytes);
  }

  clear() {
    this.entries?.clear();
  }

  stats() {
    return { entries: this.entries?.size ?? 0, bytes: this.entries?.calculatedSize ?? 0, maxBytes: this.maxBytes };
  }
}
