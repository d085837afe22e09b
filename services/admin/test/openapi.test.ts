import { recordRoutes, routeSchemaProblems } from '@persona/test-kit';
import { startAdminHarness } from './support';

describe("the admin service's routes", () => {
  it('each has request and response schemas: the OpenAPI document describes every one', async () => {
    const { built: harness, routes } = await recordRoutes(() => startAdminHarness('pglite'));
    try {
      expect(routes.length).toBeGreaterThan(10);
      expect(routeSchemaProblems(routes)).toEqual([]);
    } finally {
      await harness.close();
    }
  });
});
