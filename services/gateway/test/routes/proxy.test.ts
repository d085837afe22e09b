// The proxy over real sockets, where fetch would tidy up what an attacker (or
// curl) sends: Expect: 100-continue, chunked bodies over the limit, broken
// %-escapes and ".." segments. Nothing of it may reach a service or become a 5xx.
// And its shared cache against an upstream that answers exactly as told (a HEAD,
// every other method, Vary, a content coding, a body cut short or not JSON): only a
// whole answer to a GET is kept, and every read gets the whole answer.
import http from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { TEST_JWT_SECRET } from '@persona/test-kit';
import type { ServiceApp } from '@persona/service-kit';
import { buildGateway } from '../../src/app';
import { bodyLimitFor } from '../../src/modules/proxy/upstreams';
import { gatewayOver } from '../support/gateway-over';

const MB = 1024 * 1024;

interface Answer {
  status: number;
  body: { message?: string; code?: string };
}

function send(port: number, options: { method?: string; path: string; headers?: Record<string, string>; chunks?: Buffer[]; body?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers };
    if (options.chunks) headers['transfer-encoding'] = 'chunked';
    else if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    let answered = false;
    const req = http.request({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        answered = true;
        resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : {} });
        req.destroy();
      });
    });
    req.on('error', (err) => (answered ? undefined : reject(err)));
    const write = async () => {
      for (const chunk of options.chunks ?? []) {
        if (answered) return;
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
      }
      req.end(options.body);
    };
    if (/100-continue/.test(headers.expect ?? '')) req.once('continue', () => void write());
    else void write();
  });
}

