// The public API's reference: its OpenAPI document at /api/openapi.json and Swagger UI over it at
// /api/docs (assets from the package, never a CDN; app.ts gives these pages their own policy).
import swaggerUi from '@fastify/swagger-ui';
import { ErrorBody, NoQuery, OpenApiDocument } from '@persona/contracts';
import type { ServiceApp } from '@persona/service-kit';
import type { PublicDocument } from '../modules/openapi/public-document';

export const API_DOCS_PREFIX = '/api/docs';

export default async function apiReferenceRoutes(app: ServiceApp, options: { document: PublicDocument }) {
  const { document } = options;
  app.get(
    '/api/openapi.json',
    {
      schema: {
        tags: ['reference'],
        summary: 'This document: every route of the public API',
        querystring: NoQuery,
        response: { 200: OpenApiDocument, 503: ErrorBody },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return document.read();
    },
  );

  await app.register(swaggerUi, {
    routePrefix: API_DOCS_PREFIX,
    theme: { title: 'Persona Books API' },
    // Never swagger.io's online validator: the page calls nothing but this gateway.
    validatorUrl: false,
    // BaseLayout: no top bar, whose Swagger logo is an SVG with an inline <style> the policy refuses.
    uiConfig: { layout: 'BaseLayout', deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0 },
    // The page's spec is the public document, read (or taken fresh from the cache) just before.
    uiHooks: {
      preHandler: (request, _reply, done) => {
        if (!/\/(json|yaml)$/.test(request.routeOptions.url ?? '')) return done();
        document.read().then(() => done(), done);
      },
    },
    transformSpecification: () => document.current ?? {},
    transformSpecificationClone: false,
  });
}
