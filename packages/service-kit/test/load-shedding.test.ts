import { setTimeout as sleep } from 'node:timers/promises';
import { Type } from '@sinclair/typebox';
import { createServiceApp, UNDER_PRESSURE_MESSAGE, type LoadSheddingOptions, type ServiceApp } from '../src';

/** Sampled every 100 ms so a test sees a change within a few of them; the service default is a second. */
const SAMPLE_MS = 100;
const OFF: LoadSheddingOptions = {
  maxEventLoopDelayMs: 0,
  maxEventLoopUtilization: 0,
  maxHeapUsedRatio: 0,
  maxRssBytes: 0,
  retryAfterS: 7,
  sampleIntervalMs: SAMPLE_MS,
};

function buildApp(loadShedding: Partial<LoadSheddingOptions> | undefined): ServiceApp {
  const app = createServiceApp({
    name: 'busy',
    logger: false,
    readiness: { db: () => undefined },
    loadShedding: loadShedding && { ...OFF, ...loadShedding },
  });
  app.get('/things', async () => ({ data: [] }));
  app.post('/things', { schema: { body: Type.Object({ name: Type.String() }) } }, async (request) => ({ data: request.body }));
  return app;
}

/** Holds the event loop: no timer, no sample and no request runs meanwhile. */
function blockEventLoop(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // busy on purpose
  }
}

/**
 * Waits until 30 to 50 ms after a sample. The plugin resets its event loop delay monitor at each
 * sample, and the first tick after a reset records no delay: a block that began before it would go
 * unseen by the delay (only the utilisation would show it).
 */
async function settleAfterASample(app: ServiceApp): Promise<void> {
  for (;;) {
    const before = JSON.stringify(app.memoryUsage());
    while (JSON.stringify(app.memoryUsage()) === before) await new Promise((resolve) => setImmediate(resolve));
    const sampledAt = performance.now();
    await sleep(30);
    if (performance.now() - sampledAt < SAMPLE_MS / 2) return;
  }
}

interface Health {
  status: string;
  service: string;
  pressure?: { underPressure: boolean; reason?: string };
}

async function health(app: ServiceApp): Promise<Health> {
  const res = await app.inject({ url: '/healthz' });
  // Liveness holds under pressure: an orchestrator must not kill a busy process.
  expect(res.statusCode).toBe(200);
  return res.json<Health>();
}

/** Asks /healthz until it says the service is under pressure (a sample comes every SAMPLE_MS). */
async function healthUntilUnderPressure(app: ServiceApp, withinMs = 3000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if ((await health(app)).pressure?.underPressure) return true;
    await sleep(5);
  }
  return false;
}

/**
 * Waits until /healthz says the loop is free: on a machine busy with other tests the loop of this
 * one can be late past the limit with nothing blocking it in the test, and a test of "while the loop
 * is free" must start from a free loop (or fail, naming the pressure, if it never is).
 */
async function untilFree(app: ServiceApp, withinMs = 30_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  let last = await health(app);
  while (last.pressure?.underPressure) {
    if (Date.now() > deadline) throw new Error(`the loop was never free for ${withinMs} ms: ${JSON.stringify(last.pressure)}`);
    await sleep(SAMPLE_MS);
    last = await health(app);
  }
}

/**
 * Blocks the event loop until the next sample sees its delay. A mean over one interval can still
 * dilute a single block on a crowded machine, so it gets three tries (a saturated loop is seen at once).
 */
async function blockUntilSeen(app: ServiceApp, ms: number): Promise<void> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    await settleAfterASample(app);
    blockEventLoop(ms);
    if (await healthUntilUnderPressure(app, 4 * SAMPLE_MS)) return;
  }
  throw new Error(`a ${ms} ms block was not seen in three tries: ${JSON.stringify((await health(app)).pressure)}`);
}

