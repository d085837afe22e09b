// Issue 21 on the personalisation service alone: copies sent to be verified (public) or traced
// (administrators) are read on the untrusted-file threads within their budgets. Every bomb of
// the corpus gets its 413 or 422 naming the limit (finding 2: a 51 KB PDF inflating to 50 MB;
// finding 3: a 66 KB EPUB whose entries overlap), nothing is written, the threads are
// replaced, and the service's event loop keeps answering while a bomb is read. A reading past
// its time limit or heap cap is refused (422) and the next one is served; a full queue is a
// 503 with Retry-After.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from '@persona/db';
import { flateBombPdf, HOSTILE_FILES, manyObjectsPdf, mintAdminToken, objectStreamBombPdf, overlappingEntriesEpub, zipOf } from '@persona/test-kit';
import type { UntrustedPoolOptions } from '@persona/untrusted';
import { inlineBuildPool } from '../../src/modules/build-pool/build-pool';
import type { PersonalizationService } from '../../src/service';
import { startTestService } from '../support/test-service';

const MB = 1024 * 1024;
const admin = { authorization: `Bearer ${mintAdminToken()}` };

async function startService(fileChecks: Omit<UntrustedPoolOptions, 'module'>) {
  const { service, stack, close } = await startTestService({ buildPool: inlineBuildPool(), lookupsPerMinute: 10_000, fileChecks });
  const rows = async () =>
    Number((await sql<{ n: string }>`SELECT (SELECT count(*) FROM personas) + (SELECT count(*) FROM outbox) AS n`.execute(stack.database.db)).rows[0]!.n);
  return { service, rows, close };
}

async function send(service: PersonalizationService, route: 'verify' | 'leaks', bytes: Buffer, name: string) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const response = new Response(form);
  return service.app.inject({
    method: 'POST',
    url: `/api/personas/${route}`,
    payload: Buffer.from(await response.arrayBuffer()),
    headers: { ...(route === 'leaks' ? admin : {}), 'content-type': response.headers.get('content-type')! },
  });
}

