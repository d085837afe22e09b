// What a service's tests start it on, written once: the service's database (PGlite in memory, or a
// fresh schema of its own on the real PostgreSQL), the in-process bus on the same database (its own
// schema), a silent logger, and one close that drops or closes all of it.
import { createInProcessBus, type EventBus } from '@persona/bus';
import { openDatabase, openPglite, sql, type Database } from '@persona/db';
import { createLogger, type Logger } from '@persona/service-kit';
import { TEST_DATABASE_URL, uniqueName } from '@persona/test-kit';

export interface TestStack<DB> {
  database: Database<DB>;
  bus: EventBus;
  logger: Logger;
  /** Closes the bus and the database; on PostgreSQL drops both schemas first. */
  close(): Promise<void>;
}

export async function openTestStack<DB>(kind: 'pglite' | 'postgres', schema: string): Promise<TestStack<DB>> {
  const logger = createLogger(`${schema}-test`, 'silent');
  const stack = kind === 'postgres' ? onPostgres<DB>(schema) : await onPglite<DB>(schema);
  const bus = createInProcessBus({ database: stack.busDatabase, logger, pollIntervalMs: 50 });
  return {
    database: stack.database,
    bus,
    logger,
    async close() {
      await bus.close();
      await stack.dispose();
    },
  };
}

/** A fresh schema of the service's own and one for the bus on the test PostgreSQL, dropped at the end. */
function onPostgres<DB>(schema: string) {
  const own = uniqueName(`${schema}_test`);
  const busSchema = uniqueName('bus_test');
  const database = openDatabase<DB>({ kind: 'postgres', url: TEST_DATABASE_URL }, own);
  const busDatabase = openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL }, busSchema);
  return {
    database,
    busDatabase,
    async dispose() {
      await sql`DROP SCHEMA IF EXISTS ${sql.id(own)} CASCADE`.execute(database.db);
      await sql`DROP SCHEMA IF EXISTS ${sql.id(busSchema)} CASCADE`.execute(database.db);
      await busDatabase.close();
      await database.close();
    },
  };
}

/** An in-memory PGlite with the service's schema and the bus's. */
async function onPglite<DB>(schema: string) {
  const shared = await openPglite();
  return {
    database: openDatabase<DB>({ kind: 'pglite', shared }, schema),
    busDatabase: openDatabase({ kind: 'pglite', shared }, 'bus'),
    dispose: () => shared.close(),
  };
}
