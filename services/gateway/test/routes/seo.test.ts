// The sitemap index and its files, built from the catalogue's sitemap listing.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { TEST_JWT_SECRET } from '@persona/test-kit';
import type { ServiceApp } from '@persona/service-kit';
import { buildGateway } from '../../src/app';

const IDS = ['2b1c7a52-6f3e-4f7e-9d1a-0c6e5b4a3f21', '3c2d8b63-7a4f-4a8f-8e2b-1d7f6c5b4a32'];

describe('sitemaps', () => {
  let upstream: FastifyInstance;
  let gateway: ServiceApp;
  let dir: string;
  let catalogueUp = true;

  beforeAll(async () => {
    upstream = Fastify();
    upstream.addHook('onRequest', async (_request, reply) => {
      if (!catalogueUp) return reply.status(503).send({ statusCode: 503, error: 'Service Unavailable', message: 'resting' });
    });
    upstream.get('/api/books/sitemap', async () => ({
      data: {
        total: 50002,
        perFile: 50000,
        files: [
          { file: 1, lastModified: '2026-11-01T10:00:00.000Z' },
          { file: 2, lastModified: '2026-11-20T08:30:00.000Z' },
        ],
      },
    }));
    upstream.get('/api/books/sitemap/:file', async (request, reply) => {
      const file = Number((request.params as { file: string }).file);
      if (file > 2) return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: 'There is no such sitemap file' });
      return { data: IDS.map((_id, i) => ({ _id, updatedAt: `2026-11-0${i + 1}T00:00:00.000Z` })) };
    });
    upstream.get('/api/tags', async () => ({
      data: [
        { tag: 'poetry & verse', count: 3 },
        { tag: 'fiction', count: 2 },
      ],
      meta: { total: 2, page: 1, limit: 500 },
    }));
    const url = await upstream.listen({ port: 0, host: '127.0.0.1' });
    dir = await mkdtemp(path.join(os.tmpdir(), 'storefront-'));
    await writeFile(path.join(dir, 'index.html'), '<!doctype html><html><head><title>Persona Books</title></head><body><div id="root"></div></body></html>');
    gateway = await buildGateway({
      upstreams: { catalogue: url },
      jwtSecret: TEST_JWT_SECRET,
      storefrontDir: dir,
      adminAppDir: dir,
      publicUrl: 'https://shop.example',
      rateLimitMax: 0,
    });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
  });
  afterEach(() => {
    catalogueUp = true;
  });

  it('/sitemap.xml indexes the pages file and one file per 50,000 books, with their last change', async () => {
    const res = await gateway.inject({ url: '/sitemap.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.body).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        '<sitemap><loc>https://shop.example/sitemaps/pages.xml</loc></sitemap>',
        '<sitemap><loc>https://shop.example/sitemaps/books-1.xml</loc><lastmod>2026-11-01T10:00:00.000Z</lastmod></sitemap>',
        '<sitemap><loc>https://shop.example/sitemaps/books-2.xml</loc><lastmod>2026-11-20T08:30:00.000Z</lastmod></sitemap>',
        '</sitemapindex>',
        '',
      ].join('\n'),
    );
  });

  it('a books file lists each book page with its last change', async () => {
    const res = await gateway.inject({ url: '/sitemaps/books-1.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<url><loc>https://shop.example/book/${IDS[0]}</loc><lastmod>2026-11-01T00:00:00.000Z</lastmod></url>`);
    expect(res.body.match(/<url>/g)).toHaveLength(2);
    expect((await gateway.inject({ url: '/sitemaps/books-3.xml' })).statusCode).toBe(404);
    expect((await gateway.inject({ url: '/sitemaps/books-0.xml' })).statusCode).toBe(404);
    expect((await gateway.inject({ url: '/sitemaps/books-x.xml' })).statusCode).toBe(404);
  });

  it('the pages file lists the public pages, the shelves and the tag pages, escaped', async () => {
    const res = await gateway.inject({ url: '/sitemaps/pages.xml' });
    expect(res.body).toContain('<url><loc>https://shop.example/</loc></url>');
    expect(res.body).toContain('<url><loc>https://shop.example/books?tab=fiction</loc></url>');
    expect(res.body).toContain('<url><loc>https://shop.example/books?tag=poetry+%26+verse</loc></url>');
    expect(res.body).not.toContain('/checkout');
  });

  it('answers 503 while the catalogue cannot list its books', async () => {
    catalogueUp = false;
    expect((await gateway.inject({ url: '/sitemap.xml' })).statusCode).toBe(503);
  });
});
