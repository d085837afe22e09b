// The unit of work: a change and its events commit together, and the relay is
// woken after the commit, never before it and never for a rollback.
import { describeWithPostgres, TEST_DATABASE_URL, uniqueName } from '@persona/test-kit';
import { migrateToLatest, openDatabase, type Database } from '@persona/db';
import { sql } from 'kysely';
import { createUnitOfWork, outboxMigrations } from '../src';
import { envelope } from './helpers';

interface TestDB {
  things: { id: string };
}

describeWithPostgres()('unit of work on PostgreSQL', () => {
  const schema = uniqueName('uow');
  let database: Database<TestDB>;
  const outboxIds = async () => (await sql<{ event_id: string }>`SELECT event_id FROM outbox ORDER BY id`.execute(database.db)).rows.map((r) => r.event_id);
  const things = async () => (await database.db.selectFrom('things').select('id').orderBy('id').execute()).map((r) => r.id);

  /** A unit of work whose relay and after-commit hook record when they ran, and what was committed by then. */
  function recorded() {
    const seen: Array<{ by: string; committed: string[] }> = [];
    const uow = createUnitOfWork<TestDB>({
      db: database.db,
      relay: { nudge: () => void outboxIds().then((committed) => seen.push({ by: 'relay', committed })) },
      afterCommit: () => seen.push({ by: 'afterCommit', committed: [] }),
    });
    return { uow, seen };
  }

  beforeAll(async () => {
    database = openDatabase<TestDB>({ kind: 'postgres', url: TEST_DATABASE_URL, poolSize: 4 }, schema);
    await migrateToLatest(database, { getMigrations: async () => outboxMigrations });
    await sql`CREATE TABLE things (id text PRIMARY KEY)`.execute(database.db);
  });
  afterAll(async () => {
    await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(database.db);
    await database.close();
  });
  beforeEach(async () => {
    await sql`DELETE FROM outbox; DELETE FROM inbox; DELETE FROM things`.execute(database.db);
  });

  it('commits the change with its events, then wakes the relay once and runs the after-commit hook', async () => {
    const { uow, seen } = recorded();
    const [a, b] = [envelope('book.created'), envelope('book.updated')];
    const answer = await uow.run(async ({ trx, emit }) => {
      await trx.insertInto('things').values({ id: 'one' }).execute();
      await emit(a);
      await emit(b);
      return 'done';
    });
    expect(answer).toBe('done');
    await new Promise((r) => setTimeout(r, 50));
    expect(await things()).toEqual(['one']);
    // When the relay was woken, both events were already committed: it finds them at once.
    expect(seen).toEqual([
      { by: 'afterCommit', committed: [] },
      { by: 'relay', committed: [a.id, b.id] },
    ]);
  });

  it('rolls back the change and its events together, and wakes nothing', async () => {
    const { uow, seen } = recorded();
    await expect(
      uow.run(async ({ trx, emit }) => {
        await trx.insertInto('things').values({ id: 'two' }).execute();
        await emit(envelope('book.created'));
        throw new Error('the change is refused');
      }),
    ).rejects.toThrow('the change is refused');
    expect(await things()).toEqual([]);
    expect(await outboxIds()).toEqual([]);
    expect(seen).toEqual([]);
  });

  it('wakes nothing for a change without events', async () => {
    const { uow, seen } = recorded();
    await uow.run(({ trx }) => trx.insertInto('things').values({ id: 'three' }).execute());
    expect(await things()).toEqual(['three']);
    expect(seen).toEqual([]);
  });

  it('keeps concurrent units apart: each one commits and announces its own events', async () => {
    const { uow, seen } = recorded();
    const events = Array.from({ length: 6 }, (_, i) => envelope('book.created', { i }));
    await Promise.all(
      events.map((event, i) =>
        uow.run(async ({ trx, emit }) => {
          await trx
            .insertInto('things')
            .values({ id: `t${i}` })
            .execute();
          await new Promise((r) => setTimeout(r, (6 - i) * 5));
          await emit(event);
        }),
      ),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect((await outboxIds()).sort()).toEqual(events.map((e) => e.id).sort());
    expect(seen.filter((s) => s.by === 'relay')).toHaveLength(6);
  });

  it('handles a consumed message once: a redelivery changes nothing and emits nothing', async () => {
    const { uow, seen } = recorded();
    const message = envelope('order.paid');
    const effect = async ({ trx, emit }: { trx: typeof database.db; emit: (e: ReturnType<typeof envelope>) => Promise<void> }) => {
      await trx
        .insertInto('things')
        .values({ id: `made-for-${message.id}` })
        .execute();
      await emit(envelope('persona.ready', { for: message.id }));
    };
    expect(await uow.handleOnce('personalization', message, effect)).toBe('handled');
    expect(await uow.handleOnce('personalization', message, effect)).toBe('duplicate');
    // Another consumer of the same message keeps its own inbox row.
    expect(await uow.handleOnce('audit', message, async () => undefined)).toBe('handled');
    expect(await things()).toEqual([`made-for-${message.id}`]);
    expect(await outboxIds()).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 50));
    expect(seen.filter((s) => s.by === 'relay')).toHaveLength(1);
  });
});
