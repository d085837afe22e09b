// The outbox-lag and queue-depth gauges, on embedded PGlite with the in-process bus.
import { migrateToLatest, openDatabase, openPglite, type Database } from '@persona/db';
import { sql } from 'kysely';
import { createInProcessBus, enqueueEvent, createOutboxRelay, outboxMigrations, registerBusMetrics, type BusMetricsRegistry, type EventBus } from '../src';
import { envelope, waitFor } from './helpers';

/** A registry that keeps gauge values in a map, as service-kit's does before rendering them. */
function recordingRegistry() {
  const values = new Map<string, number>();
  const collectors: Array<() => Promise<void> | void> = [];
  const registry: BusMetricsRegistry = {
    gauge: ({ name }) => ({
      set: (labels, value) => values.set(`${name}${labels ? JSON.stringify(labels) : ''}`, value),
      reset: () => undefined,
    }),
    onCollect: (_name, collect) => void collectors.push(collect),
  };
  return {
    registry,
    async scrape() {
      for (const collect of collectors) await collect();
      return values;
    },
  };
}

describe('bus metrics', () => {
  let shared: Awaited<ReturnType<typeof openPglite>>;
  let service: Database<unknown>;
  let bus: EventBus;

  beforeAll(async () => {
    shared = await openPglite();
    service = openDatabase({ kind: 'pglite', shared }, 'svc');
    await migrateToLatest(service, { getMigrations: async () => outboxMigrations });
    bus = createInProcessBus({ database: openDatabase({ kind: 'pglite', shared }, 'bus'), pollIntervalMs: 50 });
    await waitFor(() => bus.isReady(), 'bus migrations');
  });
  afterAll(async () => {
    await bus.close();
    await shared.close();
  });

  it('reports outbox lag as the age of the oldest unpublished event, and the count; both drop to 0 once published', async () => {
    const { registry, scrape } = recordingRegistry();
    registerBusMetrics(registry, { db: service.db, bus });

    let values = await scrape();
    expect(values.get('outbox_unpublished_events')).toBe(0);
    expect(values.get('outbox_lag_seconds')).toBe(0);

    const old = envelope('book.created');
    const recent = envelope('book.updated');
    await enqueueEvent(service.db, old);
    await enqueueEvent(service.db, recent);
    // The relay has been down for 42 s for the older one.
    await sql`UPDATE outbox SET created_at = now() - interval '42 seconds' WHERE event_id = ${old.id}`.execute(service.db);
    values = await scrape();
    expect(values.get('outbox_unpublished_events')).toBe(2);
    expect(values.get('outbox_lag_seconds')).toBeGreaterThanOrEqual(42);
    expect(values.get('outbox_lag_seconds')).toBeLessThan(50);

    await createOutboxRelay({ db: service.db, bus }).drain();
    values = await scrape();
    expect(values.get('outbox_unpublished_events')).toBe(0);
    expect(values.get('outbox_lag_seconds')).toBe(0);
  });

  it('reports the depth of the service’s queues by state', async () => {
    const { registry, scrape } = recordingRegistry();
    registerBusMetrics(registry, { bus, queues: ['svc.books'] });
    await (await bus.subscribe({ queue: 'svc.books', bindings: ['book.*'], handler: async () => undefined })).close();
    await bus.publish(envelope('book.created'));
    await bus.publish(envelope('book.deleted'));
    const values = await scrape();
    expect(values.get('bus_queue_messages{"queue":"svc.books","state":"ready"}')).toBe(2);
    expect(values.get('bus_queue_messages{"queue":"svc.books","state":"delayed"}')).toBe(0);
    expect(values.get('bus_queue_messages{"queue":"svc.books","state":"dead"}')).toBe(0);
  });
});
