// Serves the storefront: built assets, and every page rendered on the server with its data
// (DESIGN §11): the storefront's own components, through its server bundle, with the API
// answers the page reads first (fetched here, through the shared cache), which travel along
// so the browser hydrates exactly what it was sent. Unknown pages and books answer 404 with
// noindex. Without a server bundle (or should a render fail) the page goes out as the
// bare app, which renders in the browser.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { matchesPagePattern } from '@persona/contracts';
import type { ServiceApp } from '@persona/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ANY_CODING, compressText, negotiateCoding, type ContentCoding } from '../modules/compression';
import type { ApiReader } from '../modules/pages/api-reader';
import { IndexTemplate } from '../modules/pages/index-template';
import { PageCache } from '../modules/pages/page-cache';
import { PageAssetIndex, type StorefrontRenderer } from '../modules/pages/storefront-bundle';

export interface StorefrontOptions {
  dir: string;
  publicUrl: string;
  template: IndexTemplate;
  renderer: StorefrontRenderer | null;
  reader: ApiReader;
  /** Rendered pages by their data (one per gateway; tests pass their own). */
  pageCache?: PageCache;
}

export function loadIndexTemplate(dir: string): IndexTemplate {
  const file = path.join(dir, 'index.html');
  let html: string;
  try {
    html = readFileSync(file, 'utf8');
  } catch {
    throw new Error(`the storefront is not built: ${file} is missing (run "npm run build", or set STOREFRONT_DIR)`);
  }
  const readAsset = (urlPath: string) => {
    const local = path.join(dir, path.normalize(urlPath).replace(/^([/\\])+/, ''));
    if (!local.startsWith(path.join(dir, path.sep))) return undefined;
    try {
      return readFileSync(local, 'utf8');
    } catch {
      return undefined;
    }
  };
  return new IndexTemplate(html, readAsset);
}

const NOINDEX = '<meta name="robots" content="noindex" />';
const NOT_FOUND_HEAD = '<title>Page not found | Persona Books</title>';

interface EncodedPage {
  status: number;
  body: Buffer | string;
  coding?: ContentCoding;
}

/** A page in the coding the browser takes (pages under 1 KB go as they are). */
async function encodePage(status: number, html: string, coding: ContentCoding | undefined): Promise<EncodedPage> {
  return coding && html.length >= 1024 ? { status, body: await compressText(html, coding), coding } : { status, body: html };
}

function sendPage(reply: FastifyReply, page: EncodedPage): FastifyReply {
  reply.status(page.status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'Accept-Encoding');
  if (page.coding) reply.header('content-encoding', page.coding);
  return reply.send(page.body);
}

const codingOf = (request: FastifyRequest) => negotiateCoding(request.headers['accept-encoding'], ANY_CODING);

/** The page at the request's address, rendered with its data. */
export function createPageHandler(options: StorefrontOptions) {
  const { template, renderer, reader } = options;
  const assets = PageAssetIndex.load(options.dir);
  /** The bare app: the browser renders it (status and noindex still right for unknown pages). */
  const pages = options.pageCache ?? new PageCache();
  const bare = async (request: FastifyRequest, reply: FastifyReply, pathname: string) =>
    sendPage(
      reply,
      matchesPagePattern(pathname)
        ? await encodePage(200, template.render({ head: null }), codingOf(request))
        : await encodePage(404, template.render({ head: NOT_FOUND_HEAD, extraHead: NOINDEX }), codingOf(request)),
    );

  return async (request: FastifyRequest, reply: FastifyReply) => {
    const [pathname = '/', search = ''] = request.url.split('?');
    if (!renderer) return bare(request, reply, pathname);
    try {
      const queries = renderer.routeQueries(pathname, search);
      const ids = { requestId: request.id, correlationId: request.correlationId };
      const answers = await Promise.all(queries.map((query) => reader.answer(query, ids)));
      const coding = codingOf(request);
      const key = PageCache.key(
        request.url,
        coding,
        answers.map((answer) => answer.text),
      );
      const kept = key ? pages.get(key) : undefined;
      if (kept) return sendPage(reply.header('x-page-cache', 'HIT'), kept);
      const data = Object.fromEntries(queries.map((query, i) => [query, answers[i]!.result]));
      const page = renderer.render(request.url, data, options.publicUrl);
      const script = `<script type="application/json" id="${renderer.PAGE_DATA_ELEMENT_ID}">${renderer.scriptJson(data)}</script>`;
      const html = template.render({ head: page.head, assets: assets.assetsFor(renderer.pageModule(pathname)), html: page.html, data: script });
      const encoded = await encodePage(page.status, html, coding);
      if (key) pages.set(key, { status: encoded.status, body: Buffer.from(encoded.body), coding: encoded.coding });
      return sendPage(reply.header('x-page-cache', key ? 'MISS' : 'BYPASS'), encoded);
    } catch (err) {
      request.log.error({ err, url: request.url }, 'server rendering failed; sending the page to render in the browser');
      return bare(request, reply, pathname);
    }
  };
}

export default async function storefrontRoutes(app: ServiceApp, options: StorefrontOptions) {
  await app.register(fastifyStatic, {
    root: options.dir,
    prefix: '/',
    wildcard: false,
    index: false,
    // The build wrote .br and .gz beside each text asset: sent as negotiated, never compressed per request.
    preCompressed: true,
    // The .br/.gz copies are sent in place of their file, never as addresses of their own; the
    // server bundle and the build manifest are the gateway's, not the browser's.
    globIgnore: ['**/*.br', '**/*.gz', 'server/**', '.vite/**'],
    allowedPath: (pathname) => pathname !== '/index.html',
    setHeaders: (res, filePath) => {
      res.header('x-content-type-options', 'nosniff');
      // Vite names assets by content hash, so they never change at a given URL.
      res.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
    },
  });

  const page = createPageHandler(options);
  app.get('/*', (request, reply) => {
    // A missing hashed asset is a 404, not a page (a stale tab asking for an old chunk must fail loudly).
    if (request.url.startsWith('/assets/')) {
      return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: `Route GET ${request.url.split('?')[0]} not found` });
    }
    return page(request, reply);
  });
}

/** The gateway's not-found handler, for what no route takes (other methods on pages): JSON. */
export function storefrontNotFound(request: FastifyRequest, reply: FastifyReply) {
  const pathname = request.url.split('?')[0];
  return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: `Route ${request.method} ${pathname} not found`, requestId: request.id });
}