describe('the proxy over real sockets', () => {
  const seen: Array<{ url: string; headers: http.IncomingHttpHeaders; bytes: number }> = [];
  let upstream: FastifyInstance;
  let gateway: ServiceApp;
  let dir: string;
  let port: number;

  beforeAll(async () => {
    upstream = Fastify({ bodyLimit: 100 * MB });
    upstream.removeAllContentTypeParsers();
    upstream.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    upstream.all('/*', async (request, reply) => {
      seen.push({ url: request.url, headers: request.headers, bytes: (request.body as Buffer | undefined)?.length ?? 0 });
      return reply.status(201).send({ data: 'ok' });
    });
    const upstreamUrl = await upstream.listen({ port: 0, host: '127.0.0.1' });
    dir = await mkdtemp(path.join(os.tmpdir(), 'proxy-hardening-'));
    await writeFile(path.join(dir, 'index.html'), '<!doctype html><html><head><!--app-head--></head><body><div id="root"></div></body></html>');
    gateway = await buildGateway({
      upstreams: { catalogue: upstreamUrl, orders: upstreamUrl, admin: upstreamUrl, personalization: upstreamUrl },
      jwtSecret: TEST_JWT_SECRET,
      storefrontDir: dir,
      adminAppDir: dir,
      publicUrl: 'https://shop.example',
      rateLimitMax: 0,
    });
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    port = (gateway.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    seen.length = 0;
  });

  it('answers Expect: 100-continue itself and passes the body on without it (undici refuses the header: a 503)', async () => {
    const body = JSON.stringify({ email: 'reader@example.com', padding: 'x'.repeat(4096) });
    const res = await send(port, {
      method: 'POST',
      path: '/api/newsletter/subscribe',
      headers: { 'content-type': 'application/json', expect: '100-continue' },
      body,
    });
    expect(res.status).toBe(201);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.expect).toBeUndefined();
    expect(seen[0]!.bytes).toBe(Buffer.byteLength(body));
  });

  it('counts a chunked body as it streams and answers 413 past the limit, not a 503', async () => {
    const chunks = Array.from({ length: 5 }, () => Buffer.alloc(256 * 1024, 0x20));
    const res = await send(port, { method: 'POST', path: '/api/feedback', headers: { 'content-type': 'application/json' }, chunks });
    expect(res).toEqual({ status: 413, body: expect.objectContaining({ message: 'The request body is too large', code: 'PAYLOAD_TOO_LARGE' }) });
    expect(seen.filter((s) => s.bytes > MB)).toEqual([]);
    // A chunked body under the limit still goes through whole.
    const small = await send(port, {
      method: 'POST',
      path: '/api/feedback',
      headers: { 'content-type': 'application/json' },
      chunks: [Buffer.from('{"a":'), Buffer.from('1}')],
    });
    expect(small.status).toBe(201);
    expect(seen.at(-1)!.bytes).toBe(7);
  });

  it.each([
    ['a broken %-escape in the query', '/api/books?search=%E0%A4%A', 'The address is not valid: it has a broken %-escape'],
    ['a lone % in the query', '/api/books?search=%', 'The address is not valid: it has a broken %-escape'],
    ['a raw .. segment', '/api/files/covers/../../etc/passwd', 'The address is not valid: its path may not contain ".." segments or "\\"'],
    ['an encoded ../', '/api/files/..%2f..%2fetc%2fpasswd', 'The address is not valid: its path may not contain ".." segments or "\\"'],
    ['a double-encoded ../', '/api/files/..%252f..%252fetc%252fpasswd', 'The address is not valid: its path may not contain ".." segments or "\\"'],
    ['encoded dots', '/api/books/%2e%2e/%2e%2e/admin/audit', 'The address is not valid: its path may not contain ".." segments or "\\"'],
    ['a backslash', '/api/files/covers/..%5c..%5cwin.ini', 'The address is not valid: its path may not contain ".." segments or "\\"'],
  ])('refuses %s with 400 and sends nothing on', async (_label, url, message) => {
    const res = await send(port, { path: url });
    expect(res).toEqual({ status: 400, body: expect.objectContaining({ message }) });
    expect(seen).toEqual([]);
  });

  it("keeps the big limits for multipart uploads only, and the webhook at the orders service's 256 KB", () => {
    const form = 'multipart/form-data; boundary=x';
    expect(bodyLimitFor('POST', '/api/books', form)).toBe(64 * MB);
    expect(bodyLimitFor('PUT', '/api/books/1', form)).toBe(64 * MB);
    expect(bodyLimitFor('POST', '/api/personas/verify', form)).toBe(11 * MB);
    expect(bodyLimitFor('POST', '/api/personas/leaks', form)).toBe(41 * MB);
    expect(bodyLimitFor('POST', '/api/personas/leaks', 'application/json')).toBe(MB);
    expect(bodyLimitFor('POST', '/api/books', 'application/json')).toBe(MB);
    expect(bodyLimitFor('POST', '/api/personas/verify', 'application/json')).toBe(MB);
    expect(bodyLimitFor('POST', '/api/payments/webhook', 'application/json')).toBe(256 * 1024);
    expect(bodyLimitFor('POST', '/api/feedback')).toBe(MB);
  });
});

