// Readers and writers (issue 25) on a real streaming replica: a pg_basebackup of the local server
// started as a hot standby for this file.
import path from 'node:path';
import { sql, type Generated, type Kysely } from 'kysely';
import { describeWithReadReplica, startReadReplica, TEST_DATABASE_URL, uniqueName, type TestReadReplica } from '@persona/test-kit';
import { folderMigrations, migrateToLatest, openDatabase, parseLsn, type Database } from '../src';

interface DB {
  counters: { name: string; value: number; ratio: Generated<number> };
}

const migrations = folderMigrations(path.join(__dirname, 'fixtures/migrations'));

/** Where a read ran, and what it saw. */
const whereAndWhat = (name: string) => async (db: Kysely<DB>) => {
  const { rows } = await sql<{ standby: boolean }>`SELECT pg_is_in_recovery() AS standby`.execute(db);
  const row = await db.selectFrom('counters').select('value').where('name', '=', name).executeTakeFirst();
  return { on: rows[0]!.standby ? 'replica' : 'primary', value: row?.value ?? null };
};

it('orders LSNs as PostgreSQL does', () => {
  expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
  expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
  expect(() => parseLsn('16B3748')).toThrow('not an LSN');
});

describeWithReadReplica()('reads routed to a real streaming replica', () => {
  let replica: TestReadReplica;
  let database: Database<DB>;
  const schema = uniqueName('replicatest');

  beforeAll(async () => {
    replica = await startReadReplica();
    database = openDatabase<DB>({ kind: 'postgres', url: TEST_DATABASE_URL, readUrl: replica.url(), reads: { waitMs: 200, pollMs: 10 } }, schema);
    await migrateToLatest(database, migrations);
    await replica.catchUp();
  }, 120_000);

  afterAll(async () => {
    await replica?.resumeReplay().catch(() => undefined);
    if (database) {
      await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(database.db);
      await database.close();
    }
    await replica?.close();
  }, 60_000);

  it('reads on the replica while no write is pending', async () => {
    expect(database.hasReplica).toBe(true);
    const before = { ...database.routed };
    expect(await database.read(whereAndWhat('nothing'))).toEqual({ on: 'replica', value: null });
    expect(database.routed.replica).toBe(before.replica + 1);
  });

  it('reads its own write at once (the replica caught up, or the primary)', async () => {
    for (let i = 1; i <= 20; i++) {
      await database.db.transaction().execute((trx) =>
        trx
          .insertInto('counters')
          .values({ name: `ryw-${i}`, value: i })
          .execute(),
      );
      await database.noteWrite();
      expect((await database.read(whereAndWhat(`ryw-${i}`))).value).toBe(i);
    }
  });

  it('with replay paused: a read after a write waits, then runs on the primary; a read needing nothing stays on the replica', async () => {
    await database.db.insertInto('counters').values({ name: 'paused', value: 1 }).execute();
    await database.noteWrite();
    await replica.catchUp();
    expect(await database.read(whereAndWhat('paused'))).toEqual({ on: 'replica', value: 1 });

    await replica.pauseReplay();
    try {
      await database.db.updateTable('counters').set({ value: 2 }).where('name', '=', 'paused').execute();
      await database.noteWrite();
      const started = Date.now();
      expect(await database.read(whereAndWhat('paused'))).toEqual({ on: 'primary', value: 2 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(150);

      // Another process, which wrote nothing, reads the replica (stale, as it is allowed to be)...
      const other = openDatabase<DB>({ kind: 'postgres', url: TEST_DATABASE_URL, readUrl: replica.url() }, schema);
      try {
        expect(await other.read(whereAndWhat('paused'))).toEqual({ on: 'replica', value: 1 });
        // ...unless it names the primary's position as of a write it must see, or asks for the latest.
        const lsn = await other.primaryLsn();
        expect(await other.read(whereAndWhat('paused'), { atLeast: lsn })).toEqual({ on: 'primary', value: 2 });
        expect(await other.readLatest(whereAndWhat('paused'))).toEqual({ on: 'primary', value: 2 });
      } finally {
        await other.close();
      }
    } finally {
      await replica.resumeReplay();
    }
  });

  it('once replay resumes within the wait, the read runs on the replica and sees the write', async () => {
    await replica.pauseReplay();
    await database.db.updateTable('counters').set({ value: 3 }).where('name', '=', 'paused').execute();
    await database.noteWrite();
    const resume = new Promise<void>((resolve) => setTimeout(() => void replica.resumeReplay().then(resolve), 60));
    const read = await database.read(whereAndWhat('paused'));
    await resume;
    expect(read).toEqual({ on: 'replica', value: 3 });
  });

  it('reads the latest on the replica once it has replayed the primary as of the call', async () => {
    await replica.catchUp();
    const other = openDatabase<DB>({ kind: 'postgres', url: TEST_DATABASE_URL, readUrl: replica.url() }, schema);
    try {
      expect(await other.readLatest(whereAndWhat('paused'))).toEqual({ on: 'replica', value: 3 });
    } finally {
      await other.close();
    }
  });

  it('sends reads to the primary while the replica cannot be reached', async () => {
    const away = openDatabase<DB>({ kind: 'postgres', url: TEST_DATABASE_URL, readUrl: 'postgres://postgres@127.0.0.1:1/test' }, schema);
    try {
      expect(await away.read(whereAndWhat('paused'))).toEqual({ on: 'primary', value: 3 });
    } finally {
      await away.close();
    }
  });

  it('lets a query error through rather than retrying it on the primary', async () => {
    const before = database.routed.primary;
    await expect(database.read((db) => sql`SELECT * FROM no_such_table`.execute(db))).rejects.toThrow(/no_such_table/);
    expect(database.routed.primary).toBe(before);
  });
});
