// A kysely dialect for embedded PGlite: kysely's own Postgres adapter,
// compiler and introspector, and a driver that serialises connections through
// one lock. Several services share one PGlite; each gets its own schema by
// setting search_path whenever it takes the connection.
import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { Mutex } from './mutex';

/** One PGlite instance and the lock and session state every dialect on it shares. */
export interface SharedPglite {
  readonly pglite: PGlite;
  readonly lock: Mutex;
  /** The search_path currently set on the session, to skip redundant SETs. */
  searchPath: string | null;
}

export function sharePglite(pglite: PGlite): SharedPglite {
  return { pglite, lock: new Mutex(), searchPath: null };
}

class PgliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(compiled.sql, [...compiled.parameters]);
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined && /^\s*(insert|update|delete|merge)/i.test(compiled.sql) ? { numAffectedRows: BigInt(affected) } : {}),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on the embedded database');
  }
}

class PgliteDriver implements Driver {
  readonly #release = new WeakMap<DatabaseConnection, () => void>();
  readonly #connection: PgliteConnection;

  constructor(
    private readonly shared: SharedPglite,
    private readonly searchPath: string,
  ) {
    this.#connection = new PgliteConnection(shared.pglite);
  }

  async init(): Promise<void> {
    await this.shared.pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.shared.lock.acquire();
    try {
      if (this.shared.searchPath !== this.searchPath) {
        await this.shared.pglite.exec(`SET search_path TO ${this.searchPath}`);
        this.shared.searchPath = this.searchPath;
      }
    } catch (err) {
      release();
      throw err;
    }
    // kysely acquires one connection per query or per transaction, and this
    // driver hands out the same object each time; the lock makes that safe.
    this.#release.set(this.#connection, release);
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    // PGlite is a single session: every transaction is already serialisable in effect.
    const mode = settings.accessMode ? ` ${settings.accessMode.toUpperCase()}` : '';
    await connection.executeQuery(CompiledQuery.raw(`BEGIN${mode}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`SAVEPOINT ${quoteIdent(name)}`));
    void compile;
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`ROLLBACK TO SAVEPOINT ${quoteIdent(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`RELEASE SAVEPOINT ${quoteIdent(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const release = this.#release.get(connection);
    this.#release.delete(connection);
    release?.();
  }

  async destroy(): Promise<void> {
    // The PGlite instance is shared; its owner closes it.
  }
}

export class PgliteDialect implements Dialect {
  constructor(
    private readonly shared: SharedPglite,
    private readonly searchPath: string,
  ) {}

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PgliteDriver(this.shared, this.searchPath);
  }
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
