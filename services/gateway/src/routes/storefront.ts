// Serves the storefront: built assets, and for every other GET the SPA's HTML
// with the page's head (per-book tags on /book/:id; 404 status and noindex on
// paths the storefront does not have).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { matchesPagePattern } from '@persona/contracts';
import type { ServiceApp } from '@persona/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BOOK_NOT_FOUND_HEAD, bookHead, BookHeadSource, NOT_FOUND_HEAD } from '../modules/spa/book-head';
import { IndexTemplate, type PageHead } from '../modules/spa/html';

export type PageSender = (reply: FastifyReply, status: number, head: PageHead | null) => FastifyReply;

export interface StorefrontOptions {
  dir: string;
  publicUrl: string;
  catalogueUrl: string;
  sendPage: PageSender;
}

export function loadIndexTemplate(dir: string): IndexTemplate {
  const file = path.join(dir, 'index.html');
  try {
    return new IndexTemplate(readFileSync(file, 'utf8'));
  } catch {
    throw new Error(`the storefront is not built: ${file} is missing (run "npm run build", or set STOREFRONT_DIR)`);
  }
}

export function createPageSender(template: IndexTemplate): PageSender {
  return (reply, status, head) =>
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(template.render(head));
}

export default async function storefrontRoutes(app: ServiceApp, options: StorefrontOptions) {
  const { sendPage } = options;
  const books = new BookHeadSource(options.catalogueUrl);

  await app.register(fastifyStatic, {
    root: options.dir,
    prefix: '/',
    wildcard: false,
    index: false,
    // The build wrote .br and .gz beside each text asset: sent as negotiated, never compressed per request.
    preCompressed: true,
    // The .br/.gz copies are sent in place of their file, never as addresses of their own.
    globIgnore: ['**/*.br', '**/*.gz'],
    allowedPath: (pathname) => pathname !== '/index.html',
    setHeaders: (res, filePath) => {
      res.header('x-content-type-options', 'nosniff');
      // Vite names assets by content hash, so they never change at a given URL.
      res.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
    },
  });

  app.get('/book/:id', async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const found = await books.lookup(request.params.id);
    if (found.status === 'found') return sendPage(reply, 200, bookHead(found.book, options.publicUrl));
    if (found.status === 'missing') return sendPage(reply, 404, BOOK_NOT_FOUND_HEAD);
    return sendPage(reply, 200, null);
  });
}

/** The gateway's not-found handler: the SPA for browser pages (404 + noindex where the storefront has no such page), JSON for the rest. */
export function storefrontNotFound(sendPage: PageSender) {
  return (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0];
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api/');
    if (!wantsPage) {
      return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: `Route ${request.method} ${pathname} not found`, requestId: request.id });
    }
    return matchesPagePattern(pathname) ? sendPage(reply, 200, null) : sendPage(reply, 404, NOT_FOUND_HEAD);
  };
}
