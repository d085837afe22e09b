// Wires the catalogue for either run mode: migrates its schema, seeds the
// demo once, starts the outbox relay and builds the HTTP app. The caller
// chooses the database and the bus (pg + RabbitMQ, or PGlite + in-process).
import path from 'node:path';
import { createOutboxRelay, outboxMigrations, type EventBus } from '@persona/bus';
import { folderMigrations, migrateToLatest, type Database } from '@persona/db';
import { backingReadiness, createAdminVerifier, type Logger, type ServiceApp } from '@persona/service-kit';
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
}

export interface CatalogueService {
  app: ServiceApp;
  close(): Promise<void>;
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
  const relay = createOutboxRelay({ db: database.db, bus, logger });
  relay.start();
  const app = await buildApp({
    db: database.db,
    storage,
    verifier: createAdminVerifier({ secret: options.jwtSecret, isRevoked: options.isRevoked }),
    logger,
    afterWrite: () => relay.nudge(),
    internalToken: options.internalToken,
    readiness: backingReadiness(database, bus),
  });
  return {
    app,
    async close() {
      await app.close();
      await relay.stop();
    },
  };
}
