// For search engines: /robots.txt, and /sitemap.xml as a sitemap index of files of at most
// 50,000 addresses each (sitemaps.org): the shop's pages, its shelves and most used tags, and
// every book with the time it last changed, listed by the catalogue.
import { SITEMAP_URLS_PER_FILE, type ListOf, type SitemapEntry, type SitemapIndex, type TagCount } from '@persona/contracts';
import type { ServiceApp } from '@persona/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiReader, ApiResult } from '../modules/pages/api-reader';
import { escapeHtml } from '../modules/pages/index-template';

export interface SeoOptions {
  publicUrl: string;
  reader: ApiReader;
}

/** Paths crawlers are asked to leave alone: the admin app, buying, the API and a buyer's own pages. */
export const DISALLOWED = ['/admin', '/checkout', '/api', '/send-persona', '/my-personas', '/payment-success', '/payment-failed', '/verify'];
/** The shop's own pages worth finding. */
const PAGES = [
  '/',
  '/books',
  '/books?tab=fiction',
  '/books?tab=non-fiction',
  '/books?tab=self-help',
  '/about-us',
  '/faqs',
  '/shipping',
  '/refund-policy',
  '/privacy-policy',
  '/terms',
  '/contact-us',
];
const TAG_PAGES = 500;
const XML_HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export function robotsTxt(publicUrl: string): string {
  return ['User-agent: *', 'Allow: /', ...DISALLOWED.map((p) => `Disallow: ${p}`), '', `Sitemap: ${publicUrl}/sitemap.xml`, ''].join('\n');
}

function sendXml(reply: FastifyReply, xml: string) {
  // Crawlers come back now and then; an hour old is fresh enough, and spares the catalogue.
  return reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=3600').send(xml);
}

function unavailable(reply: FastifyReply, result: Extract<ApiResult, { ok: false }>) {
  const status = result.status === 404 ? 404 : 503;
  return reply.status(status).send({ statusCode: status, error: status === 404 ? 'Not Found' : 'Service Unavailable', message: result.message });
}

export default async function seoRoutes(app: ServiceApp, options: SeoOptions) {
  const { publicUrl, reader } = options;
  const read = (request: FastifyRequest, path: string) => reader.read(path, { requestId: request.id, correlationId: request.correlationId });

  app.get('/robots.txt', async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(robotsTxt(publicUrl)),
  );

  app.get('/sitemap.xml', async (request, reply) => {
    const index = await read(request, '/books/sitemap');
    if (!index.ok) return unavailable(reply, index);
    const { files } = (index.data as { data: SitemapIndex }).data;
    const entries = [`<sitemap><loc>${escapeHtml(`${publicUrl}/sitemaps/pages.xml`)}</loc></sitemap>`];
    for (const file of files) {
      entries.push(`<sitemap><loc>${escapeHtml(`${publicUrl}/sitemaps/books-${file.file}.xml`)}</loc><lastmod>${file.lastModified}</lastmod></sitemap>`);
    }
    return sendXml(reply, `${XML_HEADER}<sitemapindex xmlns="${NS}">\n${entries.join('\n')}\n</sitemapindex>\n`);
  });

  app.get('/sitemaps/pages.xml', async (request, reply) => {
    const tags = await read(request, `/tags?sort=count&limit=${TAG_PAGES}`);
    const tagPaths = tags.ok ? (tags.data as ListOf<TagCount>).data.map((t) => `/books?${new URLSearchParams({ tag: t.tag }).toString()}`) : [];
    const urls = [...PAGES, ...tagPaths].map((p) => `<url><loc>${escapeHtml(`${publicUrl}${p}`)}</loc></url>`);
    return sendXml(reply, `${XML_HEADER}<urlset xmlns="${NS}">\n${urls.join('\n')}\n</urlset>\n`);
  });

  app.get('/sitemaps/books-:file.xml', async (request: FastifyRequest<{ Params: { file: string } }>, reply) => {
    const file = Number(request.params.file);
    if (!Number.isInteger(file) || file < 1 || file > 10000)
      return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: 'There is no such sitemap file' });
    const books = await read(request, `/books/sitemap/${file}`);
    if (!books.ok) return unavailable(reply, books);
    const urls = (books.data as { data: SitemapEntry[] }).data
      .slice(0, SITEMAP_URLS_PER_FILE)
      .map((b) => `<url><loc>${escapeHtml(`${publicUrl}/book/${b._id}`)}</loc><lastmod>${b.updatedAt}</lastmod></url>`);
    return sendXml(reply, `${XML_HEADER}<urlset xmlns="${NS}">\n${urls.join('\n')}\n</urlset>\n`);
  });
}
