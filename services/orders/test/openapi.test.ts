import { recordRoutes, routeSchemaProblems } from '@persona/test-kit';
import { startOrdersHarness } from './support';

describe("the orders service's routes", () => {
  it('each has request and response schemas: the OpenAPI document describes every one', async () => {
    const { built: harness, routes } = await recordRoutes(() => startOrdersHarness('pglite'));
    try {
      expect(routes.length).toBeGreaterThan(20);
      // The test-mode stand-in's /v1 routes are Razorpay's API as it speaks it, not the shop's.
      expect(routeSchemaProblems(routes.filter((route) => !route.url.startsWith('/v1/')))).toEqual([]);
    } finally {
      await harness.close();
    }
  });
});
