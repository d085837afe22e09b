// Builds the personalisation service's Fastify instance.
import multipart from '@fastify/multipart';
import { baseServiceOptions, createServiceApp, registerRouteRateLimits, sharedLimits, requireAdmin, type ServiceApp } from '@persona/service-kit';
import type { PersonalizationAppOptions, PersonalizationDeps } from './deps';
import dedicationImageRoutes from './routes/dedication-image';
import downloadRoutes from './routes/downloads';
import personaAdminRoutes from './routes/personas-admin';
import personaBuyerRoutes from './routes/personas-buyer';
import personaPublicRoutes from './routes/personas-public';
import publicLogRoutes from './routes/public-log';
import printFileRoutes from './routes/print-files';

export async function buildApp(options: PersonalizationAppOptions): Promise<ServiceApp> {
  const app = createServiceApp(baseServiceOptions('personalization', options));
  await app.register(multipart);
  await registerRouteRateLimits(app, 'requests', sharedLimits(app, options.redisUrl, 'personalization'));
  const deps: PersonalizationDeps = {
    ...options,
    lookupRateLimit: { max: options.lookupsPerMinute ?? 120, timeWindow: '1 minute' },
    previewRateLimit: { max: options.previewsPerMinute ?? 240, timeWindow: '1 minute' },
    adminOnly: requireAdmin(options.verifier),
  };
  await app.register(async (scope) => personaPublicRoutes(scope as ServiceApp, deps));
  await app.register(async (scope) => personaBuyerRoutes(scope as ServiceApp, deps));
  await app.register(async (scope) => personaAdminRoutes(scope as ServiceApp, deps));
  await app.register(async (scope) => downloadRoutes(scope as ServiceApp, deps));
  await app.register(async (scope) => dedicationImageRoutes(scope as ServiceApp, deps));
  await app.register(async (scope) => publicLogRoutes(scope as ServiceApp, deps));
  await app.register(async (scope) => printFileRoutes(scope as ServiceApp, deps));
  return app;
}
