// Pooler safety (issue 25): a transaction-mode pooler (PgBouncer) hands each
// transaction whichever server connection is free, so a session setting, a
// connection's startup `search_path` included, does not follow the client.
// This dialect sets the service's search_path with `SET LOCAL` at the start of
// every transaction, and runs every statement in one: kysely's transactions
// get it on their BEGIN (same round trip), and a statement outside a
// transaction is wrapped in BEGIN … COMMIT of its own. Every query, the raw
// `sql` ones and the migrations included, so resolves names as it would with
// the session setting, behind a pooler or not.
import {
  CompiledQuery,
  PostgresDialect,
  type DatabaseConnection,
  type Driver,
  type PostgresDialectConfig,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/** Statements PostgreSQL refuses inside a transaction block: sent as they are, so they must qualify what they name. */
const OUTSIDE_TRANSACTIONS = /^\s*(vacuum|create\s+index\s+concurrently|drop\s+index\s+concurrently|reindex\s+.*\bconcurrently\b)/i;

class ScopedConnection implements DatabaseConnection {
  inTransaction = false;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly setPath: string,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction || OUTSIDE_TRANSACTIONS.test(query.sql)) return this.inner.executeQuery<R>(query);
    await this.inner.executeQuery(CompiledQuery.raw(`BEGIN; ${this.setPath}`));
    try {
      const result = await this.inner.executeQuery<R>(query);
      await this.inner.executeQuery(CompiledQuery.raw('COMMIT'));
      return result;
    } catch (err) {
      await this.inner.executeQuery(CompiledQuery.raw('ROLLBACK')).catch(() => undefined);
      throw err;
    }
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (this.inTransaction) {
      yield* this.inner.streamQuery<R>(query, chunkSize);
      return;
    }
    await this.inner.executeQuery(CompiledQuery.raw(`BEGIN; ${this.setPath}`));
    let done = false;
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize);
      done = true;
    } finally {
      await this.inner.executeQuery(CompiledQuery.raw(done ? 'COMMIT' : 'ROLLBACK')).catch(() => undefined);
    }
  }
}

class ScopedDriver implements Driver {
  readonly #setPath: string;

  constructor(
    private readonly inner: Driver,
    searchPath: string,
  ) {
    this.#setPath = `SET LOCAL search_path TO ${searchPath}`;
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new ScopedConnection(await this.inner.acquireConnection(), this.#setPath);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const scoped = connection as ScopedConnection;
    let begin = 'BEGIN';
    if (settings.isolationLevel) begin += ` ISOLATION LEVEL ${settings.isolationLevel.toUpperCase()}`;
    if (settings.accessMode) begin += ` ${settings.accessMode.toUpperCase()}`;
    // One round trip: the simple protocol (no parameters) runs both statements.
    await scoped.inner.executeQuery(CompiledQuery.raw(`${begin}; ${this.#setPath}`));
    scoped.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const scoped = connection as ScopedConnection;
    try {
      await this.inner.commitTransaction(scoped.inner);
    } finally {
      scoped.inTransaction = false;
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const scoped = connection as ScopedConnection;
    try {
      await this.inner.rollbackTransaction(scoped.inner);
    } finally {
      scoped.inTransaction = false;
    }
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint!((connection as ScopedConnection).inner, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.rollbackToSavepoint!((connection as ScopedConnection).inner, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.releaseSavepoint!((connection as ScopedConnection).inner, name, compile);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const scoped = connection as ScopedConnection;
    // A connection given back mid-transaction (a failed COMMIT) is not reused as if in one.
    scoped.inTransaction = false;
    await this.inner.releaseConnection(scoped.inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** PostgreSQL through pg, with `searchPath` (already quoted) set in every transaction rather than on the session. */
export class ScopedPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly searchPath: string,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new ScopedDriver(super.createDriver(), this.searchPath);
  }
}
