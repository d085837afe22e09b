// Prepared books kept in memory, so a book's second and later Personas only
// pay for their own update. Least recently used first out, bounded by the
// bytes the entries hold (the service's PERSONA_PDF_CACHE_MB; 0 turns it off).
import type { PreparedBase } from './prepare-base';

interface Entry {
  promise: Promise<PreparedBase>;
  /** 0 until the base is ready. */
  bytes: number;
}

export class BaseCache {
  private readonly entries = new Map<string, Entry>();
  private total = 0;

  constructor(private maxBytes: number) {}

  get(key: string, make: () => Promise<PreparedBase>): Promise<PreparedBase> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.promise;
    }
    const entry: Entry = { promise: make(), bytes: 0 };
    if (this.maxBytes <= 0) return entry.promise;
    // Builds of the same book at the same time share one preparation.
    this.entries.set(key, entry);
    entry.promise.then(
      (base) => {
        if (this.entries.get(key) !== entry) return;
        entry.bytes = base.footprint;
        this.total += entry.bytes;
        this.evict();
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry.promise;
  }

  setLimit(maxBytes: number) {
    this.maxBytes = maxBytes;
    this.evict();
  }

  clear() {
    this.entries.clear();
    this.total = 0;
  }

  stats() {
    return { entries: this.entries.size, bytes: this.total, maxBytes: this.maxBytes };
  }

  private evict() {
    for (const [key, entry] of this.entries) {
      if (this.total <= this.maxBytes) break;
      if (entry.bytes === 0) continue;
      this.entries.delete(key);
      this.total -= entry.bytes;
    }
  }
}
