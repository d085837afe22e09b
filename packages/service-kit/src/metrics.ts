// Prometheus metrics for every service: a small registry (counters, gauges,
// histograms, collectors run at scrape time), the text exposition format
// 0.0.4, the request-latency histogram and the /metrics route.
import { sameSecret } from './secrets';
import type { FastifyReply, FastifyRequest } from 'fastify';

export type LabelValues = Record<string, string | number>;

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Seconds; fine at the low end, where the gateway's added latency lives. */
export const HTTP_LATENCY_BUCKETS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

const NEEDS_ESCAPE = /[\\\n"]/;
const escapeLabel = (value: string) => (NEEDS_ESCAPE.test(value) ? value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"') : value);
const escapeHelp = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

export interface MetricOptions {
  name: string;
  help: string;
  labelNames?: readonly string[];
}

export interface HistogramOptions extends MetricOptions {
  /** Upper bounds, ascending; +Inf is added. */
  buckets?: readonly number[];
}

abstract class Metric {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  abstract readonly type: 'counter' | 'gauge' | 'histogram';

  constructor(options: MetricOptions) {
    if (!METRIC_NAME.test(options.name)) throw new Error(`invalid metric name "${options.name}"`);
    for (const label of options.labelNames ?? []) {
      if (!LABEL_NAME.test(label) || label.startsWith('__') || label === 'le') throw new Error(`invalid label name "${label}" on ${options.name}`);
    }
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames ?? [];
  }

  /** The rendered `{a="x",b="y"}` part, also the key of a child series. */
  protected key(labels: LabelValues | undefined): string {
    if (this.labelNames.length === 0) return '';
    return this.labelNames.map((n) => `${n}="${escapeLabel(String(labels?.[n] ?? ''))}"`).join(',');
  }

  header(): string {
    return `# HELP ${this.name} ${escapeHelp(this.help)}\n# TYPE ${this.name} ${this.type}\n`;
  }

  abstract render(): string;
}

const braces = (key: string) => (key ? `{${key}}` : '');

export class Counter extends Metric {
  readonly type = 'counter';
  private readonly values = new Map<string, number>();

  inc(labels?: LabelValues, by = 1): void {
    if (!(by >= 0)) throw new Error(`${this.name}: a counter only goes up`);
    const key = this.key(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }

  /** For a count kept elsewhere and mirrored at scrape time (the process's CPU time). */
  setTotal(labels: LabelValues | undefined, total: number): void {
    this.values.set(this.key(labels), total);
  }

  get(labels?: LabelValues): number {
    return this.values.get(this.key(labels)) ?? 0;
  }

  render(): string {
    // A counter without labels is shown from zero, so rate() works from the first scrape.
    if (this.values.size === 0 && this.labelNames.length === 0) this.values.set('', 0);
    let out = this.header();
    for (const [key, value] of this.values) out += `${this.name}${braces(key)} ${formatValue(value)}\n`;
    return out;
  }
}

export class Gauge extends Metric {
  readonly type = 'gauge';
  private readonly values = new Map<string, number>();

  set(labels: LabelValues | undefined, value: number): void {
    this.values.set(this.key(labels), value);
  }

  inc(labels?: LabelValues, by = 1): void {
    const key = this.key(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }

  get(labels?: LabelValues): number | undefined {
    return this.values.get(this.key(labels));
  }

  /** Forgets every series (a collector that sets them all again calls this first). */
  reset(): void {
    this.values.clear();
  }

  render(): string {
    let out = this.header();
    for (const [key, value] of this.values) out += `${this.name}${braces(key)} ${formatValue(value)}\n`;
    return out;
  }
}

interface HistogramSeries {
  /** Per bucket, not cumulative; the last one is +Inf. */
  counts: number[];
  sum: number;
  count: number;
}

export class Histogram extends Metric {
  readonly type = 'histogram';
  readonly buckets: readonly number[];
  private readonly series = new Map<string, HistogramSeries>();

  constructor(options: HistogramOptions) {
    super(options);
    const buckets = [...(options.buckets ?? HTTP_LATENCY_BUCKETS)];
    if (buckets.length === 0 || buckets.some((b, i) => !Number.isFinite(b) || (i > 0 && b <= buckets[i - 1]!))) {
      throw new Error(`${options.name}: buckets must be finite and ascending`);
    }
    this.buckets = buckets;
  }

  observe(labels: LabelValues | undefined, value: number): void {
    const key = this.key(labels);
    let s = this.series.get(key);
    if (!s) {
      s = { counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    let i = 0;
    while (i < this.buckets.length && value > this.buckets[i]!) i++;
    s.counts[i]! += 1;
    s.sum += value;
    s.count += 1;
  }

  /** Observations so far for these labels (tests, diagnostics). */
  count(labels?: LabelValues): number {
    return this.series.get(this.key(labels))?.count ?? 0;
  }

  render(): string {
    let out = this.header();
    for (const [key, s] of this.series) {
      const prefix = key ? `${key},` : '';
      let cumulative = 0;
      for (let i = 0; i <= this.buckets.length; i++) {
        cumulative += s.counts[i]!;
        const le = i < this.buckets.length ? formatValue(this.buckets[i]!) : '+Inf';
        out += `${this.name}_bucket{${prefix}le="${le}"} ${cumulative}\n`;
      }
      out += `${this.name}_sum${braces(key)} ${formatValue(s.sum)}\n`;
      out += `${this.name}_count${braces(key)} ${s.count}\n`;
    }
    return out;
  }
}

/** What other packages (the bus's gauges) need from a registry; MetricsRegistry is one. */
export interface MetricsSink {
  gauge(options: MetricOptions): { set(labels: LabelValues | undefined, value: number): void; reset(): void };
  /** Runs before every scrape; a collector that throws is counted and skipped, never fails the scrape. */
  onCollect(name: string, collect: () => Promise<void> | void): void;
}

export class MetricsRegistry implements MetricsSink {
  private readonly metrics = new Map<string, Metric>();
  private readonly collectors = new Map<string, () => Promise<void> | void>();
  private readonly collectFailures: Counter;

  constructor(options: { processMetrics?: boolean } = {}) {
    this.collectFailures = this.counter({
      name: 'metrics_collect_failures_total',
      help: 'Scrape-time collectors that failed (their gauges keep the last value)',
      labelNames: ['collector'],
    });
    if (options.processMetrics !== false) this.addProcessMetrics();
  }

  private add<T extends Metric>(metric: T): T {
    const existing = this.metrics.get(metric.name);
    if (existing) {
      // Registering the same metric twice hands back the first, so wiring code may be called again.
      if (existing.type !== metric.type) throw new Error(`metric ${metric.name} is already registered as a ${existing.type}`);
      return existing as T;
    }
    this.metrics.set(metric.name, metric);
    return metric;
  }

  counter(options: MetricOptions): Counter {
    return this.add(new Counter(options));
  }

  gauge(options: MetricOptions): Gauge {
    return this.add(new Gauge(options));
  }

  histogram(options: HistogramOptions): Histogram {
    return this.add(new Histogram(options));
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
    let out = '';
    for (const metric of this.metrics.values()) out += metric.render();
    return out;
  }

  private addProcessMetrics(): void {
    const started = Date.now() / 1000 - process.uptime();
    const cpu = this.counter({ name: 'process_cpu_seconds_total', help: 'User and system CPU time spent by the process, in seconds' });
    const rss = this.gauge({ name: 'process_resident_memory_bytes', help: 'Resident memory size in bytes' });
    const heap = this.gauge({ name: 'nodejs_heap_used_bytes', help: 'V8 heap in use, in bytes' });
    this.gauge({ name: 'process_start_time_seconds', help: 'Start time of the process since the Unix epoch, in seconds' }).set(undefined, Math.round(started));
    this.onCollect('process', () => {
      const usage = process.cpuUsage();
      cpu.setTotal(undefined, (usage.user + usage.system) / 1e6);
      const memory = process.memoryUsage();
      rss.set(undefined, memory.rss);
      heap.set(undefined, memory.heapUsed);
    });
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
