// What the routes are given: the app's options, and what buildApp derives from them once (the
// limits, the admin guard). Its own file, so a route imports the type without importing app.ts.
import type { UnitOfWork } from '@persona/bus';
import type { AdminVerifier, AppBaseOptions } from '@persona/service-kit';
import type { UntrustedPool } from '@persona/untrusted';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { PersonalizationDB } from './db';
import type { CopyTasks } from './modules/copy-checks/copy-tasks';
import type { DownloadLimits } from './modules/downloads/downloads.service';
import type { PersonaFiles } from './modules/personas/persona-files';
import type { Previews } from './modules/personas/preview';
import type { PublicLog } from './modules/public-log/log-writer';
import type { SigningKey } from './modules/signing/persona-signature';

export interface PersonalizationAppOptions extends AppBaseOptions {
  db: Kysely<PersonalizationDB>;
  /** Writes with events (asking for more downloads, the owner's reset or revoke). */
  uow: UnitOfWork<PersonalizationDB>;
  /** Each format's downloads and the days an allowance lasts (issue 24). */
  downloadLimits: DownloadLimits;
  key: SigningKey;
  publicKeys: () => Promise<Map<string, string>>;
  files: PersonaFiles;
  /** The public log of Personas (issue 27): its files, origin and key. */
  publicLog: Pick<PublicLog, 'files' | 'origin' | 'verifierKey'>;
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
