// Builds the personalisation service's Fastify instance.
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { createServiceApp, type ReadinessCheck, type ServiceApp } from '@persona/service-kit';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { PersonalizationDB } from './db';
import type { PersonaFiles } from './modules/personas/persona-files';
import type { SigningKey } from './modules/signing/persona-signature';
import personaRoutes from './routes/personas';

export interface PersonalizationAppOptions {
  db: Kysely<PersonalizationDB>;
  key: SigningKey;
  publicKeys: () => Promise<Map<string, string>>;
  files: PersonaFiles;
  logger?: FastifyBaseLogger | false;
  readiness?: Record<string, ReadinessCheck>;
  /** When set, /metrics demands `Authorization: Bearer <token>`. */
  metricsToken?: string;
  lookupsPerMinute?: number;
}

export interface PersonalizationDeps extends PersonalizationAppOptions {
  lookupRateLimit: { max: number; timeWindow: string };
}

export async function buildApp(options: PersonalizationAppOptions): Promise<ServiceApp> {
  const app = createServiceApp({ name: 'personalization', logger: options.logger ?? false, readiness: options.readiness, metricsToken: options.metricsToken });
  await app.register(multipart);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      error: 'Too Many Requests',
      message: `Too many requests; please try again in ${Math.ceil(context.ttl / 1000)} seconds`,
    }),
  });
  const deps: PersonalizationDeps = { ...options, lookupRateLimit: { max: options.lookupsPerMinute ?? 120, timeWindow: '1 minute' } };
  await app.register(async (scope) => personaRoutes(scope as ServiceApp, deps));
  return app;
}
