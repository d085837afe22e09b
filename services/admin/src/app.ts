// Builds the admin service's Fastify instance.
import { createUnitOfWork } from '@persona/bus';
import {
  type AppBaseOptions,
  createAdminVerifier,
  baseServiceOptions,
  createServiceApp,
  redisSessionCache,
  registerRouteRateLimits,
  sharedLimits,
  requireAdmin,
  type ServiceApp,
} from '@persona/service-kit';
import { primaryOnly, type ReadRouter } from '@persona/db';
import type { Kysely } from 'kysely';
import type { AdminDB } from './db';
import type { AdminDeps } from './deps';
import { tokenSigner } from './modules/auth/sessions';
import { isSessionActive } from './modules/auth/sessions.repository';
import { catalogueBookTitles } from './modules/feedback/catalogue-client';
import auditRoutes from './routes/audit';
import authRoutes from './routes/auth';
import feedbackRoutes from './routes/feedback';
import newsletterRoutes from './routes/newsletter';

export interface AdminAppOptions extends AppBaseOptions {
  db: Kysely<AdminDB>;
  /** Where the administrator's lists are read (the database: its read replica when DATABASE_READ_URL is set); the primary without it. */
  reads?: ReadRouter<AdminDB>;
  jwtSecret: string;
  internalToken: string;
  catalogueUrl: string;
  /** Login attempts per minute per client. */
  loginsPerMinute?: number;
  /** Feedback and newsletter posts per minute per client. */
  postsPerMinute?: number;
  /** Where the administrator's lists stop counting (COUNT_CAP). */
  countCap?: number;
}

export async function buildApp(options: AdminAppOptions): Promise<ServiceApp> {
  const app = createServiceApp(baseServiceOptions('admin', options));
  await registerRouteRateLimits(app, 'attempts', sharedLimits(app, options.redisUrl, 'admin'));
  const verifier = createAdminVerifier({ secret: options.jwtSecret, isRevoked: async (jti) => !(await isSessionActive(options.db, jti)) });
  const deps: AdminDeps = {
    db: options.db,
    reads: options.reads ?? primaryOnly(options.db),
    uow: createUnitOfWork({ db: options.db, relay: options.relay, reads: options.reads }),
    adminOnly: requireAdmin(verifier),
    sign: tokenSigner(options.jwtSecret),
    internalToken: options.internalToken,
    bookTitles: catalogueBookTitles(options.catalogueUrl),
    loginRateLimit: { max: options.loginsPerMinute ?? 10, timeWindow: '1 minute' },
    publicRateLimit: { max: options.postsPerMinute ?? 20, timeWindow: '1 minute' },
    countCap: options.countCap,
    sessions: options.redisUrl ? redisSessionCache(options.redisUrl) : undefined,
  };
  if (deps.sessions) app.addHook('onClose', () => deps.sessions!.close());
  await app.register(async (scope) => {
    await authRoutes(scope as ServiceApp, deps);
    await feedbackRoutes(scope as ServiceApp, deps);
    await newsletterRoutes(scope as ServiceApp, deps);
    await auditRoutes(scope as ServiceApp, deps);
  });
  return app;
}
