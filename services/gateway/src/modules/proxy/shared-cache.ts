// A small shared HTTP cache for public GET answers, driven by the upstream's
// own Cache-Control: only 200s marked `public` with `s-maxage` are kept, for
// that many seconds; requests carrying credentials are never served from or
// stored into it; `If-None-Match` is answered from the cached ETag. The
// catalogue marks its public reads `s-maxage=1`, so a burst of identical
// reads costs the catalogue one request per second; a write through the
// gateway forgets its owner's answers before it is answered, so the writer's
// next read shows it at once (DESIGN §11). Text bodies get Brotli and gzip copies, made once per
// fill off the event loop, sent to clients that accept them (the entity tag
// then weak, as a compressed copy is not byte-identical).
import { LRUCache } from 'lru-cache';
import { compressText, type ContentCoding } from '../compression';

export { negotiateCoding, type ContentCoding } from '../compression';

export interface CachedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  etag?: string;
  expiresAt: number;
  /** Brotli and gzip copies of a text body, added off the event loop once ready. */
  encoded: Partial<Record<ContentCoding, Buffer>>;
}

/** Bodies worth compressing: text of at least 1 KB the upstream did not compress itself. */
const COMPRESSIBLE_TYPE = /^(?:application\/(?:[\w.+-]*\+)?json|text\/|application\/(?:javascript|xml))/i;
const MIN_COMPRESS_BYTES = 1024;
/** If-None-Match against an entity tag, by the weak comparison (RFC 9110 §13.1.2): `W/` aside, equal. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string | undefined): boolean {
  if (!ifNoneMatch || !etag) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}

const STORED_HEADERS = ['content-type', 'etag', 'cache-control', 'last-modified', 'content-language'];

/** Seconds a shared cache may keep this answer, or 0. */
export function sharedMaxAge(cacheControl: string | undefined): number {
  if (!cacheControl) return 0;
  const directives = cacheControl
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (directives.some((d) => d === 'private' || d === 'no-store' || d === 'no-cache')) return 0;
  if (!directives.includes('public')) return 0;
  const sMaxAge = directives.find((d) => d.startsWith('s-maxage='));
  const seconds = sMaxAge ? Number(sMaxAge.slice('s-maxage='.length)) : 0;
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 60) : 0;
}

export class SharedCache {
  /** The least recently used answer leaves first when full; each also expires on its own `expiresAt`. */
  readonly #entries: LRUCache<string, CachedResponse>;
  #generation = 0;

  constructor(
    maxEntries = 1000,
    private readonly maxBodyBytes = 512 * 1024,
  ) {
    this.#entries = new LRUCache<string, CachedResponse>({ max: maxEntries });
  }

  /**
   * Moves on with every invalidation. A read takes it before asking upstream and hands it to
   * `store`: an answer that may predate a write (fetched while the write went by) is not kept.
   */
  get generation(): number {
    return this.#generation;
  }

  /** Forgets every answer whose address starts with one of `prefixes` (after a write to their owner). */
  invalidate(prefixes: readonly string[]): void {
    this.#generation += 1;
    for (const key of [...this.#entries.keys()]) {
      if (prefixes.some((prefix) => key === prefix || key.startsWith(`${prefix}/`) || key.startsWith(`${prefix}?`))) this.#entries.delete(key);
    }
  }

  get(key: string, now = Date.now()): CachedResponse | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Stores the answer when its headers allow it and no invalidation came after `generation`; returns whether it did. */
  store(
    key: string,
    status: number,
    headers: Record<string, string | string[] | undefined>,
    body: Buffer,
    now = Date.now(),
    generation = this.#generation,
  ): boolean {
    if (generation !== this.#generation) return false;
    if (status !== 200 || body.length > this.maxBodyBytes || headers['set-cookie'] || headers.vary === '*') return false;
    const seconds = sharedMaxAge(headers['cache-control'] as string | undefined);
    if (seconds === 0) return false;
    const kept: Record<string, string> = {};
    for (const name of STORED_HEADERS) {
      const value = headers[name];
      if (typeof value === 'string') kept[name] = value;
    }
    const entry: CachedResponse = { status, headers: kept, body, etag: kept.etag, expiresAt: now + seconds * 1000, encoded: {} };
    this.#entries.set(key, entry);
    if (body.length >= MIN_COMPRESS_BYTES && !headers['content-encoding'] && COMPRESSIBLE_TYPE.test(kept['content-type'] ?? '')) {
      this.pending = compress(body).then((encoded) => {
        entry.encoded = encoded;
      });
    }
    return true;
  }

  /** The compression of the last stored body (tests wait on it). */
  pending: Promise<void> = Promise.resolve();

  clear(): void {
    this.#entries.clear();
  }
}

/** Both copies; a copy that saves nothing is dropped. */
async function compress(body: Buffer): Promise<Partial<Record<ContentCoding, Buffer>>> {
  try {
    const [br, gz] = await Promise.all([compressText(body, 'br'), compressText(body, 'gzip')]);
    const encoded: Partial<Record<ContentCoding, Buffer>> = {};
    if (br.length < body.length) encoded.br = br;
    if (gz.length < body.length) encoded.gzip = gz;
    return encoded;
  } catch {
    return {};
  }
}
