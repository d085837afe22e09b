import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { describeWithRedis, mintAdminToken, TEST_JWT_SECRET, TEST_REDIS_URL } from '@persona/test-kit';
import Redis from 'ioredis';
import { buildGateway } from '../src/app';
import type { ServiceApp } from '@persona/service-kit';

const BOOK_ID = '2b1c7a52-6f3e-4f7e-9d1a-0c6e5b4a3f21';
const EVIL_ID = '3c2d8b63-7a4f-4a8f-8e2b-1d7f6c5b4a32';
const ADMIN_INDEX = `<!doctype html><html lang="en"><head><meta name="robots" content="noindex, nofollow" /><title>Admin | Persona Books</title></head><body><div id="root"></div><script type="module" src="/admin/assets/index-def456.js"></script></body></html>`;
const BIG_PAGE = { data: Array.from({ length: 40 }, (_, i) => ({ _id: `book-${i}`, title: `A title of book ${i}`, author: 'An author' })) };
const BIG_JS = 'export const line = "a line of the bundle";\n'.repeat(400);
/** Stands for the storefront's inline paint-first loader (apps/storefront/src/boot/paint-first.ts). */
const LOADER = 'document.documentElement.dataset.loader="1"';
const LOADER_HASH = `'sha256-${createHash('sha256').update(LOADER).digest('base64')}'`;
const INDEX = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Persona Books</title><meta name="description" content="Default" /><link rel="stylesheet" crossorigin href="/assets/index-abc123.css"><!--app-head--></head><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script><script data-entry="/assets/index-abc123.js">${LOADER}</script></body></html>`;
const CSS = 'body{margin:0}.book{color:#312e81}';
/** The book page's own stylesheet (the cover's is left unreadable: it stays a link). */
const PAGE_CSS = '.book-page{display:grid}';

/**
 * A stand-in for the storefront's server bundle (apps/storefront/src/entry-server.tsx, whose own
 * tests render the real pages): enough to prove what the gateway does around it.
 */
const FAKE_RENDERER = `
const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const PAGES = ['/', '/books', '/faqs', '/read/abc', '/shipping'];
exports.PAGE_DATA_ELEMENT_ID = 'persona-page-data';
exports.scriptJson = (v) => JSON.stringify(v).replace(/</g, '\\\\u003c');
exports.preloadPages = async () => { exports.preloaded = true; };
exports.pageModule = (p) => (p.startsWith('/book/') ? 'src/book-page.tsx' : 'src/other-page.tsx');
exports.routeQueries = (p, search) => (p.startsWith('/book/') ? ['/books/' + p.slice(6)] : p === '/books' ? ['/books' + (search ? '?' + search : '')] : []);
exports.render = (url, data, origin) => {
  const path = url.split('?')[0];
  if (path === '/shipping') throw new Error('a render that fails');
  if (path.startsWith('/book/')) {
    const answer = data['/books/' + path.slice(6)];
    if (!answer.ok) return { html: '<h1>Book not found</h1>', head: '<title>Book not found | Persona Books</title><meta name="robots" content="noindex" />', status: 404 };
    return { html: '<h1>' + esc(answer.data.data.title) + '</h1>', head: '<title>' + esc(answer.data.data.title) + '</title><link rel="canonical" href="' + origin + path + '" />', status: 200 };
  }
  if (!PAGES.includes(path)) return { html: '<h1>Oops! Page not found</h1>', head: '<title>Page not found</title><meta name="robots" content="noindex" />', status: 404 };
  return { html: '<p>page ' + esc(path) + '</p>', head: null, status: 200 };
};
`;
const MANIFEST = {
  'index.html': { file: 'assets/index-abc123.js', isEntry: true, css: ['assets/index-abc123.css'], imports: ['_shared-1.js'] },
  '_shared-1.js': { file: 'assets/shared-1.js' },
  '_cover-1.js': { file: 'assets/cover-1.js', css: ['assets/cover-1.css'] },
  'src/book-page.tsx': { file: 'assets/book-page-1.js', css: ['assets/book-page-1.css'], imports: ['_shared-1.js', '_cover-1.js'] },
};

interface Seen {
  method: string;
  url: string;
  headers: Record<string, unknown>;
  body: string;
}

/** What the stand-in catalogue answers for BOOK_ID (a test changes it to see pages follow). */
const BOOK = { title: 'The Backwaters Ledger' };

async function startUpstream(): Promise<{ app: FastifyInstance; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const app = Fastify();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.all('/*', async (request, reply) => {
    seen.push({ method: request.method, url: request.url, headers: request.headers, body: (request.body as string) ?? '' });
    if (request.url === '/readyz') return { status: 'ready' };
    if (request.url.startsWith(`/api/books/${BOOK_ID}`)) {
      return {
        data: {
          _id: BOOK_ID,
          title: BOOK.title,
          author: 'Anjali Menon',
          description: `A mystery set in Kochi. ${'Long text. '.repeat(30)}`,
          coverImage: { url: '/api/files/covers/x.jpg' },
        },
      };
    }
    if (request.url.startsWith(`/api/books/${EVIL_ID}`)) {
      return { data: { _id: EVIL_ID, title: '</title><script>alert(1)</script>', author: 'A "quoted" author', description: '<b>bold</b>', coverImage: null } };
    }
    if (request.url.startsWith('/api/books/')) return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: 'Book not found' });
    reply.header('x-upstream', 'catalogue');
    return reply.status(request.method === 'POST' ? 201 : 200).send({ data: { echoed: request.url } });
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, seen };
}

describe('gateway', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let dir: string;
  let adminDir: string;
  let gateway: ServiceApp;

  const build = (extra: Partial<Parameters<typeof buildGateway>[0]> = {}) =>
    buildGateway({
      upstreams: { catalogue: upstream.url },
      jwtSecret: TEST_JWT_SECRET,
      storefrontDir: dir,
      adminAppDir: adminDir,
      publicUrl: 'https://shop.example',
      rateLimitMax: 0,
      ...extra,
    });

  beforeAll(async () => {
    upstream = await startUpstream();
    dir = await mkdtemp(path.join(os.tmpdir(), 'storefront-'));
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'index.html'), INDEX);
    await writeFile(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    await writeFile(path.join(dir, 'assets', 'index-abc123.css'), CSS);
    await writeFile(path.join(dir, 'assets', 'book-page-1.css'), PAGE_CSS);
    // What the build's precompress plugin writes beside a large asset.
    await writeFile(path.join(dir, 'assets', 'big-abc123.js'), BIG_JS);
    await writeFile(path.join(dir, 'assets', 'big-abc123.js.br'), brotliCompressSync(BIG_JS));
    await writeFile(path.join(dir, 'assets', 'big-abc123.js.gz'), gzipSync(BIG_JS));
    await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await mkdir(path.join(dir, 'server'));
    await writeFile(path.join(dir, 'server', 'entry-server.cjs'), FAKE_RENDERER);
    await mkdir(path.join(dir, '.vite'));
    await writeFile(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    adminDir = await mkdtemp(path.join(os.tmpdir(), 'admin-app-'));
    await mkdir(path.join(adminDir, 'assets'));
    await writeFile(path.join(adminDir, 'index.html'), ADMIN_INDEX);
    await writeFile(path.join(adminDir, 'assets', 'index-def456.js'), 'console.log("admin")');
    await writeFile(path.join(adminDir, 'assets', 'big-def456.js'), BIG_JS);
    await writeFile(path.join(adminDir, 'assets', 'big-def456.js.br'), brotliCompressSync(BIG_JS));
    gateway = await build();
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.app.close();
    await rm(dir, { recursive: true, force: true });
    await rm(adminDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    upstream.seen.length = 0;
  });

  describe('the API proxy', () => {
    it('passes a public read to the owning service with ids and the query', async () => {
      const res = await gateway.inject({ url: '/api/books?search=tagore&page=2', headers: { 'x-request-id': 'req-1', 'x-correlation-id': 'corr-1' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { echoed: '/api/books?search=tagore&page=2' } });
      expect(res.headers['x-upstream']).toBe('catalogue');
      expect(upstream.seen[0].headers).toMatchObject({ 'x-request-id': 'req-1', 'x-correlation-id': 'corr-1' });
    });

    it('echoes the correlation id to the browser, its own or the one it was sent', async () => {
      const chosen = await gateway.inject({ url: '/api/books', headers: { 'x-correlation-id': 'checkout-7' } });
      expect(chosen.headers['x-correlation-id']).toBe('checkout-7');
      const own = await gateway.inject({ url: '/api/books' });
      expect(own.headers['x-correlation-id']).toEqual(own.headers['x-request-id']);
      expect(upstream.seen[1]!.headers['x-correlation-id']).toBe(own.headers['x-request-id']);
    });

    it.each(['/api/books/../../metrics', '/api/books/%2e%2e/%2e%2e/metrics', '/api/books/..%2f..%2fmetrics', '/api/metrics'])(
      'never lets %s reach a service’s /metrics',
      async (url) => {
        const res = await gateway.inject({ url });
        // Refused, or normalised to the gateway's own /metrics; never proxied.
        expect(res.statusCode).toBeLessThan(500);
        expect(upstream.seen).toEqual([]);
      },
    );

    it('streams a multipart body through untouched for an admin', async () => {
      const body = '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nZoë\r\n--b--\r\n';
      const res = await gateway.inject({
        method: 'POST',
        url: '/api/books',
        payload: body,
        headers: { 'content-type': 'multipart/form-data; boundary=b', authorization: `Bearer ${mintAdminToken()}` },
      });
      expect(res.statusCode).toBe(201);
      expect(upstream.seen[0].body).toBe(body);
    });

    it.each([
      ['no token', {}],
      ['a token signed by another key', { authorization: `Bearer ${mintAdminToken({ secret: 'x'.repeat(40) })}` }],
      ['an expired token', { authorization: `Bearer ${mintAdminToken({ expiresAt: 1000 })}` }],
    ])('refuses an admin write with %s before it reaches the service', async (_label, headers) => {
      const res = await gateway.inject({ method: 'DELETE', url: `/api/books/${BOOK_ID}`, headers });
      expect(res.statusCode).toBe(401);
      expect(upstream.seen).toHaveLength(0);
    });

    it('answers unknown API paths with a JSON 404 and unbuilt services with 503', async () => {
      const unknown = await gateway.inject({ url: '/api/nothing' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe('Route GET /api/nothing not found');
      const notYet = await gateway.inject({ url: '/api/orders/PRS-1' });
      expect(notYet.statusCode).toBe(503);
      expect(notYet.json().message).toBe('This part of the shop is not available yet');
    });

    it('refuses a body over the limit with 413', async () => {
      const res = await gateway.inject({
        method: 'POST',
        url: '/api/categories',
        payload: 'x'.repeat(1024 * 1024 + 1),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${mintAdminToken()}` },
      });
      expect(res.statusCode).toBe(413);
      expect(upstream.seen).toHaveLength(0);
    });

    it('answers 503 with a clear message when the service is down', async () => {
      const down = await build({ upstreams: { catalogue: 'http://127.0.0.1:1' } });
      const res = await down.inject({ url: '/api/books' });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe('The catalogue service is unavailable, please try again shortly');
      expect((await down.inject({ url: '/readyz' })).statusCode).toBe(503);
      await down.close();
    });
  });

  describe('the storefront', () => {
    it.each(['/', '/books', '/faqs', '/read/abc'])('renders %s on the server with 200', async (url) => {
      const res = await gateway.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain(`<div id="root"><p>page ${url}</p></div>`);
      // A page without head tags of its own keeps the site's default title and description.
      expect(res.body).toContain('<title>Persona Books</title>');
      expect(res.body).toContain('content="Default"');
      expect(res.body).not.toContain('noindex');
    });

    it('puts the page, its head, its chunks and the answers it was rendered with into the HTML', async () => {
      const res = await gateway.inject({ url: `/book/${BOOK_ID}` });
      expect(res.statusCode).toBe(200);
      const head = res.body.slice(0, res.body.indexOf('</head>'));
      expect(head).toContain('<title>The Backwaters Ledger</title>');
      expect(head.match(/<title>/g)).toHaveLength(1);
      expect(head).not.toContain('content="Default"');
      expect(head).toContain(`<link rel="canonical" href="https://shop.example/book/${BOOK_ID}" />`);
      // The page's own chunks and styles, not what index.html already loads.
      expect(head).toContain('<link rel="modulepreload" crossorigin href="/assets/book-page-1.js">');
      expect(head).toContain('<link rel="modulepreload" crossorigin href="/assets/cover-1.js">');
      // The page's stylesheet is written into the page; the disabled link beside it (never fetched)
      // tells the browser's chunk loader it is there. One that cannot be read stays a link.
      expect(head).toContain(`<style>${PAGE_CSS}</style><link rel="stylesheet" crossorigin href="/assets/book-page-1.css" disabled>`);
      expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/cover-1.css">');
      expect(head).not.toContain('shared-1.js');
      expect(res.body).toContain('<div id="root"><h1>The Backwaters Ledger</h1></div>');
      const data = JSON.parse(/<script type="application\/json" id="persona-page-data">([\s\S]*?)<\/script>/.exec(res.body)![1]!);
      expect(data[`/books/${BOOK_ID}`]).toMatchObject({ ok: true, data: { data: { _id: BOOK_ID, title: 'The Backwaters Ledger' } } });
      // The data was read from the catalogue with the page request's ids.
      const read = upstream.seen.find((s) => s.url === `/api/books/${BOOK_ID}`)!;
      expect(read.headers['x-request-id']).toBe(res.headers['x-request-id']);
    });

    it('writes the site stylesheet into the page (a disabled link marks it), and compresses the page as the browser accepts', async () => {
      const br = await gateway.inject({ url: `/book/${BOOK_ID}`, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      const html = brotliDecompressSync(br.rawPayload).toString();
      // Written in, with only the never-fetched marker left of its link.
      expect(html).toContain(`<style>${CSS}</style><link rel="stylesheet" crossorigin href="/assets/index-abc123.css" disabled>`);
      expect(html.match(/href="\/assets\/index-abc123\.css"/g)).toHaveLength(1);
      expect(html).toContain('<h1>The Backwaters Ledger</h1>');
      const gz = await gateway.inject({ url: `/book/${BOOK_ID}`, headers: { 'accept-encoding': 'gzip' } });
      expect(gunzipSync(gz.rawPayload).toString()).toBe(html);
      const plain = await gateway.inject({ url: `/book/${BOOK_ID}` });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(html);
    });

    it('keeps a rendered page by its data: the same answers give the same page without a render, changed ones a new page', async () => {
      const page = (encoding?: string) => gateway.inject({ url: `/book/${BOOK_ID}?from=cache-test`, headers: encoding ? { 'accept-encoding': encoding } : {} });
      const first = await page('br');
      const again = await page('br');
      expect([first.headers['x-page-cache'], again.headers['x-page-cache']]).toEqual(['MISS', 'HIT']);
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
      expect(again.headers['content-encoding']).toBe('br');
      expect(again.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(again.headers['cache-control']).toBe('no-cache');
      // Each coding is its own page.
      expect((await page('gzip')).headers['x-page-cache']).toBe('MISS');
      expect(gunzipSync((await page('gzip')).rawPayload).toString()).toBe(brotliDecompressSync(first.rawPayload).toString());
      // The catalogue's answer changes: the next view is rendered anew with it.
      BOOK.title = 'The Backwaters Ledger, revised';
      try {
        const changed = await page('br');
        expect(changed.headers['x-page-cache']).toBe('MISS');
        expect(brotliDecompressSync(changed.rawPayload).toString()).toContain('<h1>The Backwaters Ledger, revised</h1>');
        expect((await page('br')).headers['x-page-cache']).toBe('HIT');
      } finally {
        BOOK.title = 'The Backwaters Ledger';
      }
      expect(brotliDecompressSync((await page('br')).rawPayload).toString()).toContain('<h1>The Backwaters Ledger</h1>');
    });

    it('never keeps a page rendered with a failed answer', async () => {
      const missing = '/book/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
      const answers = [await gateway.inject({ url: missing }), await gateway.inject({ url: missing })];
      expect(answers.map((a) => [a.statusCode, a.headers['x-page-cache']])).toEqual([
        [404, 'BYPASS'],
        [404, 'BYPASS'],
      ]);
    });

    it('keeps the answers script inert whatever the data holds', async () => {
      const res = await gateway.inject({ url: `/book/${EVIL_ID}` });
      const body = res.body.slice(res.body.indexOf('<div id="root">'));
      expect(body).not.toContain('<script>alert(1)</script>');
      expect(body).toContain('&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
      // The answers, the entry and the loader: nothing the data held closed a script.
      expect(body.match(/<\/script>/g)).toHaveLength(3);
    });

    it('answers an unknown page or book with the status the page chose, and noindex', async () => {
      for (const url of ['/about', '/book/0b1c7a52-6f3e-4f7e-9d1a-0c6e5b4a3f20']) {
        const res = await gateway.inject({ url });
        expect(res.statusCode).toBe(404);
        expect(res.body).toContain('<meta name="robots" content="noindex" />');
      }
      const missing = await gateway.inject({ url: '/book/0b1c7a52-6f3e-4f7e-9d1a-0c6e5b4a3f20' });
      expect(JSON.parse(/id="persona-page-data">([\s\S]*?)<\/script>/.exec(missing.body)![1]!)).toEqual({
        '/books/0b1c7a52-6f3e-4f7e-9d1a-0c6e5b4a3f20': { ok: false, status: 404, message: 'Book not found' },
      });
    });

    it('sends the page to render in the browser when the server render fails', async () => {
      const res = await gateway.inject({ url: '/shipping' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).not.toContain('persona-page-data');
    });

    it('without a server bundle, sends every page to render in the browser (unknown ones 404 noindex)', async () => {
      const bare = await build({ renderer: null });
      const page = await bare.inject({ url: `/book/${BOOK_ID}` });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<div id="root"></div>');
      const unknown = await bare.inject({ url: '/about' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toContain('<meta name="robots" content="noindex" />');
      await bare.close();
    });

    it('tells crawlers what to leave alone and where the sitemap is', async () => {
      const res = await gateway.inject({ url: '/robots.txt' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.body).toContain('User-agent: *\nAllow: /\n');
      for (const path of ['/admin', '/checkout', '/api', '/send-persona']) expect(res.body).toContain(`Disallow: ${path}\n`);
      expect(res.body).toContain('Sitemap: https://shop.example/sitemap.xml');
    });

    it('never serves the server bundle or the build manifest', async () => {
      expect((await gateway.inject({ url: '/server/entry-server.cjs' })).statusCode).toBe(404);
      expect((await gateway.inject({ url: '/.vite/manifest.json' })).statusCode).toBe(404);
    });

    it('serves hashed assets for a year and other files briefly', async () => {
      const asset = await gateway.inject({ url: '/assets/index-abc123.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const icon = await gateway.inject({ url: '/favicon.svg' });
      expect(icon.headers['cache-control']).toBe('public, max-age=300');
      expect((await gateway.inject({ url: '/assets/missing.js' })).statusCode).toBe(404);
    });

    it("sends the build's Brotli or gzip copy as the browser accepts, and the file itself otherwise", async () => {
      const br = await gateway.inject({ url: '/assets/big-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_JS);
      expect(br.rawPayload.length).toBeLessThan(BIG_JS.length / 10);

      const gz = await gateway.inject({ url: '/assets/big-abc123.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(BIG_JS);

      const plain = await gateway.inject({ url: '/assets/big-abc123.js', headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(BIG_JS);

      // A small asset has no copies: it is sent as it is, whatever the browser accepts.
      const small = await gateway.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(small.body).toBe('console.log(1)');

      // The copies themselves are not addresses of their own.
      expect((await gateway.inject({ url: '/assets/big-abc123.js.br' })).statusCode).toBe(404);
      expect((await gateway.inject({ url: '/admin/assets/big-def456.js.br' })).statusCode).toBe(404);
    });
  });

  describe('the admin app', () => {
    it.each(['/admin', '/admin/', '/admin/login', '/admin/books/2b1c7a52-6f3e-4f7e-9d1a-0c6e5b4a3f21/edit', '/admin/orders?status=shipped'])(
      'serves %s as the admin SPA (history fallback), never indexed',
      async (url) => {
        const res = await gateway.inject({ url });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(res.body).toBe(ADMIN_INDEX);
        expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      },
    );

    it('serves its own hashed assets, and a missing one is a 404, not the HTML', async () => {
      const asset = await gateway.inject({ url: '/admin/assets/index-def456.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.body).toBe('console.log("admin")');
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const missing = await gateway.inject({ url: '/admin/assets/old-chunk.js' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toContain('not found');
      expect((await gateway.inject({ url: '/admin/index.html' })).body).toBe(ADMIN_INDEX);
    });

    it('sends its assets compressed as the build wrote them', async () => {
      const res = await gateway.inject({ url: '/admin/assets/big-def456.js', headers: { 'accept-encoding': 'br' } });
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(BIG_JS);
    });

    it('keeps the two apps apart: the storefront never answers with the admin HTML, nor the admin with the storefront', async () => {
      expect((await gateway.inject({ url: '/books' })).body).not.toContain('Admin | Persona Books');
      expect((await gateway.inject({ url: '/assets/index-def456.js' })).statusCode).toBe(404);
      expect((await gateway.inject({ url: '/administrator' })).statusCode).toBe(404);
    });

    it('refuses to start when the admin app is not built, naming the fix', async () => {
      await expect(build({ adminAppDir: path.join(adminDir, 'nope') })).rejects.toThrow(/admin app is not built.*ADMIN_APP_DIR/);
    });
  });

  describe('hardening', () => {
    it('sends security headers and a content security policy', async () => {
      const res = await gateway.inject({ url: '/' });
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      // The template's inline loader runs by its hash, and no other inline script may.
      const scriptSrc = /script-src ([^;]*)/.exec(res.headers['content-security-policy'] as string)![1]!.split(' ');
      expect(scriptSrc).toEqual(["'self'", 'https://checkout.razorpay.com', 'https://api.razorpay.com', LOADER_HASH]);
      expect(res.body).toContain(`<script data-entry="/assets/index-abc123.js">${LOADER}</script>`);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    });

    it("lets the pages load the configured ad network's origins, and only the pages", async () => {
      const withAds = await build({ adOrigins: ['https://pagead2.googlesyndication.com', 'https://googleads.g.doubleclick.net'] });
      try {
        const policy = (await withAds.inject({ url: '/' })).headers['content-security-policy'] as string;
        for (const directive of ['script-src', 'img-src', 'connect-src', 'frame-src']) {
          const sources = new RegExp(`${directive} ([^;]*)`).exec(policy)![1]!.split(' ');
          expect(sources).toEqual(expect.arrayContaining(['https://pagead2.googlesyndication.com', 'https://googleads.g.doubleclick.net']));
        }
        expect((await withAds.inject({ url: '/api/books' })).headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      } finally {
        await withAds.close();
      }
    });

    it('sends API answers the REST set: nothing in them may run or be framed', async () => {
      for (const url of ['/api/books', '/api/nothing-here']) {
        const res = await gateway.inject({ url });
        expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
        expect(res.headers['x-frame-options']).toBe('DENY');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
        expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
        expect(res.headers['referrer-policy']).toBe('no-referrer');
        expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
      }
    });

    it('keeps CORS closed by default and open to configured origins', async () => {
      const closed = await gateway.inject({ url: '/api/books', headers: { origin: 'https://evil.example' } });
      expect(closed.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await gateway.inject({
        method: 'OPTIONS',
        url: '/api/orders/initiate',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
      const open = await build({ corsOrigins: ['https://partner.example'] });
      const res = await open.inject({ url: '/api/books', headers: { origin: 'https://partner.example' } });
      expect(res.headers['access-control-allow-origin']).toBe('https://partner.example');
      await open.close();
    });

    it('rate limits a client with a clear 429', async () => {
      const limited = await build({ rateLimitMax: 3 });
      const answers = [];
      for (let i = 0; i < 4; i += 1) answers.push(await limited.inject({ url: '/api/books' }));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 429]);
      // The limit's headers go with the refusal, not with every answer.
      expect(answers[0]!.headers['x-ratelimit-limit']).toBeUndefined();
      expect(answers[3]!.headers['x-ratelimit-limit']).toBe('3');
      expect(Number(answers[3]!.headers['retry-after'])).toBeGreaterThan(0);
      const res = await limited.inject({ url: '/api/books' });
      expect(res.json().message).toMatch(/^Too many requests; please try again in \d+ seconds$/);
      await limited.close();
    });

    describeWithRedis()('with REDIS_URL (issue 25)', () => {
      it('counts a client once across two gateways, so two gateways never double the limit', async () => {
        const [a, b] = [await build({ rateLimitMax: 3, redisUrl: TEST_REDIS_URL }), await build({ rateLimitMax: 3, redisUrl: TEST_REDIS_URL })];
        // A client of this run alone (the counts outlive the test by their minute).
        const remoteAddress = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;
        const redis = new Redis(TEST_REDIS_URL);
        try {
          await redis.del(`persona:rl:gateway:${remoteAddress}`);
          const answers = [];
          for (const gw of [a, b, a, b]) answers.push((await gw!.inject({ url: '/api/books', remoteAddress })).statusCode);
          expect(answers).toEqual([200, 200, 200, 429]);
        } finally {
          await redis.del(`persona:rl:gateway:${remoteAddress}`);
          await redis.quit();
          await a!.close();
          await b!.close();
        }
      });
    });

    it('serves its own /metrics: request latency by route pattern in the Prometheus format', async () => {
      await gateway.inject({ url: '/api/books?page=1' });
      const res = await gateway.inject({ url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(res.body).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/api\/\*",status_code="200"\} \d+$/m);
      expect(upstream.seen.map((s) => s.url)).toEqual(['/api/books?page=1']);
    });

    it('guards /metrics with METRICS_TOKEN when one is set', async () => {
      const guarded = await build({ metricsToken: 'scrape-me-please-123' });
      expect((await guarded.inject({ url: '/metrics' })).statusCode).toBe(401);
      expect((await guarded.inject({ url: '/metrics', headers: { authorization: 'Bearer scrape-me-please-123' } })).statusCode).toBe(200);
      await guarded.close();
    });

    it('aggregates readiness of the services', async () => {
      const res = await gateway.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(200);
      expect(res.json().checks).toEqual({ catalogue: 'ok' });
    });
  });
});

describe('the shared cache for public reads', () => {
  let hits = 0;
  let version = 1;
  let upstreamUrl: string;
  let upstream: FastifyInstance;
  let gateway: ServiceApp;
  let dir: string;

  beforeAll(async () => {
    upstream = Fastify();
    upstream.get('/api/books', async (request: FastifyRequest<{ Querystring: { page?: string } }>, reply) => {
      hits += 1;
      const etag = '"v1-abc"';
      reply.header('etag', etag).header('cache-control', 'public, max-age=0, must-revalidate, s-maxage=1');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      if (request.query.page === 'big') return BIG_PAGE;
      return { data: [{ title: `answer ${hits}` }] };
    });
    upstream.get('/api/categories', async () => {
      hits += 1;
      return { data: [] };
    });
    upstream.put('/api/books/:id', async () => {
      version += 1;
      return { data: { updated: true } };
    });
    upstream.get('/api/books/:id', async (request: FastifyRequest<{ Querystring: { long?: string } }>, reply) => {
      hits += 1;
      // `?long`: kept 30 s, so only an invalidation (not the answer's age) makes the next read a miss.
      reply.header('cache-control', `public, max-age=0, must-revalidate, s-maxage=${request.query.long ? 30 : 1}`);
      return { data: { price: 100 * version } };
    });
    const url = await upstream.listen({ port: 0, host: '127.0.0.1' });
    upstreamUrl = url;
    dir = await mkdtemp(path.join(os.tmpdir(), 'storefront-'));
    await writeFile(path.join(dir, 'index.html'), INDEX);
    gateway = await buildGateway({
      upstreams: { catalogue: url },
      jwtSecret: TEST_JWT_SECRET,
      storefrontDir: dir,
      adminAppDir: dir,
      publicUrl: 'http://x',
      rateLimitMax: 0,
    });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    hits = 0;
  });

  it('serves a repeat read marked s-maxage from the cache, then refreshes after it expires', async () => {
    const first = await gateway.inject({ url: '/api/books?page=1' });
    const second = await gateway.inject({ url: '/api/books?page=1' });
    expect(first.headers['x-cache']).toBe('MISS');
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe('"v1-abc"');
    expect(hits).toBe(1);
    await new Promise((r) => setTimeout(r, 1100));
    const third = await gateway.inject({ url: '/api/books?page=1' });
    expect(third.headers['x-cache']).toBe('MISS');
    expect(hits).toBe(2);
  });

  it('sends a cached text answer compressed to clients that take it, with a weak entity tag', async () => {
    const miss = await gateway.inject({ url: '/api/books?page=big', headers: { 'accept-encoding': 'br' } });
    expect(miss.headers['content-encoding']).toBeUndefined();
    const plain = JSON.stringify(BIG_PAGE);
    expect(miss.body).toBe(plain);
    // The copies are made off the event loop; the next hits find them.
    let br = await gateway.inject({ url: '/api/books?page=big', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    for (let i = 0; i < 50 && br.headers['content-encoding'] !== 'br'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      br = await gateway.inject({ url: '/api/books?page=big', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    }
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers.etag).toBe('W/"v1-abc"');
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain);
    const gz = await gateway.inject({ url: '/api/books?page=big', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain);
    const identity = await gateway.inject({ url: '/api/books?page=big' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers.etag).toBe('"v1-abc"');
    expect(identity.body).toBe(plain);
    // Revalidating with the weak tag of the compressed copy still answers 304.
    const revalidated = await gateway.inject({ url: '/api/books?page=big', headers: { 'accept-encoding': 'br', 'if-none-match': 'W/"v1-abc"' } });
    expect(revalidated.statusCode).toBe(304);
    expect(hits).toBe(1);
  });

  it('still counts cache hits against the rate limit', async () => {
    const limited = await buildGateway({
      upstreams: { catalogue: upstreamUrl },
      jwtSecret: TEST_JWT_SECRET,
      storefrontDir: dir,
      adminAppDir: dir,
      publicUrl: 'http://x',
      rateLimitMax: 2,
    });
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await limited.inject({ url: '/api/books?page=limited' }));
    expect(answers.map((a) => [a.statusCode, a.headers['x-cache']])).toEqual([
      [200, 'MISS'],
      [200, 'HIT'],
      [429, undefined],
    ]);
    await limited.close();
  });

  it('answers If-None-Match from the cache with 304', async () => {
    await gateway.inject({ url: '/api/books?page=2' });
    const res = await gateway.inject({ url: '/api/books?page=2', headers: { 'if-none-match': '"v1-abc"' } });
    expect(res.statusCode).toBe(304);
    expect(hits).toBe(1);
  });

  it("forgets the owner's answers on a write through it, so the writer's next read shows the change", async () => {
    const url = '/api/books/2b1c7a52-6f3e-4f7e-9d1a-0c6e5b4a3f21';
    expect((await gateway.inject({ url })).json()).toEqual({ data: { price: 100 * version } });
    expect((await gateway.inject({ url })).headers['x-cache']).toBe('HIT');
    await gateway.inject({ url: '/api/books?page=9' });
    const write = await gateway.inject({ method: 'PUT', url, payload: { price: 200 }, headers: { authorization: `Bearer ${mintAdminToken()}` } });
    expect(write.statusCode).toBe(200);
    const after = await gateway.inject({ url });
    expect(after.headers['x-cache']).toBe('MISS');
    expect(after.json()).toEqual({ data: { price: 100 * version } });
    expect((await gateway.inject({ url: '/api/books?page=9' })).headers['x-cache']).toBe('MISS');
  });

  describeWithRedis()('with REDIS_URL, between gateways (issue 25)', () => {
    const other = () =>
      buildGateway({
        upstreams: { catalogue: upstreamUrl },
        jwtSecret: TEST_JWT_SECRET,
        storefrontDir: dir,
        adminAppDir: dir,
        publicUrl: 'http://x',
        rateLimitMax: 0,
        redisUrl: TEST_REDIS_URL,
      });
    const until = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 100 && !(await check()); i += 1) await new Promise((r) => setTimeout(r, 10));
    };

    it("forgets the owner's answers in every gateway on a write through any of them", async () => {
      const [a, b] = [await other(), await other()];
      try {
        const book = '/api/books/2b1c7a52-6f3e-4f7e-9d1a-0c6e5b4a3f21';
        const url = `${book}?long=write`;
        for (const gw of [a, b]) await gw.inject({ url });
        expect([(await a.inject({ url })).headers['x-cache'], (await b.inject({ url })).headers['x-cache']]).toEqual(['HIT', 'HIT']);
        const write = await a.inject({ method: 'PUT', url: book, payload: { price: 300 }, headers: { authorization: `Bearer ${mintAdminToken()}` } });
        expect(write.statusCode).toBe(200);
        // The writer's gateway forgot before answering; the other hears it through Redis.
        expect((await a.inject({ url })).headers['x-cache']).toBe('MISS');
        let seen: unknown;
        await until(async () => (seen = (await b.inject({ url })).headers['x-cache']) === 'MISS');
        expect(seen).toBe('MISS');
        expect((await b.inject({ url })).json()).toEqual({ data: { price: 100 * version } });
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('forgets everything when its subscription was cut, as messages may have been lost meanwhile', async () => {
      const a = await other();
      const redis = new Redis(TEST_REDIS_URL);
      try {
        const url = '/api/books/2b1c7a52-6f3e-4f7e-9d1a-0c6e5b4a3f21?long=resync';
        await a.inject({ url });
        expect((await a.inject({ url })).headers['x-cache']).toBe('HIT');
        await redis.client('KILL', 'TYPE', 'pubsub');
        let seen: unknown;
        await until(async () => (seen = (await a.inject({ url })).headers['x-cache']) === 'MISS');
        expect(seen).toBe('MISS');
      } finally {
        await redis.quit();
        await a.close();
      }
    });
  });

  it('never serves or stores a request with credentials, nor an answer not marked for shared caches', async () => {
    await gateway.inject({ url: '/api/books?page=3', headers: { authorization: `Bearer ${mintAdminToken()}` } });
    await gateway.inject({ url: '/api/books?page=3', headers: { authorization: `Bearer ${mintAdminToken()}` } });
    expect(hits).toBe(2);
    await gateway.inject({ url: '/api/categories' });
    await gateway.inject({ url: '/api/categories' });
    expect(hits).toBe(4);
  });
});
