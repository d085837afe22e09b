import type { EventEnvelope } from '@persona/contracts';
import { describeWithPostgres, TEST_DATABASE_URL, uniqueName } from '@persona/test-kit';
import { migrateToLatest, openDatabase, type Database } from '@persona/db';
import { sql } from 'kysely';
import { createOutboxRelay, enqueueEvent, outboxMigrations, type EventBus } from '../src';
import { envelope, sleep, waitFor } from './helpers';

/** A bus that records what it is given, optionally failing the first publishes. */
function recordingBus(failFirst = 0): EventBus & { published: EventEnvelope[]; handedOver: string[]; calls: number } {
  const bus = {
    kind: 'in-process' as const,
    published: [] as EventEnvelope[],
    /** Ids in the order publish() was called (a real channel writes in this order). */
    handedOver: [] as string[],
    calls: 0,
    async publish(event: EventEnvelope) {
      bus.calls++;
      bus.handedOver.push(event.id);
      await sleep(Math.random() * 3); // let concurrent relays interleave
      if (bus.calls <= failFirst) throw new Error('broker unavailable');
      bus.published.push(event);
    },
    subscribe: async () => ({ close: async () => undefined }),
    deadLetters: async () => [],
    queueDepth: async () => ({ ready: 0, delayed: 0, dead: 0 }),
    isReady: () => true,
    close: async () => undefined,
  };
  return bus;
}

