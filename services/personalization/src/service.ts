// Wires the personalisation service for either run mode: migrations, the
// signing key, the build pool (worker threads), the consumers of Persona requests and of refunded
// orders (licences), the outbox relay and the HTTP app.
import path from 'node:path';
import { createUnitOfWork, openServiceStore, registerBusMetrics, serviceMigrations } from '@persona/bus';
import { backingReadiness, closeHttpServer, createAdminVerifier, localUrlProblem, redisSharedBytes, SHUTDOWN_DEFAULTS } from '@persona/service-kit';
import type { RunningService, ServiceBaseOptions } from '@persona/service-process';
import { clearSpool, servicePool, type UntrustedPool, type UntrustedPoolOptions } from '@persona/untrusted';
import type { MigrationProvider } from 'kysely';
import { buildApp } from './app';
import type { CopyTasks } from './modules/copy-checks/copy-tasks';
import type { PersonalizationDB } from './db';
import { catalogueSourceReader, type SourceReader } from './modules/personas/book-source-client';
import { defaultBuildPool, PERSONA_THREAD_NICENESS, type BuildPool } from './modules/build-pool/build-pool';
import { LocalFileStore, S3FileStore, type S3Settings } from '@persona/file-store';
import { PersonaFiles } from './modules/personas/persona-files';
import { personaMetrics } from './modules/personas/persona-metrics';
import { PERSONALIZATION_QUEUE, subscribePersonaRequests } from './modules/personas/personalize';
import { LICENCES_QUEUE, subscribeLicenceEnds } from './modules/personas/licences';
import { SHIPMENTS_QUEUE, subscribeShipments } from './modules/personas/shipments';
import { loadSigningKey, publicKeyPems } from './modules/personas/signing-keys';
import { openPublicLog } from './modules/public-log/log-writer';
import type { PaperName } from './modules/print-files/print-specs';
import { catalogueTitleReader, createPreviews, DEFAULT_PREVIEW_CACHE_MINUTES, type BookTitleReader } from './modules/personas/preview';
import { DEFAULT_DOWNLOAD_LIMITS, type DownloadLimits } from './modules/downloads/downloads.service';

export const PERSONALIZATION_SCHEMA = 'personalization';
export const MIGRATIONS_DIR = path.resolve(__dirname, '../migrations');

export const personalizationMigrations: MigrationProvider = serviceMigrations(MIGRATIONS_DIR);

export interface PersonalizationServiceOptions extends ServiceBaseOptions<PersonalizationDB> {
  catalogueUrl: string;
  internalToken: string;
  publicUrl: string;
  /** The Personas' folder on this machine (and the copies spooled to be checked, always local). */
  personasDir: string;
  /** FILE_STORE=s3: the finished Personas go to this S3 store instead of personasDir, under "personas/" (issue 25). */
  personasS3?: S3Settings;
  signingKeyPem?: string;
  /** LOG_SIGNING_KEY: the public log's signed-note key (else the database's, else a new one). */
  logSigningKey?: string;
  /** The paper printed copies are on (PRINT_PAPER): the cover's spine (issue 27). */
  printPaper?: PaperName;
  /** How often the public log's writer looks for copies to log (LOG_ROUND_MS; tests go faster). */
  logRoundMs?: number;
  /** Admin tokens: their secret, and whether a session was logged out (the admin service's list). */
  jwtSecret: string;
  isRevoked?: (jti: string) => boolean | Promise<boolean>;
  /** Worker threads building PDFs and each one's prepared-book cache (PDF_WORKERS, PERSONA_PDF_CACHE_MB). */
  pdfWorkers?: number;
  pdfCacheBytes?: number;
  /** Replaces the catalogue reader or the PDF pool (tests). */
  readSource?: SourceReader;
  /** Replaces the catalogue's title lookup for previews (tests). */
  readTitle?: BookTitleReader;
  buildPool?: BuildPool;
  /** Worker threads for previews (PREVIEW_WORKERS), or the pool itself (tests). */
  previewWorkers?: number;
  /** Whether the build threads warm up as they start (BUILD_WARM_UP; default true). */
  warmUp?: boolean;
  previewPool?: BuildPool;
  /** The untrusted-file threads reading copies clients send (FILE_CHECK_*), or the pool itself (tests). */
  fileChecks?: Omit<UntrustedPoolOptions, 'module'> | UntrustedPool<CopyTasks>;
  maxAttempts?: number;
  retryDelaysMs?: number[];
  lookupsPerMinute?: number;
  previewsPerMinute?: number;
  /** How long a drawn preview is kept, in memory and in Redis (PREVIEW_CACHE_MINUTES); an hour by default. */
  previewCacheMs?: number;
  /** Downloads of each format in an allowance, its days, and a renewal link's hours (issue 24; DEFAULT_DOWNLOAD_LIMITS). */
  downloadLimits?: Partial<DownloadLimits>;
}

