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
//
// An entry is the whole answer to a GET, or nothing: `store` refuses a body shorter or longer
// than its content-length, JSON that does not parse, and a body in a content coding (the gateway
// codes its own copies). It is chosen by its address and by the request headers the answer's
// Vary names (RFC 9111 §4.1), so every reader of it (the proxy, a HEAD, the pages) gets what the
// upstream would have answered that request.
import { LRUCache } from 'lru-cache';
import { compressText, type ContentCoding } from '../compression';

export { negotiateCoding, type ContentCoding } from '../compression';

/** A request's headers, as Node (and Fastify) hold them: names in lower case. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;
/** An answer's headers, as undici and fetch hand them over: names in lower case. */
export type AnswerHeaders = Readonly<Record<string, string | string[] | undefined>>;

const NO_HEADERS: RequestHeaders = {};
const NO_NAMES: readonly string[] = [];

export interface CachedResponse {
  status: number;
  /** The upstream's headers worth repeating, and `vary` as every hit is sent (Accept-Encoding and the upstream's names). */
  headers: Record<string, string>;
  body: Buffer;
  etag?: string;
  expiresAt: number;
  /** Brotli and gzip copies of a text body, added off the event loop once ready. */
  encoded: Partial<Record<ContentCoding, Buffer>>;
  /** The request headers the answer's Vary names (lower case, bar Accept-Encoding, which the gateway negotiates itself)... */
  vary: readonly string[];
  /** ...and their values in the request it answered: only a request with the same values is served it. */
  varied: ReadonlyArray<string | undefined>;
}

export interface StoreOptions {
  now?: number;
  /** The cache's `generation` when the answer was asked for: an invalidation since then refuses it. */
  generation?: number;
  /** The headers of the request the answer was made for (what its Vary names are read from). */
  request?: RequestHeaders;
}

/** Bodies worth compressing: text of at least 1 KB (an answer the upstream compressed is never stored). */
const COMPRESSIBLE_TYPE = /^(?:application\/(?:[\w.+-]*\+)?json|text\/|application\/(?:javascript|xml))/i;
const MIN_COMPRESS_BYTES = 1024;
/** JSON and its `+json` kinds, whose bodies must parse to be stored. */
const JSON_TYPE = /^\s*application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** If-None-Match against an entity tag, by the weak comparison (RFC 9110 §13.1.2): `W/` aside, equal. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string | undefined): boolean {
  if (!ifNoneMatch || !etag) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}

const STORED_HEADERS = ['content-type', 'etag', 'cache-control', 'last-modified', 'content-language'];

/** One header's value: repeated lines (undici hands them over as a list) joined as HTTP joins them. */
function headerValue(headers: RequestHeaders | AnswerHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : value === undefined ? undefined : value.join(', ');
}

/** Seconds a shared cache may keep this answer, or 0. */
export function sharedMaxAge(cacheControl: string | readonly string[] | undefined): number {
  if (!cacheControl) return 0;
  const directives = (typeof cacheControl === 'string' ? cacheControl : cacheControl.join(','))
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (directives.some((d) => d === 'private' || d === 'no-store' || d === 'no-cache')) return 0;
  if (!directives.includes('public')) return 0;
  const sMaxAge = directives.find((d) => d.startsWith('s-maxage='));
  const seconds = sMaxAge ? Number(sMaxAge.slice('s-maxage='.length)) : 0;
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 60) : 0;
}

/**
 * The request headers an answer's Vary names, lower case and without Accept-Encoding (every entry
 * is the identity body, and the gateway sends it in the coding each client takes); null for
 * `Vary: *`, which no stored answer can satisfy.
 */
export function varyNames(vary: string | readonly string[] | undefined): readonly string[] | null {
  if (vary === undefined) return NO_NAMES;
  const names: string[] = [];
  for (const part of (typeof vary === 'string' ? vary : vary.join(',')).split(',')) {
    const name = part.trim().toLowerCase();
    if (name === '*') return null;
    if (name && name !== 'accept-encoding' && !names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * Whether `body` is the whole answer its headers describe: no content coding, as long as its
 * content-length says, and, for JSON, JSON that parses. (That its stream ended normally is the
 * reader's to know: it hands over no body otherwise.)
 */
export function isCompleteAnswer(headers: AnswerHeaders, body: Buffer): boolean {
  const coding = headerValue(headers, 'content-encoding');
  if (coding !== undefined && coding.trim().toLowerCase() !== 'identity') return false;
  const length = headerValue(headers, 'content-length');
  if (length !== undefined && (!/^\s*\d+\s*$/.test(length) || Number(length) !== body.length)) return false;
  if (JSON_TYPE.test(headerValue(headers, 'content-type') ?? '')) {
    try {
      JSON.parse(body.toString('utf8'));
    } catch {
      return false;
    }
  }
  return true;
}

export class SharedCache {
  /** The least recently used answer leaves first when full; each also expires on its own `expiresAt`. */
  readonly #entries: LRUCache<string, CachedResponse>;
  #generation = 0;

  constructor(
    maxEntries = 1000,
    /** The largest body it keeps. */
    readonly maxBodyBytes = 512 * 1024,
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

  /**
   * The answer stored for `key`, when it has not expired and `request` has the values of the
   * headers it varies by that the request which filled it had (none, for most: then nothing is compared).
   */
  get(key: string, request: RequestHeaders = NO_HEADERS, now = Date.now()): CachedResponse | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    for (let i = 0; i < entry.vary.length; i += 1) {
      if (headerValue(request, entry.vary[i]!) !== entry.varied[i]) return undefined;
    }
    return entry;
  }

  /**
   * Stores the answer to a GET when its headers allow it, it is complete (`isCompleteAnswer`) and
   * no invalidation came after `generation`; returns whether it did. One answer per address: a
   * request that varies otherwise replaces it.
   */
  store(key: string, status: number, headers: AnswerHeaders, body: Buffer, options: StoreOptions = {}): boolean {
    const { now = Date.now(), generation = this.#generation, request = NO_HEADERS } = options;
    if (generation !== this.#generation) return false;
    if (status !== 200 || body.length > this.maxBodyBytes || headers['set-cookie']) return false;
    const seconds = sharedMaxAge(headers['cache-control']);
    if (seconds === 0) return false;
    const vary = varyNames(headers.vary);
    if (!vary || !isCompleteAnswer(headers, body)) return false;
    const kept: Record<string, string> = {};
    for (const name of STORED_HEADERS) {
      const value = headerValue(headers, name);
      if (value !== undefined) kept[name] = value;
    }
    kept.vary = ['Accept-Encoding', ...vary].join(', ');
    const entry: CachedResponse = {
      status,
      headers: kept,
      body,
      etag: kept.etag,
      expiresAt: now + seconds * 1000,
      encoded: {},
      vary,
      varied: vary.map((name) => headerValue(request, name)),
    };
    this.#entries.set(key, entry);
    if (body.length >= MIN_COMPRESS_BYTES && COMPRESSIBLE_TYPE.test(kept['content-type'] ?? '')) {
      this.pending = compress(body).then((encoded) => {
        entry.encoded = encoded;
      });
    }
    return true;
  }

  /** The compression of the last stored body (tests wait on it). */
  pending: Promise<void> = Promise.resolve();

  /** Forgets every answer, and refuses answers asked for before (another gateway's writes may have been missed). */
  clear(): void {
    this.#generation += 1;
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
