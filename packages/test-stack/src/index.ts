// What a service's tests start it on, written once: the service's database (a fresh schema of its
// own, on the real PostgreSQL or on the test file's one in-memory PGlite), the in-process bus on the
// same database (a schema of its own too), a silent logger, and one close that drops all of it.
import { createInProcessBus, type EventBus } from '@persona/bus';
import { openDatabase, openPglite, sql, type Database } from '@persona/db';
import { createLogger, type Logger } from '@persona/service-kit';
import { TEST_DATABASE_URL, uniqueName } from '@persona/test-kit';

export interface TestStack<DB> {
  database: Database<DB>;
  bus: EventBus;
  logger: Logger;
  /** The schema of the in-process bus's tables (bus_messages, …): a name of its own per stack. */
  busSchema: string;
  /** Closes the bus, drops both schemas and closes the database connections. */
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
    busSchema: stack.busSchema,
    async close() {
      await bus.close();
      await stack.dispose();
    },
  };
}

/** A fresh schema of the service's own and one for the bus on the test PostgreSQL. */
function onPostgres<DB>(schema: string) {
  return ownSchemas<DB>(schema, (name) => openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL }, name));
}

/**
 * The same on the test file's one in-memory PGlite. Starting a PGlite takes about a second of CPU
 * (its WebAssembly, the data directory unpacked, the server started) against milliseconds for a
 * schema: a PGlite per stack cost orders' mail-relay suite 20.5 s of CPU against 13.0 s with one
 * per file. Each stack still gets schemas no other stack sees (as on PostgreSQL); the PGlite
 * closes after the file's last test (jest's afterAll).
 */
async function onPglite<DB>(schema: string) {
  const shared = await fileWidePglite();
  return ownSchemas<DB>(schema, (name) => openDatabase({ kind: 'pglite', shared }, name));
}

/** A schema of the service's and one of the bus's, under names no other stack has; dropped at the end. */
function ownSchemas<DB>(schema: string, open: <T>(name: string) => Database<T>) {
  const own = uniqueName(`${schema}_test`);
  const busSchema = uniqueName('bus_test');
  const database = open<DB>(own);
  const busDatabase = open<unknown>(busSchema);
  return {
    database,
    busDatabase,
    busSchema,
    async dispose() {
      await dropSchemas(busDatabase, own, busSchema);
      await busDatabase.close();
      await database.close();
    },
  };
}

async function dropSchemas(database: Database<unknown>, ...schemas: string[]): Promise<void> {
  for (const name of schemas) await sql`DROP SCHEMA IF EXISTS ${sql.id(name)} CASCADE`.execute(database.db);
}

type FilePglite = Awaited<ReturnType<typeof openPglite>>;
let filePglite: Promise<FilePglite> | undefined;

/** The PGlite this test file's stacks share, started at the first one (jest gives each file its own module registry). */
function fileWidePglite(): Promise<FilePglite> {
  if (!filePglite) {
    const opening = openPglite();
    // A failed start is not kept: the next stack tries again.
    opening.catch(() => {
      if (filePglite === opening) filePglite = undefined;
    });
    filePglite = opening;
  }
  return filePglite;
}

// Registered as this module loads, which is while jest collects the file's tests (hooks cannot be
// added from inside a test). Outside jest there is no afterAll and nothing to register.
if (typeof afterAll === 'function') {
  afterAll(async () => {
    const opening = filePglite;
    filePglite = undefined;
    if (opening) await (await opening.catch(() => undefined))?.close();
  });
}
