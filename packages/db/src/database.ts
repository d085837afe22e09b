// Opens a service's database: real PostgreSQL through pg, or the embedded
// PGlite through the locked dialect. Either way the service's queries resolve
// names in its own schema (then public): on PostgreSQL by the session's
// search_path, or, behind a transaction-mode pooler (`pooler: 'transaction'`),
// by `SET LOCAL search_path` in every transaction (scoped-dialect.ts); on
// PGlite on its one session. On PostgreSQL an
// optional read replica (`readUrl`) serves the reads routed to it (read-router.ts).
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite, type Extension } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { asUnavailable } from './errors';
import { PgliteDialect, quoteIdent, sharePglite, type SharedPglite } from './pglite-dialect';
import { createReadRouter, primaryOnly, type ReadRouter, type ReadRouterOptions } from './read-router';
import { ScopedPostgresDialect } from './scoped-dialect';
import { PG_OID, parseInt8, parseNumeric } from './type-parsers';

export type DatabaseSource =
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      applicationName?: string;
      /** A streaming read replica of the same server (DATABASE_READ_URL), for the reads routed to it. */
      readUrl?: string;
      /** How reads wait for a lagging replica (defaults: 200 ms, asked every 10 ms). */
      reads?: ReadRouterOptions;
      /**
       * `transaction`: the URLs name a transaction-mode pooler (PgBouncer), so nothing rests on a
       * session setting: the search_path is set with SET LOCAL in every transaction, and a statement
       * outside one gets a transaction of its own (two more round trips). Default: a direct
       * connection (or a session-mode pooler), the search_path set once as the session starts.
       */
      pooler?: 'none' | 'transaction';
    }
  | { kind: 'pglite'; shared: SharedPglite };

/** The database of a service: `db` is the primary (every write, and every read not routed), `read` may use the replica. */
export interface Database<DB> extends ReadRouter<DB> {
  readonly db: Kysely<DB>;
  readonly schema: string;
  readonly kind: DatabaseSource['kind'];
  /** Creates the schema if needed (idempotent). */
  ensureSchema(): Promise<void>;
  /** A cheap round trip, for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name "${schema}"`);
}

const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === PG_OID.INT8) return parseInt8;
    if (oid === PG_OID.NUMERIC) return parseNumeric;
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/**
 * A pg client that survives its server going away. pg emits 'error' on a
 * client whose connection breaks, and the pool listens only while the client
 * is idle: a client checked out at that moment (mid-query or mid-transaction)
 * would crash the process with an unhandled 'error'. Here the query in flight
 * fails instead (the pool drops the broken client when it is released), and
 * connection failures surface as DatabaseUnavailableError (a 503).
 */
class OutageSafeClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', () => undefined);
    // In place of pg's query (overloaded: no one signature covers its forms), with the same arguments.
    const query = super.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) => {
      const result = query(...args);
      // Promise form only (kysely's); callback and cursor forms are returned untouched.
      return result instanceof Promise ? result.catch((err: unknown) => Promise.reject(asUnavailable(err))) : result;
    }) as unknown as pg.Client['query'];
  }
}