describe('the shared cache through the proxy', () => {
  const CACHED = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=0, must-revalidate, s-maxage=1' };
  const BOOKS = Array.from({ length: 30 }, (_, i) => ({ _id: `book-${i}`, title: `The Backwaters Ledger, volume ${i}` }));
  const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }> = [];
  let gateway: ServiceApp;
  let close: () => Promise<void>;

  /** What the stand-in catalogue answers: a HEAD the headers of its GET, every other method a cacheable answer of its own. */
  function answer(req: http.IncomingMessage, res: http.ServerResponse) {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    const route = req.url!.split('?')[0];
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const send = (body: Buffer, headers: http.OutgoingHttpHeaders = {}) => {
      res.writeHead(200, { ...CACHED, etag: `"${body.length}"`, 'content-length': body.length, ...headers });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const json = JSON.stringify({ data: BOOKS, method });
    switch (route) {
      case '/api/books/lang':
        return send(Buffer.from(JSON.stringify({ language: req.headers['accept-language'] ?? null })), { vary: 'Accept-Language' });
      case '/api/books/coded': // gzip when asked for it, as a service with compression would
        return /gzip/.test(req.headers['accept-encoding'] ?? '')
          ? send(gzipSync(json), { 'content-encoding': 'gzip', vary: 'Accept-Encoding' })
          : send(Buffer.from(json), { vary: 'Accept-Encoding' });
      case '/api/books/always-coded':
        return send(gzipSync(json), { 'content-encoding': 'gzip' });
      case '/api/books/empty':
        return send(Buffer.alloc(0));
      case '/api/books/huge': // more than the cache keeps (512 KB), JSON that parses
        return send(Buffer.from(JSON.stringify({ data: 'x'.repeat(600 * 1024) })));
      case '/api/books/invalid':
        return send(Buffer.from(json.slice(0, 40)));
      case '/api/books/cut-short':
        // Promises more than it sends, then the socket closes.
        res.writeHead(200, { ...CACHED, 'content-length': json.length + 100 });
        res.write(json);
        return setTimeout(() => res.socket?.destroy(), 20);
      case '/api/books/destroyed':
        // Chunked, and the stream torn down before its last chunk.
        res.writeHead(200, CACHED);
        res.write(json.slice(0, 100));
        return setTimeout(() => res.destroy(), 20);
      default:
        return send(Buffer.from(json));
    }
  }

  const read = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => gateway.inject({ method, url, headers });
  const upstreamSaw = (url: string) => seen.filter((s) => s.url === url).map((s) => s.method);

  beforeAll(async () => {
    ({ gateway, close } = await gatewayOver(answer, {
      indexHtml: '<!doctype html><html><head><!--app-head--></head><body><div id="root"></div></body></html>',
      renderer: null,
    }));
  });
  afterAll(() => close());

  it('answers a GET after a HEAD with the whole body (issue 21: the HEAD filled the cache with its empty one)', async () => {
    const url = '/api/books?case=head-then-get';
    const head = await read(url, {}, 'HEAD');
    const get = await read(url);
    expect(get.statusCode).toBe(200);
    expect(get.headers['x-cache']).toBe('MISS');
    expect(get.json()).toEqual({ data: BOOKS, method: 'GET' });
    expect(Number(get.headers['content-length'])).toBe(get.rawPayload.length);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    // The GET's answer is the one kept: the next read is served it, whole.
    const hit = await read(url);
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.body).toBe(get.body);
    expect(upstreamSaw(url)).toEqual(['HEAD', 'GET']);
  });

  it("answers a HEAD with a GET's status and headers, the whole body's content-length and no body: passed on (nothing kept) on a miss, from the stored GET on a hit", async () => {
    const url = '/api/books?case=head';
    const misses = [await read(url, {}, 'HEAD'), await read(url, {}, 'HEAD')];
    const get = await read(url);
    const hit = await read(url, {}, 'HEAD');
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(get.rawPayload.length).toBeGreaterThan(1000);
    for (const head of [...misses, hit]) {
      expect(head.statusCode).toBe(200);
      expect(head.rawPayload.length).toBe(0);
      for (const name of ['content-length', 'content-type', 'cache-control', 'etag'])
        expect({ name, value: head.headers[name] }).toEqual({ name, value: get.headers[name] });
    }
    expect(upstreamSaw(url)).toEqual(['HEAD', 'HEAD', 'GET']);
  });

  it('lets no method but GET fill the cache: after a HEAD, POST, PUT, PATCH, DELETE or OPTIONS the next GET asks upstream and gets its own whole answer', async () => {
    for (const method of ['HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
      const url = `/api/tags?case=${method}`;
      const other = await gateway.inject({ method, url });
      expect({ method, status: other.statusCode }).toEqual({ method, status: 200 });
      const get = await read(url);
      expect({ method, cache: get.headers['x-cache'], body: get.json() as unknown }).toEqual({ method, cache: 'MISS', body: { data: BOOKS, method: 'GET' } });
      expect(Number(get.headers['content-length'])).toBe(get.rawPayload.length);
      expect(upstreamSaw(url)).toEqual([method, 'GET']);
    }
  });

  it('keeps an answer for the request headers its Vary names: the same value hits, another (or none) asks upstream', async () => {
    const url = '/api/books/lang?case=vary';
    const en = await read(url, { 'accept-language': 'en' });
    const enAgain = await read(url, { 'accept-language': 'en' });
    const fr = await read(url, { 'accept-language': 'fr' });
    const none = await read(url);
    const noneAgain = await read(url);
    expect([en, enAgain, fr, none, noneAgain].map((r) => [r.headers['x-cache'], r.json()])).toEqual([
      ['MISS', { language: 'en' }],
      ['HIT', { language: 'en' }],
      ['MISS', { language: 'fr' }],
      ['MISS', { language: null }],
      ['HIT', { language: null }],
    ]);
    // A hit tells caches after the gateway what it varies by too.
    expect(enAgain.headers.vary).toBe('Accept-Encoding, accept-language');
    expect(upstreamSaw(url)).toEqual(['GET', 'GET', 'GET']);
  });

  it('asks the service for the identity body, so what it keeps (and codes itself) is never a coded body sent as plain', async () => {
    const url = '/api/books/coded?case=1';
    const miss = await read(url, { 'accept-encoding': 'gzip' });
    expect(seen.at(-1)!.headers['accept-encoding']).toBe('identity');
    expect(miss.headers['content-encoding']).toBeUndefined();
    expect(miss.json()).toEqual({ data: BOOKS, method: 'GET' });
    const hit = await read(url);
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.headers['content-encoding']).toBeUndefined();
    expect(hit.json()).toEqual({ data: BOOKS, method: 'GET' });
  });

  it('never keeps a body the service coded anyway, and passes it on with its coding', async () => {
    const url = '/api/books/always-coded?case=1';
    for (let i = 0; i < 2; i += 1) {
      const res = await read(url, { 'accept-encoding': 'gzip' });
      expect(res.headers['x-cache']).toBe('MISS');
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(res.rawPayload).toString())).toEqual({ data: BOOKS, method: 'GET' });
    }
    expect(upstreamSaw(url)).toEqual(['GET', 'GET']);
  });

  it.each([
    ['an answer cut short (content-length larger than the body, then the socket closed)', '/api/books/cut-short', 502],
    ['a chunked answer whose stream is destroyed mid-way', '/api/books/destroyed', 502],
    ['an empty body with a JSON type', '/api/books/empty', 200],
    ['JSON that does not parse', '/api/books/invalid', 200],
  ])('never keeps %s: the next GET asks upstream again', async (_label, route, status) => {
    const url = `${route}?case=complete`;
    const answers = [await read(url), await read(url)];
    expect(answers.map((a) => [a.statusCode, a.headers['x-cache']])).toEqual([
      [status, status === 200 ? 'MISS' : undefined],
      [status, status === 200 ? 'MISS' : undefined],
    ]);
    // Cut short: refused as such, never passed on as if it were whole.
    if (status === 502) expect(answers[0]!.json().message).toBe("The catalogue service's answer was cut short, please try again");
    expect(upstreamSaw(url)).toEqual(['GET', 'GET']);
  });

  it('streams an answer longer than the cache keeps, whole, and asks upstream again for the next GET', async () => {
    const url = '/api/books/huge?case=stream';
    const answers = [await read(url), await read(url)];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['x-cache']).toBeUndefined();
      expect(answer.rawPayload.length).toBe(Number(answer.headers['content-length']));
      expect((answer.json() as { data: string }).data).toHaveLength(600 * 1024);
    }
    expect(upstreamSaw(url)).toEqual(['GET', 'GET']);
  });
});