export interface PersonalizationService extends RunningService {
  /**
   * Stops taking requests and messages; a Persona being made gets `graceMs`
   * to finish (its PDF worker included) and is acknowledged, else its message
   * goes back to the queue and the worker is stopped. Then the outbox is
   * flushed, so a persona.ready just recorded is published.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

export async function startPersonalizationService(options: PersonalizationServiceOptions): Promise<PersonalizationService> {
  const { database, bus, logger } = options;
  // Every Persona prints PUBLIC_URL for good (its QR code, its links): a local one is said loudly at
  // every start. The orders service refuses live payments meanwhile (selling-refusal.ts).
  const publicUrlProblem = localUrlProblem(options.publicUrl);
  if (publicUrlProblem) {
    logger.warn(
      { publicUrl: options.publicUrl },
      `${publicUrlProblem}: every Persona made now prints it in its QR code and links, for good. Set PUBLIC_URL to the shop's public address before selling.`,
    );
  }
  const store = await openServiceStore({
    name: 'personalization',
    database,
    migrations: personalizationMigrations,
    bus,
    logger,
    retentionMs: options.eventRetentionMs,
    migrationMode: options.migrationMode,
  });
  const key = await loadSigningKey(database.db, options.signingKeyPem);
  const fileStore = options.personasS3
    ? new S3FileStore({ ...options.personasS3, prefix: `${options.personasS3.prefix ?? ''}personas/` })
    : new LocalFileStore(options.personasDir);
  const files = new PersonaFiles(fileStore);
  // The public log of Personas (issue 27): its files beside the Personas', its writer in rounds.
  const publicLog = await openPublicLog({
    db: database.db,
    store: fileStore,
    personaKey: key,
    publicUrl: options.publicUrl,
    signingKey: options.logSigningKey,
    logger,
    roundMs: options.logRoundMs,
  });
  const buildPool =
    options.buildPool ??
    defaultBuildPool({
      size: options.pdfWorkers ?? 1,
      cacheBytes: options.pdfCacheBytes,
      warm: options.warmUp === false ? undefined : 'personas',
      niceness: PERSONA_THREAD_NICENESS,
    });
  // Previews on threads of their own: a buyer typing never waits behind a Persona being made.
  const previewPool =
    options.previewPool ??
    (options.buildPool
      ? options.buildPool
      : defaultBuildPool({ size: options.previewWorkers ?? 1, cacheBytes: options.pdfCacheBytes, warm: options.warmUp === false ? undefined : 'previews' }));
  // Ready once its threads are: a Persona or a preview asked for as it starts does not wait behind their warm-up.
  await Promise.all([buildPool.ready?.(), previewPool.ready?.()]);
  const copyChecks = servicePool<CopyTasks>(require.resolve('./modules/copy-checks/copy-tasks'), options.fileChecks);
  // Uploaded copies are spooled beside the Personas (what a stopped process left there goes).
  const uploadsDir = path.join(options.personasDir, '.incoming');
  await clearSpool(uploadsDir);
  let keys: Promise<Map<string, string>> | null = null;
  const publicKeys = () => (keys ??= publicKeyPems(database.db));

  const uow = createUnitOfWork({ db: database.db, relay: store.relay });
  const previewCacheMs = options.previewCacheMs ?? DEFAULT_PREVIEW_CACHE_MINUTES * 60_000;
  const sharedPreviews = options.redisUrl ? redisSharedBytes(options.redisUrl, 'persona:preview:', Math.ceil(previewCacheMs / 1000)) : undefined;
  const app = await buildApp({
    db: database.db,
    uow,
    downloadLimits: { ...DEFAULT_DOWNLOAD_LIMITS, ...options.downloadLimits },
    key,
    publicKeys,
    files,
    publicLog,
    verifier: createAdminVerifier({ secret: options.jwtSecret, isRevoked: options.isRevoked }),
    copyChecks,
    uploadsDir,
    previews: createPreviews({
      pool: previewPool,
      readTitle: options.readTitle ?? catalogueTitleReader(options.catalogueUrl, options.internalToken),
      publicUrl: options.publicUrl,
      shared: sharedPreviews,
      keepMs: previewCacheMs,
    }),
    logger,
    lookupsPerMinute: options.lookupsPerMinute,
    previewsPerMinute: options.previewsPerMinute,
    internalToken: options.internalToken,
    metricsToken: options.metricsToken,
    redisUrl: options.redisUrl,
    loadShedding: options.loadShedding,
    readiness: backingReadiness(database, bus),
  });
  registerBusMetrics(app.metrics, { db: database.db, bus, queues: [PERSONALIZATION_QUEUE, LICENCES_QUEUE, SHIPMENTS_QUEUE] });

  const subscription = await subscribePersonaRequests(bus, {
    db: database.db,
    key,
    readSource: options.readSource ?? catalogueSourceReader(options.catalogueUrl, options.internalToken),
    buildPool,
    files,
    publicUrl: options.publicUrl,
    logger,
    uow,
    maxAttempts: options.maxAttempts,
    retryDelaysMs: options.retryDelaysMs,
    metrics: personaMetrics(app.metrics),
    onRecorded: publicLog.nudge,
    paper: options.printPaper,
  });
  const licences = await subscribeLicenceEnds(bus, database.db, logger, publicLog.nudge);
  const shipments = await subscribeShipments(bus, database.db, logger, publicLog.nudge);
  publicLog.start();

  return {
    app,
    async close({ graceMs = SHUTDOWN_DEFAULTS.messageGraceMs } = {}) {
      await closeHttpServer(app, graceMs, logger);
      await subscription.close({ graceMs });
      await licences.close();
      await shipments.close();
      await publicLog.close();
      await store.flush();
      await buildPool.close();
      if (previewPool !== buildPool) await previewPool.close();
      await sharedPreviews?.close();
      await copyChecks.close();
      if (fileStore instanceof S3FileStore) fileStore.close();
    },
  };
}
