// Prometheus metrics for every service, on prom-client: one registry per
// service (the embedded shop runs five in one process), with prom-client's
// default process metrics (CPU, memory, event-loop lag, GC, handles),
// collectors run at scrape time, the request-latency histogram and the
// /metrics route. The small classes below keep the shop's call sites
// independent of prom-client's API.
import client from 'prom-client';
import { sameSecret } from './secrets';
import type { FastifyReply, FastifyRequest } from 'fastify';

export type LabelValues = Record<string, string | number>;

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Seconds; fine at the low end, where the gateway's added latency lives. */
export const HTTP_LATENCY_BUCKETS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface MetricOptions {
  name: string;
  help: string;
  labelNames?: readonly string[];
}

export interface HistogramOptions extends MetricOptions {
  /** Upper bounds, ascending; +Inf is added. */
  buckets?: readonly number[];
}

export class Counter {
  readonly type = 'counter';
  constructor(private readonly metric: client.Counter) {}

  inc(labels?: LabelValues, by = 1): void {
    if (labels) this.metric.inc(labels, by);
    else this.metric.inc(by);
  }
}

export class Gauge {
  readonly type = 'gauge';
  constructor(private readonly metric: client.Gauge) {}

  set(labels: LabelValues | undefined, value: number): void {
    if (labels) this.metric.set(labels, value);
    else this.metric.set(value);
  }

  inc(labels?: LabelValues, by = 1): void {
    if (labels) this.metric.inc(labels, by);
    else this.metric.inc(by);
  }

  /** Forgets every series (a collector that sets them all again calls this first). */
  reset(): void {
    this.metric.reset();
  }
}

export class Histogram {
  readonly type = 'histogram';
  constructor(private readonly metric: client.Histogram) {}

  observe(labels: LabelValues | undefined, value: number): void {
    if (labels) this.metric.observe(labels, value);
    else this.metric.observe(value);
  }
}

/** What other packages (the bus's gauges) need from a registry; MetricsRegistry is one. */
export interface MetricsSink {
  gauge(options: MetricOptions): { set(labels: LabelValues | undefined, value: number): void; reset(): void };
  /** Runs before every scrape; a collector that throws is counted and skipped, never fails the scrape. */
  onCollect(name: string, collect: () => Promise<void> | void): void;
}

type Registered = Counter | Gauge | Histogram;

export class MetricsRegistry implements MetricsSink {
  /** prom-client's registry behind this one. */
  readonly registry = new client.Registry();
  private readonly metrics = new Map<string, Registered>();
  private readonly collectors = new Map<string, () => Promise<void> | void>();
  private readonly collectFailures: Counter;

  constructor(options: { processMetrics?: boolean } = {}) {
    this.collectFailures = this.counter({
      name: 'metrics_collect_failures_total',
      help: 'Scrape-time collectors that failed (their gauges keep the last value)',
      labelNames: ['collector'],
    });
    if (options.processMetrics !== false) client.collectDefaultMetrics({ register: this.registry });
  }

  /** Registering the same metric twice hands back the first, so wiring code may be called again. */
  private add<T extends Registered>(type: T['type'], name: string, make: () => T): T {
    const existing = this.metrics.get(name);
    if (existing) {
      if (existing.type !== type) throw new Error(`metric ${name} is already registered as a ${existing.type}`);
      return existing as T;
    }
    const metric = make();
    this.metrics.set(name, metric);
    return metric;
  }

  private base(options: MetricOptions) {
    return { name: options.name, help: options.help, labelNames: [...(options.labelNames ?? [])], registers: [this.registry] };
  }

  counter(options: MetricOptions): Counter {
    return this.add('counter', options.name, () => new Counter(new client.Counter(this.base(options))));
  }

  gauge(options: MetricOptions): Gauge {
    return this.add('gauge', options.name, () => new Gauge(new client.Gauge(this.base(options))));
  }

  histogram(options: HistogramOptions): Histogram {
    const buckets = [...(options.buckets ?? HTTP_LATENCY_BUCKETS)];
    return this.add('histogram', options.name, () => new Histogram(new client.Histogram({ ...this.base(options), buckets })));
  }

  onCollect(name: string, collect: () => Promise<void> | void): void {
    this.collectors.set(name, collect);
  }

  /** The exposition text, after running every collector. */
  async render(): Promise<string> {
    await Promise.all(
      [...this.collectors].map(async ([name, collect]) => {
        try {
          await collect();
        } catch {
          this.collectFailures.inc({ collector: name });
        }
      }),
    );
    return this.registry.metrics();
  }
}

/** The request-latency histogram every service shares. */
export function httpLatencyHistogram(registry: MetricsRegistry): Histogram {
  return registry.histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'],
    buckets: HTTP_LATENCY_BUCKETS,
  });
}

/** Requests no route matched share one label value, so random paths cannot blow up the series count. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The /metrics handler. With a token, a scrape must send `Authorization:
 * Bearer <token>`; without one the route is open, for the private network.
 */
export function metricsHandler(registry: MetricsRegistry, token?: string) {
  const expected = token ? Buffer.from(`Bearer ${token}`) : null;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (expected) {
      if (!sameSecret(String(request.headers.authorization ?? ''), expected)) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .send({ statusCode: 401, error: 'Unauthorized', message: 'Metrics need the metrics token', requestId: request.id });
      }
    }
    const body = await registry.render();
    return reply.header('cache-control', 'no-store').type(METRICS_CONTENT_TYPE).send(body);
  };
}