describe('copies that are bombs, sent to the personalisation service', () => {
  let shop: Awaited<ReturnType<typeof startService>>;
  beforeAll(async () => {
    shop = await startService({ threads: 1, heapMb: 128, timeoutMs: 10_000, maxQueue: 16 });
  }, 60_000);
  afterAll(() => shop.close());

  it('refuses finding 2 (a 51 KB PDF whose object stream inflates to 50 MB) at verify, once 50 MB is past a budget of less', async () => {
    const bomb = objectStreamBombPdf(100 * MB);
    expect(bomb.length).toBeLessThan(120 * 1024);
    const res = await send(shop.service, 'verify', bomb, 'copy.pdf');
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      code: 'UNPACKS_TOO_LARGE',
      message: 'This PDF would have more than 64 MB in one of its parts once unpacked, more than this shop reads',
    });
  });

  it('refuses finding 3 (a 66 KB EPUB of eight entries on one 64 MB stream) at verify and at the leak lookup', async () => {
    for (const route of ['verify', 'leaks'] as const) {
      const res = await send(shop.service, route, overlappingEntriesEpub(), 'copy.epub');
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toMatch(/^This EPUB cannot be read: its entries .* overlap, as only a zip bomb's do$/);
    }
  });

  it.each(HOSTILE_FILES.filter((f) => f.kind !== 'image').map((f) => [f.name, f] as const))(
    '%s gets its refusal from both routes, and nothing is written',
    async (_name, file) => {
      const before = await shop.rows();
      const bytes = file.make();
      for (const route of ['verify', 'leaks'] as const) {
        const res = await send(shop.service, route, bytes, file.name);
        if (file.refusal === null) {
          expect(res.statusCode).toBe(200);
        } else {
          expect([413, 422]).toContain(res.statusCode);
          expect(res.json().code).toBe(file.refusal);
        }
      }
      expect(await shop.rows()).toBe(before);
    },
    30_000,
  );

  it('answers a damaged multipart body 400, on both routes', async () => {
    for (const [url, headers] of [
      ['/api/personas/verify', {}],
      ['/api/personas/leaks', admin],
    ] as const) {
      const res = await shop.service.app.inject({
        method: 'POST',
        url,
        payload: Buffer.from('------x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.7 cut off'),
        headers: { ...headers, 'content-type': 'multipart/form-data; boundary=----x' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'BAD_MULTIPART', message: expect.stringMatching(/^The multipart body is damaged: /) });
    }
  });

  it('keeps answering other requests while a bomb is read, and replaces the thread that read it', async () => {
    const bomb = flateBombPdf(2 * MB);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const reading = send(shop.service, 'verify', bomb, 'bomb.pdf').then((res) => ({ res, ms: performance.now() - started }));
    const answers: number[] = [];
    let done = false;
    void reading.then(() => (done = true));
    while (!done) {
      const t = performance.now();
      expect((await shop.service.app.inject({ url: '/api/personas/public-key' })).statusCode).toBe(200);
      answers.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
    delay.disable();
    const { res, ms } = await reading;
    expect(res.statusCode).toBe(413);
    // The bomb took its thread a good while; the event loop never stopped for anything like it.
    expect(ms).toBeGreaterThan(400);
    expect(answers.length).toBeGreaterThan(5);
    expect(Math.max(...answers)).toBeLessThan(ms / 2);
    expect(delay.max / 1e6).toBeLessThan(ms / 2);
  }, 30_000);
});

/**
 * The next file after one refused at a limit: on a busy machine a limit of half a second may catch
 * even a small file (refused at that limit, nothing kept), so it is sent again, as its sender would,
 * a few times at most; then it must be read.
 */
async function sendNextTo(service: Parameters<typeof send>[0]) {
  let next = await send(service, 'verify', Buffer.from('%PDF-1.4\n%%EOF\n'), 'small.pdf');
  for (let tries = 1; tries < 6 && next.statusCode === 422 && /^(MEMORY_LIMIT|TIME_LIMIT)$/.test(next.json().code); tries += 1) {
    next = await send(service, 'verify', Buffer.from('%PDF-1.4\n%%EOF\n'), 'small.pdf');
  }
  return next;
}

describe('the untrusted-file threads at their limits', () => {
  let shop: Awaited<ReturnType<typeof startService>>;
  beforeAll(async () => {
    shop = await startService({ threads: 1, heapMb: 40, timeoutMs: 500, maxQueue: 0 });
  }, 60_000);
  afterAll(() => shop.close());

  it('refuses a copy whose reading takes past the time limit (within every budget), then serves the next', async () => {
    // Four honest entries of 60 MB each: 240 MB to unpack, under the budget, about a second's work.
    const slow = zipOf([
      { name: 'mimetype', data: Buffer.from('application/epub+zip'), method: 0 },
      ...[1, 2, 3, 4].map((i) => ({ name: `OEBPS/c${i}.xhtml`, data: Buffer.alloc(0), spaces: 60 * MB })),
    ]);
    const res = await send(shop.service, 'verify', slow, 'slow.epub');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'TIME_LIMIT', message: 'This EPUB took longer than 0.5 s to read, more than this shop gives one file' });
    const next = await sendNextTo(shop.service);
    expect(next.json().data).toEqual({ genuine: false, personaId: null, reason: 'This file is not a Persona made by Persona Books' });
  }, 30_000);

  it('refuses a copy whose reading needs more heap than the cap, then serves the next', async () => {
    const res = await send(shop.service, 'verify', manyObjectsPdf(60_000), 'heavy.pdf');
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toMatch(/^(MEMORY_LIMIT|TIME_LIMIT)$/);
    const next = await sendNextTo(shop.service);
    expect(next.statusCode).toBe(200);
  }, 30_000);

  it('answers 503 with Retry-After when its one thread is busy and no copy may wait', async () => {
    const busy = zipOf([
      { name: 'mimetype', data: Buffer.from('application/epub+zip'), method: 0 },
      { name: 'OEBPS/c.xhtml', data: Buffer.alloc(0), spaces: 60 * MB },
    ]);
    const [first, second] = await Promise.all([send(shop.service, 'verify', busy, 'a.epub'), send(shop.service, 'verify', busy, 'b.epub')]);
    const refused = [first, second].find((r) => r.statusCode === 503)!;
    expect(refused).toBeDefined();
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toMatchObject({
      code: 'FILE_CHECKS_BUSY',
      message: 'The shop is checking many files right now: please send this one again in a few seconds',
    });
  }, 30_000);
});
