// The bus's gauges for a service's Prometheus registry: outbox lag (the age of
// the oldest unpublished event, and how many wait) and the depth of the
// service's consumer queues. Read at scrape time.
import type { Kysely } from 'kysely';
import { outboxBacklog } from './outbox';
import type { EventBus } from './types';

type Labels = Record<string, string | number>;

/** The part of a registry these gauges need (service-kit's MetricsRegistry is one). */
export interface BusMetricsRegistry {
  gauge(options: { name: string; help: string; labelNames?: readonly string[] }): { set(labels: Labels | undefined, value: number): void; reset(): void };
  onCollect(name: string, collect: () => Promise<void> | void): void;
}

export interface BusMetricsOptions<DB> {
  /** The service's database (its schema holds the `outbox` table); omit for a service without an outbox. */
  db?: Kysely<DB>;
  bus: EventBus;
  /** The consumer queues this service reads. */
  queues?: readonly string[];
}

export function registerBusMetrics<DB>(registry: BusMetricsRegistry, options: BusMetricsOptions<DB>): void {
  if (options.db) {
    const db = options.db;
    const unpublished = registry.gauge({ name: 'outbox_unpublished_events', help: 'Events committed to the outbox and not yet published' });
    const lag = registry.gauge({ name: 'outbox_lag_seconds', help: 'Age of the oldest unpublished outbox event in seconds (0 when none wait)' });
    registry.onCollect('outbox', async () => {
      const backlog = await outboxBacklog(db);
      unpublished.set(undefined, backlog.unpublished);
      lag.set(undefined, backlog.oldestAgeSeconds);
    });
  }
  const queues = options.queues ?? [];
  if (queues.length > 0) {
    const depth = registry.gauge({
      name: 'bus_queue_messages',
      help: 'Messages in a consumer queue that nobody is handling: ready, delayed for a retry, or dead-lettered',
      labelNames: ['queue', 'state'],
    });
    registry.onCollect('bus_queues', async () => {
      const depths = await Promise.all(queues.map(async (queue) => [queue, await options.bus.queueDepth(queue)] as const));
      for (const [queue, d] of depths) {
        depth.set({ queue, state: 'ready' }, d.ready);
        depth.set({ queue, state: 'delayed' }, d.delayed);
        depth.set({ queue, state: 'dead' }, d.dead);
      }
    });
  }
}
