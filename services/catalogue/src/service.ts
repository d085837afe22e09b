// Wires the catalogue for either run mode: migrates its schema, seeds the
// demo once, starts the outbox relay and builds the HTTP app. The caller
// chooses the database and the bus (pg + RabbitMQ, or PGlite + in-process).
import path from 'node:path';
import { createOutboxRelay, outboxMigrations, registerBusMetrics, type EventBus } from '@persona/bus';
import { folderMigrations, migrateToLatest, type Database } from '@persona/db';
import { backingReadiness, closeHttpServer, createAdminVerifier, SHUTDOWN_DEFAULTS, type Logger, type ServiceApp } from '@persona/service-kit';
import type { MigrationProvider } from 'kysely';
import { buildApp } from './app';
import type { CatalogueDB } from './db';
import { LocalFileStorage } from './modules/files/file-storage';
import { seedDemoCatalogue } from './modules/seed/seed-demo-catalogue';

export const CATALOGUE_SCHEMA = 'catalogue';
export const MIGRATIONS_DIR = path.resolve(__dirname, '../migrations');

export const catalogueMigrations: MigrationProvider = {
  async getMigrations() {
    return { ...outboxMigrations, ...(await folderMigrations(MIGRATIONS_DIR).getMigrations()) };
  },
};

export interface CatalogueServiceOptions {
  database: Database<CatalogueDB>;
  bus: EventBus;
  logger: Logger;
  jwtSecret: string;
  isRevoked?: (jti: string) => boolean | Promise<boolean>;
  filesDir: string;
  seedDemo: boolean;
  /** Shared secret for the personalisation service's internal calls. */
  internalToken?: string;
  /** Guards /metrics (METRICS_TOKEN). */
  metricsToken?: string;
  /** How long published outbox rows and inbox rows are kept (EVENTS_RETENTION_DAYS). */
  eventRetentionMs?: number;
}

export interface CatalogueService {
  app: ServiceApp;
  /** Stops taking requests (in-flight ones get `graceMs`), then publishes what the outbox still holds. */
  close(options?: { graceMs?: number }): Promise<void>;
}

export async function startCatalogueService(options: CatalogueServiceOptions): Promise<CatalogueService> {
  const { database, bus, logger } = options;
  const applied = await migrateToLatest(database, catalogueMigrations);
  if (applied.length > 0) logger.info({ applied }, 'catalogue migrations applied');
  const storage = new LocalFileStorage(options.filesDir);
  if (options.seedDemo) {
    const seeded = await seedDemoCatalogue(database.db, storage);
    if (seeded > 0) logger.info({ books: seeded }, 'demo catalogue seeded');
  }
  const relay = createOutboxRelay({ db: database.db, bus, logger, retentionMs: options.eventRetentionMs });
  relay.start();
  const app = await buildApp({
    db: database.db,
    storage,
    verifier: createAdminVerifier({ secret: options.jwtSecret, isRevoked: options.isRevoked }),
    logger,
    relay,
    internalToken: options.internalToken,
    metricsToken: options.metricsToken,
    readiness: backingReadiness(database, bus),
  });
  registerBusMetrics(app.metrics, { db: database.db, bus });
  return {
    app,
    async close({ graceMs = SHUTDOWN_DEFAULTS.requestGraceMs } = {}) {
      await closeHttpServer(app, graceMs, logger);
      await relay.stop();
      await relay.drain().catch((err) => logger.warn({ err }, 'outbox not flushed at shutdown; the next start publishes it'));
    },
  };
}
