// Caches serialised public answers per catalogue version. Every request learns
// the current version from a database read that started after it arrived, so
// a write committed through any instance shows at once (read your own writes,
// DESIGN §11); requests arriving together share one such read, so a burst
// costs one tiny query, never one per request. ETags carry the version and the key.
//
// A read starts on the event loop's next turn (setImmediate), not in the call
// that asks for it: every request parsed in the same turn then shares it. On
// the embedded database a query runs on this thread and is done before the next
// request is read, so a read started at once served one request each: at
// saturation one version query per request (measured 2026-12-07: 18,975 reads
// for 18,800 requests, ~58 % of the process's CPU in PGlite).
//
// With a read replica (DATABASE_READ_URL, issue 25) the version is still read
// on the primary, together with the primary's WAL insert position the first
// time a version is seen: every write of that version (bumped in each write
// transaction) is at or before it. An answer not cached is loaded on the
// replica only once the replica has replayed that position (else, after a
// short wait, on the primary), so what is cached under a version is that
// version's catalogue, whichever instance wrote it.
import { createHash } from 'node:crypto';
import { primaryOnly, type ReadRouter } from '@persona/db';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { CatalogueDB } from '../../db';
import { readCatalogueVersion, readCatalogueVersionAndLsn } from '../catalogue-version.repository';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface CachedAnswer {
  body: string;
  etag: string;
}

export interface BookCacheOptions {
  /** Memory for cached answers, in bytes of JSON text. */
  maxBytes?: number;
  /** Where answers not cached are loaded (the replica when it is caught up); the primary without it. */
  reads?: ReadRouter<CatalogueDB>;
}

/** A catalogue version and the primary's WAL position when it was first seen (null without a replica). */
interface Seen {
  version: number;
  lsn: string | null;
}

export class BookCache {
  #version = -1;
  #versionLsn: string | null = null;
  /** The version read in flight, and the next one: asked for, not yet started, shared by whoever asks meanwhile. */
  #inflight: Promise<Seen> | null = null;
  #next: Promise<Seen> | null = null;
  readonly #entries: LRUCache<string, CachedAnswer>;
  readonly #reads: ReadRouter<CatalogueDB>;

  constructor(
    private readonly db: Kysely<CatalogueDB>,
    options: BookCacheOptions = {},
  ) {
    this.#reads = options.reads ?? primaryOnly(db);
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
  async version(): Promise<number> {
    return (await this.#seen()).version;
  }

  #seen(): Promise<Seen> {
    if (this.#next) return this.#next;
    // After the read in flight (it may have started before this call) and on the next turn.
    const previous = this.#inflight ?? Promise.resolve();
    const next = previous.then(nextTurn, nextTurn).then(() => {
      this.#next = null;
      return (this.#inflight = this.#read());
    });
    this.#next = next;
    return next;
  }

  #read(): Promise<Seen> {
    // On the primary, always: the version is what tells this instance of another's writes.
    const current = this.#reads.hasReplica ? readCatalogueVersionAndLsn(this.db) : readCatalogueVersion(this.db).then((version) => ({ version, lsn: null }));
    const read = current.then(({ version, lsn }): Seen => {
      if (version !== this.#version) {
        this.#entries.clear();
        this.#version = version;
        this.#versionLsn = lsn;
      }
      return { version, lsn: this.#versionLsn };
    });
    read.then(
      () => this.#settle(read),
      () => this.#settle(read),
    );
    return read;
  }

  #settle(read: Promise<Seen>): void {
    if (this.#inflight === read) this.#inflight = null;
  }

  /**
   * A read not cached (its answer is not kept): on the replica once it holds the current version,
   * else on the primary. For answers too cheap to cache, such as the categories.
   */
  async read<T>(load: (db: Kysely<CatalogueDB>) => Promise<T>): Promise<T> {
    const { lsn } = await this.#seen();
    return this.#reads.read(load, { atLeast: lsn });
  }

  /** The cached answer for `key`, or a fresh one from `load` (null answers are not cached), given the database to read. */
  async answer(key: string, load: (db: Kysely<CatalogueDB>) => Promise<unknown | null>): Promise<CachedAnswer | null> {
    const { version, lsn } = await this.#seen();
    const hit = this.#entries.get(key);
    if (hit) return hit;
    const data = await this.#reads.read(load, { atLeast: lsn });
    if (data === null) return null;
    const body = JSON.stringify(data);
    const tag = createHash('sha1').update(key).digest('base64url').slice(0, 12);
    const entry = { body, etag: `"v${version}-${tag}"` };
    // Kept only if no write moved the version while it loaded.
    if (version === this.#version) this.#entries.set(key, entry);
    return entry;
  }
}