describe('load shedding', () => {
  describe('when the event loop is blocked past the delay limit', () => {
    const app = buildApp({ maxEventLoopDelayMs: 50 });
    beforeAll(async () => {
      await app.ready();
      await sleep(2 * SAMPLE_MS);
    });
    afterAll(() => app.close());

    it('serves normally while the loop is free, and health says so', async () => {
      await untilFree(app);
      expect((await app.inject({ url: '/things' })).statusCode).toBe(200);
      const answer = await health(app);
      expect(answer).toMatchObject({ status: 'ok', service: 'busy', pressure: { underPressure: false } });
      expect(answer.pressure?.reason).toBeUndefined();
      expect((await app.inject({ url: '/readyz' })).json()).toEqual({ status: 'ready', service: 'busy', checks: { db: 'ok', load: 'ok' } });
    });

    it('answers 503 with Retry-After in the error shape, while health stays 200 and readiness names the load check', async () => {
      await blockUntilSeen(app, 800);
      // All at once, so no sample falls between them.
      const [get, post, ready, live] = await Promise.all([
        app.inject({ url: '/things', headers: { 'x-request-id': 'shed-1' } }),
        app.inject({ method: 'POST', url: '/things', payload: { name: 'a' } }),
        app.inject({ url: '/readyz' }),
        app.inject({ url: '/healthz' }),
      ]);
      expect(get.statusCode).toBe(503);
      expect(get.headers['retry-after']).toBe('7');
      expect(get.headers['x-request-id']).toBe('shed-1');
      expect(get.json()).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: UNDER_PRESSURE_MESSAGE,
        code: 'UNDER_PRESSURE',
        requestId: 'shed-1',
      });
      // Refused before its body is read or validated.
      expect(post.statusCode).toBe(503);
      expect(post.json()).toMatchObject({ code: 'UNDER_PRESSURE' });

      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({
        status: 'not ready',
        checks: { db: 'ok', load: expect.stringMatching(/^event loop delay \d+ ms is over its limit of 50 ms$/) },
      });

      expect(live.statusCode).toBe(200);
      expect(live.json()).toMatchObject({
        status: 'ok',
        pressure: { underPressure: true, reason: expect.stringMatching(/^event loop delay \d+ ms is over its limit of 50 ms$/) },
      });
      expect(live.json().pressure).toEqual({ underPressure: true, reason: expect.stringMatching(/^event loop delay \d+ ms is over its limit of 50 ms$/) });

      const metrics = await app.inject({ url: '/metrics' });
      expect(metrics.statusCode).toBe(200);
      expect(metrics.body).toMatch(/^http_requests_shed_total\{measure="eventLoopDelay"\} 2$/m);
      expect(metrics.body).toMatch(/^load_shedding_event_loop_delay_seconds [0-9.e-]+$/m);
    });

    it('serves normally again once the loop is free for a sampling interval', async () => {
      await sleep(3 * SAMPLE_MS);
      await untilFree(app);
      expect((await app.inject({ url: '/things' })).statusCode).toBe(200);
      expect((await health(app)).pressure).toMatchObject({ underPressure: false });
      expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
    });
  });

  it('sheds for the event loop utilisation too, naming it', async () => {
    const app = buildApp({ maxEventLoopUtilization: 0.5 });
    await app.ready();
    await sleep(2 * SAMPLE_MS);
    blockEventLoop(500);
    expect(await healthUntilUnderPressure(app)).toBe(true);
    const [res, ready] = await Promise.all([app.inject({ url: '/things' }), app.inject({ url: '/readyz' })]);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('7');
    expect(ready.json().checks.load).toMatch(/^event loop utilisation [0-9.]+% is over its limit of 50%$/);
    await app.close();
  });

  it('never sheds for a measure set to 0, though it is measured', async () => {
    // The resident memory limit keeps the sampler running; it is far out of reach.
    const app = buildApp({ maxEventLoopDelayMs: 0, maxEventLoopUtilization: 0, maxRssBytes: 2 ** 50 });
    await app.ready();
    await settleAfterASample(app);
    blockEventLoop(800);
    const seen: Array<Health['pressure']> = [];
    const utilization: number[] = [];
    for (let i = 0; i < 30; i++) {
      seen.push((await health(app)).pressure);
      const metrics = (await app.inject({ url: '/metrics' })).body;
      utilization.push(Number(/^load_shedding_event_loop_utilization ([0-9.e-]+)$/m.exec(metrics)?.[1] ?? 0));
      expect((await app.inject({ url: '/things' })).statusCode).toBe(200);
      await sleep(10);
    }
    // Measured (on /metrics): the sample after the block found the loop busy most of its interval.
    expect(Math.max(...utilization)).toBeGreaterThan(0.5);
    expect(seen.every((p) => p?.underPressure === false)).toBe(true);
    await app.close();
  });

  it('sheds for the heap too, naming it', async () => {
    const app = buildApp({ maxHeapUsedRatio: 0.0001 });
    await app.ready();
    expect(await healthUntilUnderPressure(app)).toBe(true);
    const [res, ready] = await Promise.all([app.inject({ url: '/things' }), app.inject({ url: '/readyz' })]);
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('UNDER_PRESSURE');
    expect(ready.json().checks.load).toMatch(/^heap in use [0-9.]+% of V8's limit is over its limit of 0%$/);
    await app.close();
  });

  it("answers a browser's page request with a page that tries again by itself, and fetches with JSON", async () => {
    const app = buildApp({ maxHeapUsedRatio: 0.0001 });
    await app.ready();
    expect(await healthUntilUnderPressure(app)).toBe(true);
    const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const [page, fetched, posted] = await Promise.all([
      app.inject({ url: '/things', headers: { accept: browserAccept } }),
      app.inject({ url: '/things', headers: { accept: 'application/json' } }),
      app.inject({ method: 'POST', url: '/things', headers: { accept: browserAccept }, payload: { name: 'a' } }),
    ]);
    expect(page.statusCode).toBe(503);
    expect(page.headers['retry-after']).toBe('7');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<meta http-equiv="refresh" content="7">');
    expect(page.body).toContain(`<p>${UNDER_PRESSURE_MESSAGE}.</p>`);
    expect(page.body).toContain('This page will try again by itself in 7 seconds.');
    expect(fetched.statusCode).toBe(503);
    expect(fetched.json().code).toBe('UNDER_PRESSURE');
    // A form post is not repeated by a refresh: it is told in JSON like any other write.
    expect(posted.statusCode).toBe(503);
    expect(posted.json().code).toBe('UNDER_PRESSURE');
    await app.close();
  });

  it('samples nothing and says nothing about load without limits', async () => {
    for (const app of [buildApp(undefined), buildApp({})]) {
      await app.ready();
      expect(app.hasDecorator('memoryUsage')).toBe(false);
      expect((await health(app)).pressure).toBeUndefined();
      expect((await app.inject({ url: '/readyz' })).json().checks).toEqual({ db: 'ok' });
      await app.close();
    }
  });

  it('keeps no process alive, and stops sampling when the app closes', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const app = buildApp({ maxEventLoopDelayMs: 1000 });
    await app.ready();
    expect(timers()).toBe(before);
    await sleep(2 * SAMPLE_MS);
    await app.close();
    const atClose = app.memoryUsage();
    // The heap in use changes all the time; a sampler still running would have seen it change.
    await sleep(3 * SAMPLE_MS);
    expect(app.memoryUsage()).toEqual(atClose);
  });
});
