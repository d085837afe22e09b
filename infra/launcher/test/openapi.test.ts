// The public API's OpenAPI document as the embedded shop serves it: every service's routes, read
// from the services as they run, put together by the gateway, valid OpenAPI 3.1.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { API_OWNERS } from '@persona/contracts';
import { openApiDocumentProblems } from '@persona/test-kit';
import { startShop } from '../src/start-shop';

describe("the embedded shop's API document", () => {
  let dataDir: string;
  let shop: Awaited<ReturnType<typeof startShop>>;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'persona-openapi-'));
    shop = await startShop({ dataDir, port: 0, host: '127.0.0.1', env: { SEED_DEMO: 'false', RATE_LIMIT_MAX: '0' } });
  }, 90_000);
  afterAll(async () => {
    await shop?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("is valid OpenAPI 3.1 holding every service's public routes, and no route the gateway does not route", async () => {
    const res = await fetch(`${shop.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, Record<string, { tags?: string[]; security?: unknown }>> };
    expect(await openApiDocumentProblems(doc)).toEqual({ version: '3.1', problems: [] });
    const paths = Object.keys(doc.paths);
    // Each owner's prefix has its operations (the table is the gateway's routing).
    for (const prefix of Object.keys(API_OWNERS))
      expect({ prefix, described: paths.some((p) => p === prefix || p.startsWith(`${prefix}/`)) }).toEqual({ prefix, described: true });
    expect(paths.filter((p) => !p.startsWith('/api/'))).toEqual([]);
    expect(doc.paths['/api/payments/initiate']!.post).toBeDefined();
    expect(doc.paths['/api/admin/login']!.post!.security).toBeUndefined();
    expect(doc.paths['/api/admin/me']!.get).toMatchObject({ tags: ['admin'], security: [{ adminToken: [] }] });
    // The services' own descriptions hold their internal routes; the public one never does.
    const catalogue = (await (await fetch(`${shop.upstreams.catalogue}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(catalogue.paths)).toContain('/internal/books/{id}/source');
  }, 60_000);
});
