// One correlation id follows a purchase from the browser's requests through
// the gateway, the services, the events (order.paid → persona.ready) and the
// PDF worker's log lines, and comes back to the browser. Then every part's
// /metrics shows the purchase.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { startShop, type RunningShop } from '@persona/launcher';
import { fromShopTemplate } from './support/shared-fixtures';
import { buyPersonaThroughApi } from './support/shop';

type LogLine = Record<string, unknown> & { msg?: string; service?: string; correlationId?: string };

const ADMIN = { email: 'ops@persona-books.in', password: 'correct horse battery' };

describe('one correlation id for a purchase', () => {
  const lines: LogLine[] = [];
  let shop: RunningShop;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'persona-correlation-'));
    let partial = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        const text = partial + String(chunk);
        const parts = text.split('\n');
        partial = parts.pop() ?? '';
        for (const line of parts) if (line.trim()) lines.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    // The run's template (migrated, seeded): this suite's administrator is added to it at start.
    await fromShopTemplate(path.join(dataDir, 'shop'));
    shop = await startShop({
      dataDir: path.join(dataDir, 'shop'),
      port: 0,
      host: '127.0.0.1',
      logLevel: 'debug',
      logDestination: sink,
      env: { ...process.env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: 'Ops' },
    });
  }, 90_000);
  afterAll(async () => {
    await shop?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('appears in the gateway, orders, catalogue and personalisation logs (PDF build included), in order.paid and persona.ready, and back at the browser', async () => {
    const correlationId = `buy-${Date.now().toString(36)}`;
    const books = (await (await fetch(`${shop.url}/api/books?limit=1`)).json()) as { data: Array<{ _id: string }> };
    const bookId = books.data[0]!._id;

    // The browser sees the id it sent.
    const echoed = await fetch(`${shop.url}/api/books/${bookId}`, { headers: { 'x-correlation-id': correlationId } });
    expect(echoed.headers.get('x-correlation-id')).toBe(correlationId);

    const { personaId } = await buyPersonaThroughApi(shop.url, { bookId, fullName: 'Asha Correlated' }, { 'x-correlation-id': correlationId });

    // Wait until orders has taken persona.ready (the e-mail is queued in the same transaction).
    const deadline = Date.now() + 60_000;
    for (;;) {
      // Polled gently: persona-id lookups are rate limited per client.
      const res = await fetch(`${shop.url}/api/orders/${personaId}`);
      const order = res.ok ? ((await res.json()) as { data: { personalizedPdfUrl: string | null } }) : null;
      if (order?.data.personalizedPdfUrl) break;
      if (Date.now() > deadline) {
        const problems = lines.filter((l) => Number(l.level) >= 40).map((l) => `${String(l.service)}: ${String(l.msg)} ${JSON.stringify(l.err ?? '')}`);
        throw new Error(`the Persona was not ready in time; warnings and errors:\n${problems.join('\n')}`);
      }
      await new Promise((r) => setTimeout(r, 500));
    }

    // The events: the admin audit log records each with its correlation id.
    const login = await fetch(`${shop.url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    const { token } = ((await login.json()) as { data: { token: string } }).data;
    const audited = async () => {
      const res = await fetch(`${shop.url}/api/admin/audit?limit=100`, { headers: { authorization: `Bearer ${token}` } });
      return ((await res.json()) as { data: Array<{ type: string; summary: string; correlationId?: string | null }> }).data.filter((e) =>
        e.summary.includes(personaId),
      );
    };
    let entries = await audited();
    while (!(entries.some((e) => e.type === 'order.paid') && entries.some((e) => e.type === 'persona.ready')) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      entries = await audited();
    }
    expect(
      entries
        .filter((e) => e.type === 'order.paid' || e.type === 'persona.ready')
        .map((e) => [e.type, e.correlationId])
        .sort(),
    ).toEqual([
      ['order.paid', correlationId],
      ['persona.ready', correlationId],
    ]);

    // The logs: every part of the journey wrote lines bound to the id (the e-mail is written just after).
    while (!lines.some((l) => l.correlationId === correlationId && l.msg === 'e-mail written (no SMTP_URL configured)') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const ours = lines.filter((l) => l.correlationId === correlationId);
    const from = (service: string) => ours.filter((l) => l.service === service);
    const messages = (service: string) => from(service).map((l) => l.msg);

    expect(
      from('gateway')
        .filter((l) => l.msg === 'request')
        .map((l) => l.url),
    ).toEqual(expect.arrayContaining([`/api/books/${bookId}`, '/api/payments/initiate', '/api/payments/test-mode/pay', '/api/payments/verify']));
    expect(
      from('orders')
        .filter((l) => l.msg === 'request')
        .map((l) => l.url),
    ).toEqual(expect.arrayContaining(['/api/payments/initiate', '/api/payments/verify']));
    // orders reads the price (in paise), personalisation reads the source: both calls carry the id to the catalogue.
    expect(
      from('catalogue')
        .filter((l) => l.msg === 'request')
        .map((l) => l.url),
    ).toEqual(expect.arrayContaining([`/api/books/${bookId}`, `/internal/books/${bookId}/checkout`, `/internal/books/${bookId}/source`]));
    expect(messages('personalization')).toEqual(expect.arrayContaining(['making persona', 'pdf built', 'persona ready']));
    const pdfLine = from('personalization').find((l) => l.msg === 'pdf built')!;
    expect(pdfLine).toMatchObject({ personaId, eventType: 'order.paid' });
    expect(typeof pdfLine.pdfWorker).toBe('number'); // written on a worker thread, relayed with the job's id
    expect(messages('orders')).toEqual(expect.arrayContaining(['persona ready on the order; e-mail queued', 'e-mail written (no SMTP_URL configured)']));
    // The bus handled both events under the same id.
    const handled = ours.filter((l) => l.msg === 'event handled').map((l) => `${String(l.queue)} ${String(l.eventType)}`);
    expect(handled).toEqual(
      expect.arrayContaining(['personalization.orders order.paid', 'orders.personas persona.ready', 'admin.audit order.paid', 'admin.audit persona.ready']),
    );
  }, 120_000);

  it('shows the purchase on /metrics: request latency everywhere, personas made, outbox lag and queue depth', async () => {
    const scrape = async (base: string) => {
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      return res.text();
    };
    const gateway = await scrape(shop.url);
    expect(gateway).toMatch(/^http_request_duration_seconds_count\{method="POST",route="\/api\/\*",status_code="200"\} [1-9]/m);

    const personalization = await scrape(shop.upstreams.personalization);
    expect(personalization).toMatch(/^personas_made_total 1$/m);
    expect(personalization).toMatch(/^personas_failed_total 0$/m);
    expect(personalization).toMatch(/^persona_pdf_build_seconds_count\{outcome="ok"\} 1$/m);
    expect(personalization).toMatch(/^bus_queue_messages\{queue="personalization.orders",state="ready"\} 0$/m);

    const orders = await scrape(shop.upstreams.orders);
    expect(orders).toMatch(/^http_request_duration_seconds_count\{method="POST",route="\/api\/payments\/verify",status_code="200"\} 1$/m);
    expect(orders).toMatch(/^bus_queue_messages\{queue="orders.personas",state="dead"\} 0$/m);
    for (const text of [orders, personalization, await scrape(shop.upstreams.catalogue), await scrape(shop.upstreams.admin)]) {
      expect(text).toMatch(/^outbox_unpublished_events \d+$/m);
      expect(text).toMatch(/^outbox_lag_seconds [0-9.e-]+$/m);
    }
    expect(await scrape(shop.upstreams.admin)).toMatch(/^bus_queue_messages\{queue="admin.audit",state="ready"\} \d+$/m);
  });
});
