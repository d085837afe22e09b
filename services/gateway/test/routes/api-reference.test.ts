import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { DataEnvelope, ErrorBody, IdParams, NoQuery } from '@persona/contracts';
import { createServiceApp, type ServiceApp } from '@persona/service-kit';
import { openApiDocumentProblems, recordRoutes, routeSchemaProblems, TEST_JWT_SECRET } from '@persona/test-kit';
import { API_DOCS_CSP, buildGateway } from '../../src/app';

/** A catalogue as the gateway sees one: a public read, an admin write and an internal route. */
async function catalogue(): Promise<ServiceApp> {
  const app = createServiceApp({ name: 'catalogue', logger: false });
  await app.register(async (scope) => {
    const Shelf = Type.Object({ title: Type.String() });
    scope.get('/api/books/:id', { schema: { params: IdParams, querystring: NoQuery, response: { 200: DataEnvelope(Shelf), 404: ErrorBody } } }, async () => ({
      data: { title: 'Gitanjali' },
    }));
    scope.delete('/api/books/:id', { schema: { params: IdParams, querystring: NoQuery, response: { 200: DataEnvelope(Shelf) } } }, async () => ({
      data: { title: 'Gitanjali' },
    }));
    scope.get('/internal/books/:id/source', { schema: { params: IdParams, querystring: NoQuery, response: { 200: DataEnvelope(Shelf) } } }, async () => ({
      data: { title: 'Gitanjali' },
    }));
  });
  let reads = 0;
  app.addHook('onRequest', async (request) => {
    if (request.url === '/openapi.json') reads += 1;
  });
  app.decorate('documentReads', () => reads);
  return app;
}

describe("the gateway's API reference", () => {
  let upstream: ServiceApp;
  let dir: string;
  let gateway: ServiceApp;
  let routes: Parameters<typeof routeSchemaProblems>[0];

  beforeAll(async () => {
    upstream = await catalogue();
    const base = await upstream.listen({ port: 0, host: '127.0.0.1' });
    dir = await mkdtemp(path.join(os.tmpdir(), 'gateway-docs-'));
    await writeFile(path.join(dir, 'index.html'), '<!doctype html><html><head></head><body><div id="root"></div></body></html>');
    ({ built: gateway, routes } = await recordRoutes(() =>
      // The orders service is configured but not running: its part of the document is missing.
      gatewayOver({ catalogue: base, orders: 'http://127.0.0.1:1' }),
    ));
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A gateway in front of `upstreams`, its pages from the test's folder. */
  function gatewayOver(upstreams: Parameters<typeof buildGateway>[0]['upstreams']) {
    return buildGateway({
      upstreams,
      jwtSecret: TEST_JWT_SECRET,
      storefrontDir: dir,
      adminAppDir: dir,
      publicUrl: 'https://shop.example',
      rateLimitMax: 0,
      renderer: null,
    });
  }

  it('answers 503 naming a service whose part is missing, never a document without its routes', async () => {
    const res = await gateway.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'DOCUMENT_UNAVAILABLE', message: expect.stringContaining('orders service') });
  });

  describe('with every service answering', () => {
    let only: ServiceApp;
    beforeAll(async () => {
      only = await gatewayOver({ catalogue: `http://127.0.0.1:${(upstream.server.address() as { port: number }).port}` });
    });
    afterAll(() => only.close());

    it('publishes one valid OpenAPI 3.1 document of the routes the gateway routes, admin ones tagged, read once for many requests', async () => {
      const before = (upstream as unknown as { documentReads(): number }).documentReads();
      const [res, again] = await Promise.all([
        only.inject({ method: 'GET', url: '/api/openapi.json' }),
        only.inject({ method: 'GET', url: '/api/openapi.json' }),
      ]);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(again.json()).toEqual(res.json());
      expect((upstream as unknown as { documentReads(): number }).documentReads() - before).toBe(1);
      const doc = res.json();
      expect(await openApiDocumentProblems(doc)).toEqual({ version: '3.1', problems: [] });
      // Only what a client of the gateway can call: no /internal, no service's health or metrics.
      expect(Object.keys(doc.paths)).toEqual(['/api/books/{id}', '/api/openapi.json']);
      expect(doc.paths['/api/books/{id}'].get.tags).toEqual(['books']);
      expect(doc.paths['/api/books/{id}'].delete).toMatchObject({ tags: ['books', 'admin'], security: [{ adminToken: [] }] });
      expect(doc.tags).toEqual(expect.arrayContaining([{ name: 'admin', description: expect.stringContaining('/api/admin/login') }]));
      expect(doc.components.securitySchemes.adminToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    });

    it('serves the reference page from its own files, under a policy with no inline script, reading the same document', async () => {
      const page = await only.inject({ method: 'GET', url: '/api/docs/' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self';");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("connect-src 'self'");
      expect(Object.keys(API_DOCS_CSP)).toContain('frameAncestors');
      // Every script is a file of this gateway; none is inline, none from another origin.
      const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attributes, inline] of scripts) {
        expect(attributes).toMatch(/src="\.\/static\/[\w.-]+\.js"/);
        expect(inline!.trim()).toBe('');
      }
      expect(page.body).not.toMatch(/https?:\/\//);
      const bundle = await only.inject({ method: 'GET', url: '/api/docs/static/swagger-ui-bundle.js' });
      expect(bundle.statusCode).toBe(200);
      expect(bundle.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
      const spec = await only.inject({ method: 'GET', url: '/api/docs/json' });
      expect(spec.json()).toEqual((await only.inject({ method: 'GET', url: '/api/openapi.json' })).json());
      // The API's own answers keep the API's policy.
      expect((await only.inject({ method: 'GET', url: '/api/openapi.json' })).headers['content-security-policy']).toBe(
        "default-src 'none';frame-ancestors 'none'",
      );
    });
  });

  it('gives every route of its API (and its own health and metrics) request and response schemas', () => {
    // Not API: the pages and files (the storefront's, the admin app's, the reference page's), and the
    // proxy, whose operations are the services' own (each service's test holds them to the same rule).
    const api = routes.filter((route) => /^\/api\/(?!docs(\/|$)|\*$)|^\/(healthz|readyz|metrics)$/.test(route.url));
    expect(api.map((r) => r.url)).toEqual(expect.arrayContaining(['/api/openapi.json', '/healthz']));
    expect(routeSchemaProblems(api)).toEqual([]);
  });
});
