// A small shared HTTP cache for public GET answers, driven by the upstream's
// own Cache-Control: only 200s marked `public` with `s-maxage` are kept, for
// that many seconds; requests carrying credentials are never served from or
// stored into it; `If-None-Match` is answered from the cached ETag. The
// catalogue marks its public reads `s-maxage=1`, so a burst of identical
// reads costs the catalogue one request per second and any change shows
// within that second.
export interface CachedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  etag?: string;
  expiresAt: number;
}

const STORED_HEADERS = ['content-type', 'etag', 'cache-control', 'last-modified', 'content-language'];

/** Seconds a shared cache may keep this answer, or 0. */
export function sharedMaxAge(cacheControl: string | undefined): number {
  if (!cacheControl) return 0;
  const directives = cacheControl.toLowerCase().split(',').map((d) => d.trim());
  if (directives.some((d) => d === 'private' || d === 'no-store' || d === 'no-cache')) return 0;
  if (!directives.includes('public')) return 0;
  const sMaxAge = directives.find((d) => d.startsWith('s-maxage='));
  const seconds = sMaxAge ? Number(sMaxAge.slice('s-maxage='.length)) : 0;
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 60) : 0;
}

export class SharedCache {
  readonly #entries = new Map<string, CachedResponse>();

  constructor(private readonly maxEntries = 1000, private readonly maxBodyBytes = 512 * 1024) {}

  get(key: string, now = Date.now()): CachedResponse | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Stores the answer when its headers allow it; returns whether it did. */
  store(key: string, status: number, headers: Record<string, string | string[] | undefined>, body: Buffer, now = Date.now()): boolean {
    if (status !== 200 || body.length > this.maxBodyBytes || headers['set-cookie'] || headers.vary === '*') return false;
    const seconds = sharedMaxAge(headers['cache-control'] as string | undefined);
    if (seconds === 0) return false;
    const kept: Record<string, string> = {};
    for (const name of STORED_HEADERS) {
      const value = headers[name];
      if (typeof value === 'string') kept[name] = value;
    }
    if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { status, headers: kept, body, etag: kept.etag, expiresAt: now + seconds * 1000 });
    return true;
  }

  clear(): void {
    this.#entries.clear();
  }
}
