import { createAdminVerifier } from '@persona/service-kit';
import { recordRoutes, routeSchemaProblems, TEST_JWT_SECRET } from '@persona/test-kit';
import { buildApp } from '../../src/app';
import { startHarness, type Harness } from '../support';

describe("the catalogue's routes", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('each has request and response schemas, the internal ones too: the OpenAPI document describes every one', async () => {
    const internalToken = 'i'.repeat(32);
    const { built: app, routes } = await recordRoutes(() =>
      buildApp({ db: h.database.db, storage: h.storage, verifier: createAdminVerifier({ secret: TEST_JWT_SECRET }), internalToken }),
    );
    try {
      expect(routes.map((r) => r.url)).toContain('/internal/books/:id/source');
      expect(routeSchemaProblems(routes)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
