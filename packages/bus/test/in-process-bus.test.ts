import { randomUUID } from 'node:crypto';
import { describeWithPostgres, TEST_DATABASE_URL, uniqueName } from '@persona/test-kit';
import { migrateToLatest, openDatabase, openPglite, type Database, type DatabaseSource } from '@persona/db';
import { sql } from 'kysely';
import { createInProcessBus, outboxMigrations, type EventBus, type EventContext } from '../src';
import { busContract, createEffectsTable, type BusFixture } from './contract';
import { envelope, gate, sleep, waitFor } from './helpers';

interface Opened {
  source: DatabaseSource;
  dispose(): Promise<void>;
}

/** The contract plus what only the in-process transport has (leases, restarts), on one kind of database. */
function inProcessSuite(openSource: () => Promise<Opened>) {
  const busSchema = uniqueName('bus');
  const serviceSchema = uniqueName('svc');
  let opened: Opened;
  let busDatabase: Database<unknown>;
  let serviceDatabase: Database<unknown>;
  let fixture: BusFixture;

  beforeAll(async () => {
    opened = await openSource();
    busDatabase = openDatabase(opened.source, busSchema);
    serviceDatabase = openDatabase(opened.source, serviceSchema);
    await migrateToLatest(serviceDatabase, { getMigrations: async () => outboxMigrations });
    await createEffectsTable(serviceDatabase.db);
    fixture = { bus: createInProcessBus({ database: busDatabase, pollIntervalMs: 100 }), db: serviceDatabase.db };
    await waitFor(() => fixture.bus.isReady(), 'bus migrations');
  });

  afterAll(async () => {
    await fixture?.bus.close();
    for (const schema of [busSchema, serviceSchema]) {
      await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(serviceDatabase.db);
    }
    await busDatabase?.close();
    await serviceDatabase?.close();
    await opened?.dispose();
  });

  describe('bus contract', () => {
    busContract(() => fixture, []);
  });

  describe('in-process specifics', () => {
    it('migrates its tables into its own schema', async () => {
      const { rows } = await sql<{ table_name: string }>`
        SELECT table_name FROM information_schema.tables WHERE table_schema = ${busSchema} ORDER BY table_name`.execute(busDatabase.db);
      expect(rows.map((r) => r.table_name)).toEqual(['bus_bindings', 'bus_messages', 'kysely_migration', 'kysely_migration_lock']);
    });

    it('makes a message claimed by a consumer that died claimable again once its lease expires', async () => {
      const queue = uniqueName('t_lease');
      // Bind the queue, then stop consuming, as a service does on shutdown.
      await (await fixture.bus.subscribe({ queue, bindings: ['book.created'], handler: async () => undefined })).close();
      const event = envelope('book.created');
      await fixture.bus.publish(event);
      // A consumer in another process claims it with a short lease and is SIGKILLed: nobody releases it.
      const claimed = await sql`
        UPDATE bus_messages SET lock_token = ${randomUUID()}, locked_until = now() + interval '400 milliseconds', deliveries = deliveries + 1
        WHERE queue = ${queue} RETURNING id`.execute(busDatabase.db);
      expect(claimed.rows).toHaveLength(1);

      const seen: Array<{ id: string; ctx: EventContext; at: number }> = [];
      const started = Date.now();
      const sub = await fixture.bus.subscribe({
        queue,
        bindings: ['book.created'],
        handler: async (e, ctx) => void seen.push({ id: e.id, ctx, at: Date.now() - started }),
      });
      try {
        await sleep(200);
        expect(seen).toEqual([]); // still leased
        await waitFor(() => seen.length === 1, 'delivery after the lease expired');
        expect(seen[0]!.id).toBe(event.id);
        expect(seen[0]!.ctx).toEqual({ attempt: 1, redelivered: true });
      } finally {
        await sub.close();
      }
    });

    it('keeps renewing the lease of a slow handler so nobody else takes its message', async () => {
      const bus = createInProcessBus({ database: busDatabase, pollIntervalMs: 50, leaseMs: 300 });
      const queue = uniqueName('t_slow');
      const held = gate();
      const deliveries: string[] = [];
      const handler = async (e: { id: string }) => {
        deliveries.push(e.id);
        await held.promise;
      };
      const a = await bus.subscribe({ queue, bindings: ['book.updated'], handler });
      const b = await bus.subscribe({ queue, bindings: ['book.updated'], handler });
      try {
        await bus.publish(envelope('book.updated'));
        await sleep(900); // three lease lengths
        expect(deliveries).toHaveLength(1);
        held.open();
        await waitFor(async () => (await sql`SELECT 1 FROM bus_messages WHERE queue = ${queue}`.execute(busDatabase.db)).rows.length === 0, 'ack');
      } finally {
        held.open();
        await a.close();
        await b.close();
        await bus.close();
      }
    });

    it('keeps undelivered messages across a restart (a new bus on the same database delivers them)', async () => {
      const queue = uniqueName('t_restart');
      const first: EventBus = createInProcessBus({ database: busDatabase, pollIntervalMs: 100 });
      await (await first.subscribe({ queue, bindings: ['order.paid'], handler: async () => undefined })).close();
      const event = envelope('order.paid', { orderId: 'o1' });
      await first.publish(event);
      await first.close(); // the process stops

      const second = createInProcessBus({ database: busDatabase, pollIntervalMs: 100 });
      const seen: string[] = [];
      const sub = await second.subscribe({ queue, bindings: ['order.paid'], handler: async (e) => void seen.push(e.id) });
      try {
        await waitFor(() => seen.length === 1, 'delivery after restart');
        expect(seen).toEqual([event.id]);
      } finally {
        await sub.close();
        await second.close();
      }
    });

    it('shares a queue between competing consumers without delivering a message twice', async () => {
      const queue = uniqueName('t_compete');
      const seen: string[] = [];
      const handler = async (e: { id: string }) => {
        seen.push(e.id);
        await sleep(5);
      };
      const subs = await Promise.all([1, 2, 3].map(() => fixture.bus.subscribe({ queue, bindings: ['book.*'], prefetch: 2, handler })));
      try {
        const events = Array.from({ length: 30 }, () => envelope('book.created'));
        for (const e of events) await fixture.bus.publish(e);
        await waitFor(() => seen.length >= 30, 'all deliveries');
        await sleep(150);
        expect(seen.sort()).toEqual(events.map((e) => e.id).sort());
      } finally {
        await Promise.all(subs.map((s) => s.close()));
      }
    });

    it('refuses to publish after close', async () => {
      const bus = createInProcessBus({ database: busDatabase });
      await waitFor(() => bus.isReady(), 'ready');
      await bus.close();
      expect(bus.isReady()).toBe(false);
      await expect(bus.publish(envelope('book.created'))).rejects.toThrow(/closed/);
    });
  });
}

describe('in-process transport on embedded PGlite', () => {
  inProcessSuite(async () => {
    const shared = await openPglite();
    return { source: { kind: 'pglite', shared }, dispose: () => shared.close() };
  });
});

describeWithPostgres()('in-process transport on PostgreSQL', () => {
  inProcessSuite(async () => ({ source: { kind: 'postgres', url: TEST_DATABASE_URL, poolSize: 5 }, dispose: async () => undefined }));
});
