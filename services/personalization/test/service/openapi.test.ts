import { recordRoutes, routeSchemaProblems } from '@persona/test-kit';
import { startServiceOn } from '../support/service-on';

describe("the personalisation service's routes", () => {
  it('each has request and response schemas: the OpenAPI document describes every one', async () => {
    const { built: started, routes } = await recordRoutes(() => startServiceOn('pglite'));
    try {
      expect(routes.length).toBeGreaterThan(10);
      expect(routeSchemaProblems(routes)).toEqual([]);
    } finally {
      await started.close();
    }
  });
});
