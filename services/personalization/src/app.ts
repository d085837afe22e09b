// Builds the personalisation service's Fastify instance.
import multipart from '@fastify/multipart';
import {
  type AdminVerifier,
  type AppBaseOptions,
  baseServiceOptions,
  createServiceApp,
  registerRouteRateLimits,
  sharedLimits,
  requireAdmin,
  type ServiceApp,
} from '@persona/service-kit';
import type { onRequestAsyncHookHandler } from 'fastify';

import type { UnitOfWork } from '@persona/bus';
import type { Kysely } from 'kysely';
import type { PersonalizationDB } from './db';
import type { DownloadLimits } from './modules/downloads/downloads.service';
import type { UntrustedPool } from '@persona/untrusted';
import type { CopyTasks } from './modules/copy-checks/copy-tasks';
import type { PersonaFiles } from './modules/personas/persona-files';
import type { Previews } from './modules/personas/preview';
import type { SigningKey } from './modules/signing/persona-signature';
import dedicationImageRoutes from './routes/dedication-image';
import downloadRoutes from './routes/downloads';
import personaRoutes from './routes/personas';

export interface PersonalizationAppOptions extends AppBaseOptions {
  db: Kysely<PersonalizationDB>;
  /** Writes with events (asking for more downloads, the owner's reset or revoke). */
  uow: UnitOfWork<PersonalizationDB>;
  /** Each format's downloads and the days an allowance lasts (issue 24). */
  downloadLimits: DownloadLimits;
  key: SigningKey;
  publicKeys: () => Promise<Map<string, string>>;
  files: PersonaFiles;
  previews: Previews;
  /** Checks an admin token (the leak lookup). */
  verifier: AdminVerifier;
  /** Reads copies clients send (verify, leak lookups) on threads with heap and time limits, within budgets. */
  copyChecks: UntrustedPool<CopyTasks>;
  /** Where uploaded copies are written as they arrive, until their check is done. */
  uploadsDir: string;
  lookupsPerMinute?: number;
  /** Previews one client may ask for a minute (a name typed letter by letter, debounced). */
  previewsPerMinute?: number;
  /** The services' shared INTERNAL_TOKEN: a finished Persona's dedication image is behind a token made with it (none without). */
  internalToken?: string;
}

export interface PersonalizationDeps extends PersonalizationAppOptions {
  lookupRateLimit: { max: number; timeWindow: string };
  previewRateLimit: { max: number; timeWindow: string };
  adminOnly: onRequestAsyncHookHandler;
}

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
  await app.register(async (scope) => personaRoutes(scope as ServiceApp, deps));
  await app.register(async (scope) => downloadRoutes(scope as ServiceApp, deps));
  await app.register(async (scope) => dedicationImageRoutes(scope as ServiceApp, deps));
  return app;
}