/** A pool of `url`; with `searchPath`, each session starts with it (not through a transaction-mode pooler). */
function openPool(url: string, poolSize: number, applicationName: string, searchPath?: string): pg.Pool {
  const pool = new pg.Pool({
    Client: OutageSafeClient,
    connectionString: url,
    max: poolSize,
    application_name: applicationName,
    ...(searchPath ? { options: `-c search_path=${searchPath}` } : {}),
    types: pgTypes as pg.CustomTypesConfig,
    // Waiting for a connection (a new one, or a free one from a busy pool) ends
    // after this, so no request hangs on a database that does not answer.
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30000,
    // Finds a server that vanished without closing the connection.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle client losing its server must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * kysely on a pool of `url`: through a transaction-mode pooler every transaction (every statement)
 * sets the service's search_path; else each session does, once, as it starts (one round trip a
 * statement: the scoped way costs about 2.7 times as much per statement outside a transaction).
 */
function serviceKysely<DB>(url: string, poolSize: number, applicationName: string, schema: string, pooler: 'none' | 'transaction'): Kysely<DB> {
  const searchPath = `${quoteIdent(schema)}, public`;
  const pool = openPool(url, poolSize, applicationName, pooler === 'transaction' ? undefined : `${schema},public`);
  const config = {
    pool: {
      connect: () => pool.connect().catch((err: unknown) => Promise.reject(asUnavailable(err))),
      end: () => pool.end(),
    },
  };
  return new Kysely<DB>({ dialect: pooler === 'transaction' ? new ScopedPostgresDialect(config, searchPath) : new PostgresDialect(config) });
}

export function openDatabase<DB>(source: DatabaseSource, schema: string): Database<DB> {
  assertSchemaName(schema);
  const searchPath = `${quoteIdent(schema)}, public`;
  if (source.kind === 'postgres') {
    const name = source.applicationName ?? schema;
    const pooler = source.pooler ?? 'none';
    const db = serviceKysely<DB>(source.url, source.poolSize ?? 10, name, schema, pooler);
    const replica = source.readUrl ? serviceKysely<DB>(source.readUrl, source.poolSize ?? 10, `${name}:read`, schema, pooler) : null;
    return wrap(db, schema, 'postgres', createReadRouter(db, replica, source.reads), async () => {
      await Promise.all([db.destroy(), replica?.destroy()]);
    });
  }
  const db = new Kysely<DB>({ dialect: new PgliteDialect(source.shared, searchPath) });
  return wrap(db, schema, 'pglite', primaryOnly(db), async () => {
    await db.destroy();
  });
}

function wrap<DB>(db: Kysely<DB>, schema: string, kind: DatabaseSource['kind'], reads: ReadRouter<DB>, close: () => Promise<void>): Database<DB> {
  return {
    db,
    schema,
    kind,
    hasReplica: reads.hasReplica,
    routed: reads.routed,
    read: (read, options) => reads.read(read, options),
    readLatest: (read) => reads.readLatest(read),
    primaryLsn: () => reads.primaryLsn(),
    noteWrite: () => reads.noteWrite(),
    async ensureSchema() {
      await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(db);
    },
    async ping() {
      await sql`SELECT 1`.execute(db);
    },
    close,
  };
}

/** Search (trigram indexes and accent folding) runs the same SQL on PGlite as on PostgreSQL. */
// The contrib entries ship CommonJS builds, but their type declarations are ESM-only.
/* eslint-disable @typescript-eslint/no-require-imports */
const PGLITE_EXTENSIONS: Record<string, Extension> = {
  pg_trgm: (require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension }).pg_trgm,
  unaccent: (require('@electric-sql/pglite/contrib/unaccent') as { unaccent: Extension }).unaccent,
};
/* eslint-enable @typescript-eslint/no-require-imports */

export interface PgliteOptions {
  /**
   * A gzipped tarball of an empty, initialised data directory (see
   * `dumpPgliteTemplate`). A new database is unpacked from it instead of
   * running initdb, which takes seconds.
   */
  template?: string;
  /**
   * PostgreSQL's shared_buffers, a size such as `16MB` (PGLITE_SHARED_BUFFERS for the embedded
   * shop). Default: 16 MB in memory (below), PostgreSQL's 128 MB for a data directory.
   */
  sharedBuffers?: string;
}

/** Whether `value` is a memory size PostgreSQL reads in a setting (`16MB`, `512kB`, `1GB`). */
export const isPostgresSize = (value: string): boolean => /^\d+(kB|MB|GB)$/.test(value);

/**
 * Opens (or creates) the embedded database under `dataDir`, or in memory when
 * `dataDir` is omitted (tests).
 */
export async function openPglite(dataDir?: string, options: PgliteOptions = {}): Promise<SharedPglite & { close(): Promise<void> }> {
  const sharedBuffers = options.sharedBuffers ?? (dataDir === undefined ? MEMORY_SHARED_BUFFERS : undefined);
  if (sharedBuffers !== undefined && !isPostgresSize(sharedBuffers)) {
    throw new Error(`shared buffers of "${sharedBuffers}" are not a size PostgreSQL reads: give a whole number with kB, MB or GB (16MB)`);
  }
  const fresh = dataDir === undefined || !existsSync(path.join(dataDir, 'PG_VERSION'));
  const templateFile = options.template ?? (dataDir === undefined ? await memoryTemplate() : undefined);
  const template = fresh && templateFile && existsSync(templateFile) ? new Blob([readFileSync(templateFile)]) : undefined;
  const pglite = await PGlite.create(dataDir ?? 'memory://', {
    // The contrib extensions the services' search uses, as on PostgreSQL (each service's migration creates them).
    extensions: PGLITE_EXTENSIONS,
    parsers: { [PG_OID.INT8]: parseInt8, [PG_OID.NUMERIC]: parseNumeric },
    ...(template ? { loadDataDir: template } : {}),
    ...(sharedBuffers ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`] } : {}),
  });
  const shared = sharePglite(pglite);
  return Object.assign(shared, {
    async close() {
      const release = await shared.lock.acquire();
      try {
        if (!pglite.closed) await pglite.close();
      } finally {
        release();
      }
    },
  });
}

/**
 * An in-memory database (the tests') starts with a 16 MB buffer pool, not PostgreSQL's 128 MB: its
 * "disk" is memory already, so a page outside the pool costs a copy, and zeroing 128 MB was half of
 * every start. Measured 2026-12-07 on two cores, a start from the template took 1.1–1.3 s, with the
 * smaller pool 0.6–0.7 s, and with the template's smaller WAL (below) too 0.5 s; every test file
 * that uses a database opens one.
 */
const MEMORY_SHARED_BUFFERS = '16MB';

/**
 * The template an in-memory database starts from when none is given (the tests' databases): made
 * once per machine and PGlite version in the OS temp dir, since initdb takes seconds and unpacking
 * a fraction of that. Its WAL is in 1 MB segments (initdb's --wal-segsize), not one of 16 MB: a
 * smaller copy at every start. Written under a private name and renamed into place, so two
 * processes making it at once each leave a whole file.
 */
async function memoryTemplate(): Promise<string> {
  const entry = require.resolve('@electric-sql/pglite');
  const version = (JSON.parse(readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version;
  const file = path.join(os.tmpdir(), `persona-pglite-${version}-wal1.tar.gz`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}.${randomUUID()}`;
    await dumpPgliteTemplate(partial, { walSegmentMb: 1 });
    renameSync(partial, file);
  }
  return file;
}

/**
 * Writes the template `openPglite` can start a new database from; `walSegmentMb` sets initdb's WAL
 * segment size (PostgreSQL's 16 MB when omitted, as the shop's own database keeps).
 */
export async function dumpPgliteTemplate(file: string, { walSegmentMb }: { walSegmentMb?: number } = {}): Promise<void> {
  const pglite = await PGlite.create(walSegmentMb ? { initDbStartParams: [`--wal-segsize=${walSegmentMb}`] } : {});
  try {
    const blob = await pglite.dumpDataDir('gzip');
    writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
  } finally {
    await pglite.close();
  }
}
