// Wires the catalogue for either run mode: migrates its schema, seeds the
// demo once, starts the outbox relay and builds the HTTP app. The caller
// chooses the database and the bus (pg + RabbitMQ, or PGlite + in-process).
import path from 'node:path';
import { openServiceStore, registerBusMetrics, serviceMigrations } from '@persona/bus';
import { backingReadiness, closeHttpServer, createAdminVerifier, SHUTDOWN_DEFAULTS } from '@persona/service-kit';
import type { RunningService, ServiceBaseOptions } from '@persona/service-process';
import { clearSpool } from '@persona/untrusted';
import type { MigrationProvider } from 'kysely';
import { buildApp, type CatalogueAppOptions } from './app';
import type { CatalogueDB } from './db';
import { LocalFileStorage, StoreFileStorage } from './modules/files/file-storage';
import { S3FileStore, type S3Settings } from '@persona/file-store';
import { seedDemoCatalogue } from './modules/seed/seed-demo-catalogue';

export const CATALOGUE_SCHEMA = 'catalogue';
export const MIGRATIONS_DIR = path.resolve(__dirname, '../migrations');

export const catalogueMigrations: MigrationProvider = serviceMigrations(MIGRATIONS_DIR);

export interface CatalogueServiceOptions extends ServiceBaseOptions<CatalogueDB> {
  jwtSecret: string;
  isRevoked?: (jti: string) => boolean | Promise<boolean>;
  filesDir: string;
  /** FILE_STORE=s3: the uploads and their image copies go to this S3 store, under "catalogue/" (issue 25); uploads still spool in filesDir. */
  filesS3?: S3Settings;
  seedDemo: boolean;
  /** Shared secret for the personalisation service's internal calls. */
  internalToken?: string;
  /** The untrusted-file threads judging uploads (FILE_CHECK_*). */
  uploadChecks?: CatalogueAppOptions['uploadChecks'];
}

export interface CatalogueService extends RunningService {
  /** Stops taking requests (in-flight ones get `graceMs`), then publishes what the outbox still holds. */
  close(options?: { graceMs?: number }): Promise<void>;
}

export async function startCatalogueService(options: CatalogueServiceOptions): Promise<CatalogueService> {
  const { database, bus, logger } = options;
  const store = await openServiceStore({
    name: 'catalogue',
    database,
    migrations: catalogueMigrations,
    bus,
    logger,
    retentionMs: options.eventRetentionMs,
    migrationMode: options.migrationMode,
  });
  const s3 = options.filesS3 && new S3FileStore({ ...options.filesS3, prefix: `${options.filesS3.prefix ?? ''}catalogue/` });
  const storage = s3 ? new StoreFileStorage(s3) : new LocalFileStorage(options.filesDir);
  // Uploads are spooled beside the files, so keeping one is a rename (what a stopped process left there goes).
  const uploadsDir = path.join(options.filesDir, '.incoming');
  await clearSpool(uploadsDir);
  if (options.seedDemo) {
    const seeded = await seedDemoCatalogue(database.db, storage);
    if (seeded > 0) logger.info({ books: seeded }, 'demo catalogue seeded');
  }
  const app = await buildApp({
    db: database.db,
    reads: database,
    storage,
    verifier: createAdminVerifier({ secret: options.jwtSecret, isRevoked: options.isRevoked }),
    logger,
    relay: store.relay,
    internalToken: options.internalToken,
    uploadChecks: options.uploadChecks,
    uploadsDir,
    metricsToken: options.metricsToken,
    redisUrl: options.redisUrl,
    loadShedding: options.loadShedding,
    readiness: backingReadiness(database, bus),
  });
  registerBusMetrics(app.metrics, { db: database.db, bus });
  return {
    app,
    async close({ graceMs = SHUTDOWN_DEFAULTS.requestGraceMs } = {}) {
      await closeHttpServer(app, graceMs, logger);
      await store.flush();
      s3?.close();
    },
  };
}
