import net from 'node:net';
import path from 'node:path';
import { sql, type Generated, type Kysely } from 'kysely';
import { describeWithPgBouncer, describeWithPostgres, startPgBouncer, TEST_DATABASE_URL, uniqueName, type TestPgBouncer } from '@persona/test-kit';
import { DatabaseUnavailableError, dumpPgliteTemplate, folderMigrations, migrateToLatest, openDatabase, openPglite, type Database } from '../src';

interface DB {
  counters: { name: string; value: number; ratio: Generated<number> };
}

const migrations = folderMigrations(path.join(__dirname, 'fixtures/migrations'));

/** The same contract, run on PGlite and on the real PostgreSQL. */
function contract(open: (schema: string) => Promise<{ database: Database<DB>; dispose(): Promise<void> }>) {
  let database: Database<DB>;
  let dispose: () => Promise<void>;
  const schema = uniqueName('dbtest');

  beforeAll(async () => {
    ({ database, dispose } = await open(schema));
    expect(await migrateToLatest(database, migrations)).toEqual(['20260101000000_counters']);
  });
  afterAll(async () => {
    await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(database.db);
    await dispose();
  });

  it('migrates into the service schema and is idempotent', async () => {
    expect(await migrateToLatest(database, migrations)).toEqual([]);
    const { rows } = await sql<{ table_schema: string }>`
      select table_schema from information_schema.tables where table_name = 'counters' and table_schema = ${schema}`.execute(database.db);
    expect(rows).toHaveLength(1);
  });

  it("applies a shared migration added later that sorts before the service's applied ones", async () => {
    const later = {
      async getMigrations() {
        return {
          '00000000000009_shared_added_later': { up: async (db: Kysely<unknown>) => void (await sql`CREATE TABLE shared_later (id int)`.execute(db)) },
          ...(await migrations.getMigrations()),
        };
      },
    };
    expect(await migrateToLatest(database, later)).toEqual(['00000000000009_shared_added_later']);
    expect(await migrateToLatest(database, later)).toEqual([]);
  });

  it('parses int8 and numeric as numbers', async () => {
    await database.db.insertInto('counters').values({ name: 'types', value: 42, ratio: 3.25 }).execute();
    const row = await database.db.selectFrom('counters').selectAll().where('name', '=', 'types').executeTakeFirstOrThrow();
    expect(row.value).toBe(42);
    expect(row.ratio).toBe(3.25);
    const { count } = await database.db
      .selectFrom('counters')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(typeof count).toBe('number');
  });

  it('loses no update under concurrent read-modify-write transactions', async () => {
    await database.db.insertInto('counters').values({ name: 'race', value: 0 }).execute();
    await Promise.all(
      Array.from({ length: 40 }, () =>
        database.db.transaction().execute(async (trx) => {
          const row = await trx.selectFrom('counters').select('value').where('name', '=', 'race').forUpdate().executeTakeFirstOrThrow();
          await new Promise((r) => setImmediate(r));
          await trx
            .updateTable('counters')
            .set({ value: row.value + 1 })
            .where('name', '=', 'race')
            .execute();
        }),
      ),
    );
    const row = await database.db.selectFrom('counters').select('value').where('name', '=', 'race').executeTakeFirstOrThrow();
    expect(row.value).toBe(40);
  });

  it('keeps nothing from a rolled-back transaction', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await trx.insertInto('counters').values({ name: 'ghost', value: 1 }).execute();
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const row = await database.db.selectFrom('counters').select('name').where('name', '=', 'ghost').executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('has the search extensions: trigram indexes and accent folding', async () => {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`.execute(database.db);
    await sql`CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public`.execute(database.db);
    const { rows } = await sql<{ folded: string; similar: boolean }>`
      SELECT lower(public.unaccent('Zoë Crème')) AS folded, 'the tiffin carrier' LIKE '%tiffin%' AND similarity('tiffin', 'tifin') > 0.3 AS similar`.execute(
      database.db,
    );
    expect(rows[0]).toEqual({ folded: 'zoe creme', similar: true });
  });

  it('reports affected rows', async () => {
    const res = await database.db.updateTable('counters').set({ ratio: 1 }).where('name', 'in', ['types', 'race']).executeTakeFirst();
    expect(Number(res.numUpdatedRows)).toBe(2);
  });
}

describe('embedded PGlite', () => {
  let shared: Awaited<ReturnType<typeof openPglite>>;
  beforeAll(async () => {
    shared = await openPglite();
  });
  contract(async (schema) => ({ database: openDatabase<DB>({ kind: 'pglite', shared }, schema), dispose: async () => undefined }));
  // Registered after the contract's hooks so the shared instance closes last.
  afterAll(async () => shared.close());

  it('gives each service sharing the instance its own schema', async () => {
    const a = openDatabase<DB>({ kind: 'pglite', shared }, uniqueName('svc_a'));
    const b = openDatabase<DB>({ kind: 'pglite', shared }, uniqueName('svc_b'));
    await migrateToLatest(a, migrations);
    await migrateToLatest(b, migrations);
    await a.db.insertInto('counters').values({ name: 'only-in-a', value: 1 }).execute();
    await Promise.all([a.db.selectFrom('counters').selectAll().execute(), b.db.selectFrom('counters').selectAll().execute()]).then(([rowsA, rowsB]) => {
      expect(rowsA.map((r) => r.name)).toEqual(['only-in-a']);
      expect(rowsB).toEqual([]);
    });
  });
});

describeWithPostgres()('real PostgreSQL', () => {
  contract(async (schema) => {
    const database = openDatabase<DB>({ kind: 'postgres', url: TEST_DATABASE_URL }, schema);
    return { database, dispose: () => database.close() };
  });

  it('migrates its own schema while other schemas of the database are made and dropped all the while', async () => {
    // As the test suites do, many processes at once on one PostgreSQL: kysely's own introspector read
    // every schema's tables by name, and failed ("schema … does not exist") when one was dropped meanwhile.
    const churn = openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL }, 'public');
    let stop = false;
    let churned = 0;
    const churning = (async () => {
      while (!stop) {
        const other = uniqueName('churn');
        await sql`CREATE SCHEMA ${sql.id(other)}`.execute(churn.db);
        await sql`CREATE TABLE ${sql.id(other, 'rows')} (id serial PRIMARY KEY, name text)`.execute(churn.db);
        await sql`DROP SCHEMA ${sql.id(other)} CASCADE`.execute(churn.db);
        churned += 1;
      }
    })();
    const schemas = Array.from({ length: 6 }, () => uniqueName('migrating'));
    try {
      for (const schema of schemas) {
        const database = openDatabase<DB>({ kind: 'postgres', url: TEST_DATABASE_URL }, schema);
        try {
          expect(await migrateToLatest(database, migrations)).toEqual(['20260101000000_counters']);
          expect(await migrateToLatest(database, migrations)).toEqual([]);
        } finally {
          await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(database.db);
          await database.close();
        }
      }
    } finally {
      stop = true;
      await churning;
      await churn.close();
    }
    expect(churned).toBeGreaterThan(0);
  });

  describe('when the server goes away', () => {
    it('fails a query with DatabaseUnavailableError (503) when no connection can be made', async () => {
      const url = new URL(TEST_DATABASE_URL);
      url.port = String(await closedPort());
      const database = openDatabase({ kind: 'postgres', url: url.toString() }, 'nowhere');
      const failure = await database.ping().catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(DatabaseUnavailableError);
      expect(failure).toMatchObject({ statusCode: 503, code: 'DATABASE_UNAVAILABLE' });
      await database.close();
    });

    it('survives losing the connection in the middle of a transaction, and goes on with a new one', async () => {
      const database = openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL }, 'public');
      // The server ends this very session, as a restart or a network cut would, while a transaction holds it.
      const failure = await database.db
        .transaction()
        .execute(async (trx) => {
          await sql`SELECT 1`.execute(trx);
          await sql`SELECT pg_terminate_backend(pg_backend_pid())`.execute(trx);
        })
        .catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(DatabaseUnavailableError);
      await new Promise((r) => setTimeout(r, 50)); // a late 'error' event on the dead client would crash the process here
      await database.ping();
      await database.close();
    });
  });
});

// Pooler safety (issue 25): PgBouncer in transaction mode gives each transaction whichever server
// connection is free, so nothing may rest on a session setting. Two pooled connections serve two
// services' schemas at once here; a search_path left on a session would send one's rows to the other.
describeWithPgBouncer()('through PgBouncer in transaction mode', () => {
  let bouncer: TestPgBouncer;
  beforeAll(async () => {
    bouncer = await startPgBouncer(2);
  });

  contract(async (schema) => {
    const database = openDatabase<DB>({ kind: 'postgres', url: bouncer.url(), pooler: 'transaction' }, schema);
    return { database, dispose: () => database.close() };
  });
  // After the contract's own clean-up (afterAll hooks run in the order they are declared), which goes through it.
  afterAll(async () => bouncer?.close());

  it('keeps two schemas apart while they share the server connections', async () => {
    const [a, b] = [uniqueName('pool_a'), uniqueName('pool_b')].map((schema) =>
      openDatabase<DB>({ kind: 'postgres', url: bouncer.url(), pooler: 'transaction', poolSize: 4 }, schema),
    );
    try {
      await migrateToLatest(a!, migrations);
      await migrateToLatest(b!, migrations);
      await Promise.all(
        Array.from({ length: 30 }, (_, i) => {
          const database = i % 2 === 0 ? a! : b!;
          return i % 3 === 0
            ? database.db
                .insertInto('counters')
                .values({ name: `${database.schema}-${i}`, value: i })
                .execute()
            : database.db.transaction().execute(async (trx) => {
                await sql`INSERT INTO counters (name, value) VALUES (${`${database.schema}-${i}`}, ${i})`.execute(trx);
              });
        }),
      );
      for (const database of [a!, b!]) {
        const names = (await database.db.selectFrom('counters').select('name').execute()).map((r) => r.name);
        expect(names).toHaveLength(15);
        expect(names.every((name) => name.startsWith(`${database.schema}-`))).toBe(true);
        // Raw SQL names its tables unqualified, as the services' repositories do.
        const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM counters`.execute(database.db);
        expect(rows[0]!.n).toBe(15);
      }
      // The server sessions' own search_path is not the services' (so the above did not rest on it).
      const { rows } = await sql<{ path: string }>`SELECT current_setting('search_path') AS path`.execute(a!.db);
      expect(rows[0]!.path).toContain(a!.schema);
    } finally {
      for (const database of [a!, b!]) {
        await sql`DROP SCHEMA IF EXISTS ${sql.id(database.schema)} CASCADE`.execute(database.db);
        await database.close();
      }
    }
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('a new embedded database from a template', () => {
  it('starts from the template and keeps its data on reopen', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const os = await import('node:os');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pglite-template-'));
    const template = path.join(dir, 'template.tar.gz');
    await dumpPgliteTemplate(template);
    const first = await openPglite(path.join(dir, 'db'), { template });
    const database = openDatabase<DB>({ kind: 'pglite', shared: first }, 'tpl');
    await migrateToLatest(database, migrations);
    await database.db.insertInto('counters').values({ name: 'kept', value: 7 }).execute();
    await first.close();
    const again = await openPglite(path.join(dir, 'db'), { template });
    const reopened = openDatabase<DB>({ kind: 'pglite', shared: again }, 'tpl');
    expect((await reopened.db.selectFrom('counters').select('value').executeTakeFirstOrThrow()).value).toBe(7);
    await again.close();
    await rm(dir, { recursive: true, force: true });
  }, 60_000);
});
