import { Writable } from 'node:stream';
import { createLogger, createServiceApp, MetricsRegistry, METRICS_CONTENT_TYPE, type ServiceApp } from '../src';

/** Parses the exposition text into `name{labels}` → value, checking every line is well formed. */
function parseExposition(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{.*\})?) (-?[0-9.e+-]+|\+Inf|NaN)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    // The order of labels carries no meaning; `le` is written last here, the rest as exposed.
    const series = match[1]!.replace(/\{le="([^"]*)",(.*)\}$/, '{$2,le="$1"}');
    samples.set(series, Number(match[2]));
  }
  return samples;
}

describe('/metrics', () => {
  let app: ServiceApp;

  beforeAll(async () => {
    app = createServiceApp({ name: 'test', logger: false });
    app.get('/books/:id', async (request) => ({ data: (request.params as { id: string }).id }));
    app.get('/slow', async () => {
      await new Promise((r) => setTimeout(r, 30));
      return { ok: true };
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('serves the Prometheus text format with a request-latency histogram by method, route pattern and status code', async () => {
    for (const id of ['a', 'b', 'c']) expect((await app.inject({ url: `/books/${id}` })).statusCode).toBe(200);
    await app.inject({ url: '/slow' });
    await app.inject({ url: '/no/such/thing' });

    const res = await app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(METRICS_CONTENT_TYPE);
    const text = res.body;
    expect(text).toContain('# TYPE http_request_duration_seconds histogram\n');
    expect(text).toContain('# HELP http_request_duration_seconds HTTP request latency, by method, route pattern and status code\n');
    const samples = parseExposition(text);

    // One series per route pattern, not per path.
    const books = 'method="GET",route="/books/:id",status_code="200"';
    expect(samples.get(`http_request_duration_seconds_count{${books}}`)).toBe(3);
    expect(samples.get(`http_request_duration_seconds_bucket{${books},le="+Inf"}`)).toBe(3);
    expect(samples.get(`http_request_duration_seconds_sum{${books}}`)).toBeGreaterThan(0);
    expect([...samples.keys()].some((k) => k.includes('/books/a'))).toBe(false);

    // Buckets are cumulative: the 30 ms request is above 25 ms, and counted in every bucket from its own up.
    const slow = 'method="GET",route="/slow",status_code="200"';
    expect(samples.get(`http_request_duration_seconds_bucket{${slow},le="0.025"}`)).toBe(0);
    const counts = ['0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'].map((le) =>
      samples.get(`http_request_duration_seconds_bucket{${slow},le="${le}"}`),
    );
    expect(counts).toEqual([...counts].sort((a, b) => a! - b!));
    expect(counts.at(-1)).toBe(1);

    // Unknown paths share one series.
    expect(samples.get('http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"}')).toBe(1);

    // prom-client's default process metrics: CPU, memory, event-loop lag, GC.
    expect(samples.get('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('# TYPE process_cpu_seconds_total counter\n');
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge\n');
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram\n');
  });

  it('echoes the correlation id and request id to the caller', async () => {
    const res = await app.inject({ url: '/books/x', headers: { 'x-correlation-id': 'checkout-42' } });
    expect(res.headers['x-correlation-id']).toBe('checkout-42');
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
    const own = await app.inject({ url: '/books/x', headers: { 'x-correlation-id': 'bad id with spaces' } });
    expect(own.headers['x-correlation-id']).toBe(own.headers['x-request-id']);
  });
});

describe('/metrics with a token', () => {
  it('refuses a scrape without the token and serves one with it', async () => {
    const app = createServiceApp({ name: 'guarded', logger: false, metricsToken: 'a-long-metrics-token' });
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong' } })).statusCode).toBe(401);
    const ok = await app.inject({ url: '/metrics', headers: { authorization: 'Bearer a-long-metrics-token' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('http_request_duration_seconds');
    await app.close();
  });
});

describe('request logs', () => {
  it('carry the correlation id on every line of the request', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
        done();
      },
    });
    const app = createServiceApp({ name: 'logged', logger: createLogger('logged', 'debug', {}, sink) });
    app.get('/work', async (request) => {
      request.log.info('doing the work');
      return { ok: true };
    });
    await app.inject({ url: '/work', headers: { 'x-correlation-id': 'buy-7', 'x-request-id': 'req-7' } });
    await app.close();
    const own = lines.filter((l) => l.reqId === 'req-7');
    expect(own.map((l) => l.msg)).toEqual(['doing the work', 'request']);
    for (const line of own) expect(line.correlationId).toBe('buy-7');
  });
});

describe('MetricsRegistry', () => {
  it('escapes label values and help text, and renders counters and gauges', async () => {
    const registry = new MetricsRegistry({ processMetrics: false });
    registry.counter({ name: 'things_total', help: 'Things\\done\nso far', labelNames: ['kind'] }).inc({ kind: 'a "quoted"\nvalue\\' }, 2);
    const gauge = registry.gauge({ name: 'depth', help: 'Depth' });
    registry.onCollect('depth', () => gauge.set(undefined, 7));
    registry.onCollect('broken', () => {
      throw new Error('database down');
    });
    const text = await registry.render();
    expect(text).toContain('# HELP things_total Things\\\\done\\nso far\n');
    expect(text).toContain('things_total{kind="a \\"quoted\\"\\nvalue\\\\"} 2\n');
    expect(text).toContain('# TYPE depth gauge\ndepth 7\n');
    expect(text).toContain('metrics_collect_failures_total{collector="broken"} 1\n');
  });

  it('hands back the same metric when it is registered twice, and refuses a clash of types', () => {
    const registry = new MetricsRegistry({ processMetrics: false });
    const a = registry.counter({ name: 'x_total', help: 'x' });
    expect(registry.counter({ name: 'x_total', help: 'x' })).toBe(a);
    expect(() => registry.gauge({ name: 'x_total', help: 'x' })).toThrow(/already registered/);
    expect(() => registry.counter({ name: 'bad-name', help: 'x' })).toThrow(/invalid metric name/i);
  });
});