describeWithPostgres()('outbox relay on PostgreSQL', () => {
  const schema = uniqueName('outbox');
  let database: Database<unknown>;

  beforeAll(async () => {
    database = openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL, poolSize: 8 }, schema);
    expect(await migrateToLatest(database, { getMigrations: async () => outboxMigrations })).toEqual([
      '00000000000001_bus_outbox',
      '00000000000002_bus_inbox',
      '00000000000003_bus_retention',
    ]);
  });
  afterAll(async () => {
    await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(database.db);
    await database.close();
  });
  beforeEach(async () => {
    await sql`DELETE FROM outbox`.execute(database.db);
  });

  it('publishes every row exactly once with three relays draining at the same time', async () => {
    const events = Array.from({ length: 60 }, (_, i) => envelope('book.created', { i }));
    await database.db.transaction().execute(async (trx) => {
      for (const e of events) await enqueueEvent(trx, e);
    });
    const bus = recordingBus();
    const relays = [1, 2, 3].map(() => createOutboxRelay({ db: database.db, bus, batchSize: 7 }));
    await Promise.all(relays.map((r) => r.drain()));
    expect(bus.published.map((e) => e.id).sort()).toEqual(events.map((e) => e.id).sort());
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL`.execute(database.db);
    expect(rows[0]!.n).toBe(0);
  });

  it('publishes one relay’s rows in insertion order', async () => {
    const events = Array.from({ length: 10 }, (_, i) => envelope('book.updated', { i }));
    for (const e of events) await enqueueEvent(database.db, e);
    const bus = recordingBus();
    await createOutboxRelay({ db: database.db, bus, batchSize: 4 }).drain();
    expect(bus.handedOver).toEqual(events.map((e) => e.id));
  });

  it('records a failed publish on the row and publishes it on a later round', async () => {
    const event = envelope('order.paid');
    await enqueueEvent(database.db, event);
    const bus = recordingBus(1);
    const relay = createOutboxRelay({ db: database.db, bus });
    await expect(relay.drain()).rejects.toThrow(/broker unavailable/);
    const failed = await sql<{ attempts: number; last_error: string; published_at: Date | null; locked_until: Date | null }>`
      SELECT attempts, last_error, published_at, locked_until FROM outbox WHERE event_id = ${event.id}`.execute(database.db);
    expect(failed.rows[0]).toEqual({ attempts: 1, last_error: 'broker unavailable', published_at: null, locked_until: null });
    await relay.drain();
    expect(bus.published).toEqual([event]);
  });

  it('backs off exponentially while publishing fails (nudges do not cut it short), then recovers', async () => {
    const event = envelope('order.paid');
    await enqueueEvent(database.db, event);
    const bus = recordingBus(2);
    const relay = createOutboxRelay({ db: database.db, bus, pollIntervalMs: 10, backoffMs: { initial: 150, max: 1000 } });
    const started = Date.now();
    relay.start();
    const nudger = setInterval(() => relay.nudge(), 10);
    try {
      await waitFor(() => bus.published.length === 1, 'the recovery');
      expect(Date.now() - started).toBeGreaterThanOrEqual(150 + 300 - 20);
      expect(bus.calls).toBe(3); // fail, fail, succeed: no hot loop
      expect(bus.published).toEqual([event]);
    } finally {
      clearInterval(nudger);
      await relay.stop();
    }
  });

  it('leaves a row leased by another (live) relay alone, and takes it over once the lease expired', async () => {
    const event = envelope('order.paid');
    await enqueueEvent(database.db, event);
    await sql`UPDATE outbox SET locked_until = now() + interval '300 milliseconds' WHERE event_id = ${event.id}`.execute(database.db);
    const bus = recordingBus();
    const relay = createOutboxRelay({ db: database.db, bus });
    await relay.drain();
    expect(bus.published).toEqual([]);
    await sleep(350);
    await relay.drain();
    expect(bus.published).toEqual([event]);
  });

  describe('retention', () => {
    const DAY = 86_400_000;
    const count = async (where: string) => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.raw(where)}`.execute(database.db)).rows[0]!.n;
    /** `n` rows of each kind `ageDays` old: published outbox rows, unpublished ones, inbox rows. */
    const rows = async (n: number, ageDays: number, tag: string) => {
      await sql`
        INSERT INTO outbox (event_id, type, envelope, created_at, published_at)
        SELECT ${tag} || '-sent-' || i, 'book.created', '{}'::jsonb, now() - ${ageDays} * interval '1 day', now() - ${ageDays} * interval '1 day'
        FROM generate_series(1, ${n}) AS i`.execute(database.db);
      await sql`
        INSERT INTO outbox (event_id, type, envelope, created_at)
        SELECT ${tag} || '-pending-' || i, 'book.created', '{}'::jsonb, now() - ${ageDays} * interval '1 day' FROM generate_series(1, ${n}) AS i`.execute(
        database.db,
      );
      await sql`
        INSERT INTO inbox (message_id, consumer, handled_at)
        SELECT ${tag} || '-' || i, 'audit', now() - ${ageDays} * interval '1 day' FROM generate_series(1, ${n}) AS i`.execute(database.db);
    };
    beforeEach(async () => {
      await sql`DELETE FROM inbox`.execute(database.db);
    });

    it('deletes published outbox rows and inbox rows older than the retention, in batches; recent and unpublished rows stay', async () => {
      await rows(1205, 15, 'old');
      await rows(7, 13, 'recent');
      const relay = createOutboxRelay({ db: database.db, bus: recordingBus(), retentionMs: 14 * DAY });
      expect(await relay.prune()).toEqual({ outbox: 1205, inbox: 1205 });
      expect(await count(`outbox WHERE published_at IS NOT NULL`)).toBe(7);
      // A row never published is never pruned, however old: it still has to go out.
      expect(await count(`outbox WHERE published_at IS NULL`)).toBe(1212);
      expect(await count(`inbox`)).toBe(7);
      expect(await relay.prune()).toEqual({ outbox: 0, inbox: 0 });
    });

    it('prunes in one replica at a time: a replica that finds the lock held skips its turn', async () => {
      await rows(4, 15, 'locked');
      const lockName = `${database.schema}:events-prune`;
      const replica = createOutboxRelay({ db: database.db, bus: recordingBus(), retentionMs: 14 * DAY, pruneLock: lockName });
      const key = sql`hashtextextended(${lockName}, 0)`;
      // Another replica is pruning: it holds the lock on a connection of its own.
      await database.db.connection().execute(async (other) => {
        await sql`SELECT pg_advisory_lock(${key})`.execute(other);
        expect(await replica.prune()).toEqual({ outbox: 0, inbox: 0 });
        expect(await count(`inbox`)).toBe(4);
        await sql`SELECT pg_advisory_unlock(${key})`.execute(other);
        expect(await replica.prune()).toEqual({ outbox: 4, inbox: 4 });
        // ...and gave the lock back: the other can take it again.
        expect((await sql<{ got: boolean }>`SELECT pg_try_advisory_lock(${key}) AS got`.execute(other)).rows[0]!.got).toBe(true);
        await sql`SELECT pg_advisory_unlock(${key})`.execute(other);
      });
    });

    it('prunes on its own while it runs', async () => {
      await rows(3, 3, 'old');
      await rows(2, 0, 'new');
      await sql`UPDATE outbox SET published_at = now() WHERE published_at IS NULL`.execute(database.db);
      const relay = createOutboxRelay({ db: database.db, bus: recordingBus(), retentionMs: DAY, pollIntervalMs: 20, pruneEveryMs: 50 });
      relay.start();
      try {
        await waitFor(async () => (await count(`inbox`)) === 2, 'the old inbox rows to be pruned');
        // The old unpublished rows were marked published just now: they stay.
        expect(await count(`outbox`)).toBe(2 + 3 + 2);
      } finally {
        await relay.stop();
      }
    });
  });

  it('stops promptly even while idle with a long poll interval', async () => {
    const relay = createOutboxRelay({ db: database.db, bus: recordingBus(), pollIntervalMs: 60_000 });
    relay.start();
    await sleep(30);
    const started = Date.now();
    await relay.stop();
    // Well short of the poll interval it would otherwise sleep out (bounds here are the alternative's
    // fraction, not a speed target: the machine running the tests may be busy).
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
