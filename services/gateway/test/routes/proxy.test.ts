// The proxy over real sockets, where fetch would tidy up what an attacker (or
// curl) sends: Expect: 100-continue, chunked bodies over the limit, broken
// %-escapes and ".." segments. Nothing of it may reach a service or become a 5xx.
import http from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { TEST_JWT_SECRET } from '@persona/test-kit';
import type { ServiceApp } from '@persona/service-kit';
import { buildGateway } from '../../src/app';
import { bodyLimitFor } from '../../src/modules/proxy/upstreams';

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
