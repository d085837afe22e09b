// The pages' reads of the API through the shared cache: never a throw, whatever the cache or the
// service holds. A stored entry or a fetched answer that is not JSON is a failed answer (502),
// which the page, and the sitemap, show as their normal error state, never the bare app.
import http from 'node:http';
import type { ServiceApp } from '@persona/service-kit';
import { ApiReader, type ApiResult } from '../../../src/modules/pages/api-reader';
import type { StorefrontRenderer } from '../../../src/modules/pages/storefront-bundle';
import { SharedCache } from '../../../src/modules/proxy/shared-cache';
import { gatewayOver } from '../../support/gateway-over';

const BOOK_ID = '2b1c7a52-6f3e-4f7e-9d1a-0c6e5b4a3f21';
const BOOK = { data: { _id: BOOK_ID, title: 'The Backwaters Ledger', author: 'Anjali Menon', description: 'A mystery set in Kochi. '.repeat(40) } };
const CACHED = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=0, must-revalidate, s-maxage=1' };
const IDS = { requestId: 'req-1', correlationId: 'corr-1' };
const NOT_JSON: ApiResult = { ok: false, status: 502, message: 'The catalogue service sent an answer that is not JSON' };

/** The stand-in catalogue: the book, a Vary: Accept answer, and answers marked JSON that are not (text, or nothing). */
function answer(seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }>) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    const body = (() => {
      const route = req.url!.split('?')[0];
      if (route === `/api/books/${BOOK_ID}`) return JSON.stringify(BOOK);
      if (route === '/api/books/vary') return JSON.stringify({ data: { accept: req.headers.accept } });
      if (route === '/api/books/empty') return '';
      return 'Service Unavailable';
    })();
    const headers = { ...CACHED, 'content-length': Buffer.byteLength(body), ...(req.url === '/api/books/vary' ? { vary: 'Accept' } : {}) };
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}

/**
 * A stand-in for the storefront's server bundle (apps/storefront/src/entry-server.tsx) that
 * shows a failed answer as its book page does: 404 for a missing book, else "We couldn't load
 * this book" with the answer's message, noindex.
 */
const RENDERER: StorefrontRenderer = {
  PAGE_DATA_ELEMENT_ID: 'persona-page-data',
  scriptJson: (value) => JSON.stringify(value).replace(/</g, '\\u003c'),
  preloadPages: async () => undefined,
  pageModule: () => 'src/book-page.tsx',
  routeQueries: (pathname) => (pathname.startsWith('/book/') ? [`/books/${pathname.slice('/book/'.length)}`] : []),
  render: (url, data) => {
    const answer = data[`/books/${url.split('?')[0]!.slice('/book/'.length)}`]!;
    if (answer.ok) {
      const { title } = (answer.data as typeof BOOK).data;
      return { html: `<h1>${title}</h1>`, head: `<title>${title}</title>`, status: 200 };
    }
    const head = '<title>Book not found | Persona Books</title><meta name="robots" content="noindex" />';
    if (answer.status === 404) return { html: '<h1>Book not found</h1>', head, status: 404 };
    return { html: `<h1>We couldn't load this book</h1><p>${answer.message}</p>`, head, status: 200 };
  },
};

describe('ApiReader', () => {
  const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }> = [];
  let upstream: http.Server;
  let base: string;

  beforeAll(async () => {
    upstream = http.createServer(answer(seen));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });
  beforeEach(() => {
    seen.length = 0;
  });

  it('answers a stored entry that is not JSON with a failed answer (502), never a throw', async () => {
    const cache = new SharedCache();
    // Whole for what it says it is (text), so kept: the proxy stores what a service marks shareable.
    expect(cache.store('/api/books/text', 200, { ...CACHED, 'content-type': 'text/plain' }, Buffer.from('Service Unavailable'))).toBe(true);
    const reader = new ApiReader({ upstreams: { catalogue: base }, cache });
    await expect(reader.answer('/books/text', IDS)).resolves.toEqual({ result: NOT_JSON, text: null });
    expect(seen).toEqual([]);
  });

  it.each([
    ['text marked as JSON', '/books/not-json'],
    ['an empty body marked as JSON', '/books/empty'],
  ])('answers %s from the service with a failed answer (502) and keeps nothing: the next read asks again', async (_label, path) => {
    const cache = new SharedCache();
    const reader = new ApiReader({ upstreams: { catalogue: base }, cache });
    for (let i = 0; i < 2; i += 1) await expect(reader.answer(path, IDS)).resolves.toEqual({ result: NOT_JSON, text: null });
    expect(cache.get(`/api${path}`)).toBeUndefined();
    expect(seen.map((s) => s.url)).toEqual([`/api${path}`, `/api${path}`]);
  });

  it('asks for the identity body, and reads an answer that varies by Accept back only with its own Accept', async () => {
    const cache = new SharedCache();
    const reader = new ApiReader({ upstreams: { catalogue: base }, cache });
    const first = await reader.read('/books/vary', IDS);
    expect(first).toEqual({ ok: true, data: { data: { accept: 'application/json' } } });
    expect(seen[0]!.headers['accept-encoding']).toBe('identity');
    // Stored for what the reader asks with: a browser's Accept is another request.
    expect(cache.get('/api/books/vary', { accept: 'application/json' })).toBeDefined();
    expect(cache.get('/api/books/vary', { accept: 'text/html,*/*' })).toBeUndefined();
    await expect(reader.read('/books/vary', IDS)).resolves.toEqual(first);
    expect(seen).toHaveLength(1);
  });
});

describe('pages read through the shared cache', () => {
  const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }> = [];
  let gateway: ServiceApp;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ gateway, close } = await gatewayOver(answer(seen), {
      indexHtml:
        '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Persona Books</title><!--app-head--></head><body><div id="root"></div></body></html>',
      renderer: RENDERER,
    }));
  });
  afterAll(() => close());

  const pageData = (html: string) => JSON.parse(/<script type="application\/json" id="persona-page-data">([\s\S]*?)<\/script>/.exec(html)![1]!) as unknown;

  it("renders a book's page with the book after a HEAD on its API address (issue 21: the bare app, and a SyntaxError)", async () => {
    const head = await gateway.inject({ method: 'HEAD', url: `/api/books/${BOOK_ID}` });
    expect(head.statusCode).toBe(200);
    const page = await gateway.inject({ url: `/book/${BOOK_ID}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>The Backwaters Ledger</title>');
    expect(page.body).not.toContain('<title>Persona Books</title>');
    expect(page.body).toContain('<div id="root"><h1>The Backwaters Ledger</h1></div>');
  });

  it('renders the page its normal error state, on every view, when the book’s answer is not JSON', async () => {
    for (let i = 0; i < 2; i += 1) {
      const page = await gateway.inject({ url: '/book/not-json' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['x-page-cache']).toBe('BYPASS');
      expect(page.body).toContain("<h1>We couldn't load this book</h1><p>The catalogue service sent an answer that is not JSON</p>");
      expect(page.body).toContain('<title>Book not found | Persona Books</title><meta name="robots" content="noindex" />');
      expect(page.body).not.toContain('<title>Persona Books</title>');
      expect(pageData(page.body)).toEqual({ '/books/not-json': NOT_JSON });
    }
  });

  it('answers the sitemap 503 with a message, on every request, when the listing is not JSON', async () => {
    for (let i = 0; i < 2; i += 1) {
      const res = await gateway.inject({ url: '/sitemap.xml' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ statusCode: 503, message: 'The catalogue service sent an answer that is not JSON' });
    }
  });
});
