// Wires the personalisation service for either run mode: migrations, the
// signing key, the PDF worker pool, the order.paid consumer, the outbox relay
// and the HTTP app.
import path from 'node:path';
import { createOutboxRelay, outboxMigrations, type EventBus } from '@persona/bus';
import { folderMigrations, migrateToLatest, type Database } from '@persona/db';
import { backingReadiness, type Logger, type ServiceApp } from '@persona/service-kit';
import type { MigrationProvider } from 'kysely';
import { buildApp } from './app';
import type { PersonalizationDB } from './db';
import { catalogueSourceReader, type SourceReader } from './modules/personas/book-source-client';
import { defaultPdfBuilder, type PdfBuilder } from './modules/personas/pdf-builder';
import { PersonaFiles } from './modules/personas/persona-files';
import { subscribeOrderPaid } from './modules/personas/personalize';
import { loadSigningKey, publicKeyPems } from './modules/personas/signing-keys';

export const PERSONALIZATION_SCHEMA = 'personalization';
export const MIGRATIONS_DIR = path.resolve(__dirname, '../migrations');

export const personalizationMigrations: MigrationProvider = {
  async getMigrations() {
    return { ...outboxMigrations, ...(await folderMigrations(MIGRATIONS_DIR).getMigrations()) };
  },
};

export interface PersonalizationServiceOptions {
  database: Database<PersonalizationDB>;
  bus: EventBus;
  logger: Logger;
  catalogueUrl: string;
  internalToken: string;
  publicUrl: string;
  personasDir: string;
  signingKeyPem?: string;
  pdfWorkers?: number;
  /** Replaces the catalogue reader or the PDF builder (tests). */
  readSource?: SourceReader;
  builder?: PdfBuilder;
  maxAttempts?: number;
  retryDelaysMs?: number[];
  lookupsPerMinute?: number;
}

export interface PersonalizationService {
  app: ServiceApp;
  close(): Promise<void>;
}

export async function startPersonalizationService(options: PersonalizationServiceOptions): Promise<PersonalizationService> {
  const { database, bus, logger } = options;
  const applied = await migrateToLatest(database, personalizationMigrations);
  if (applied.length > 0) logger.info({ applied }, 'personalization migrations applied');
  const key = await loadSigningKey(database.db, options.signingKeyPem);
  const files = new PersonaFiles(options.personasDir);
  const builder = options.builder ?? defaultPdfBuilder(options.pdfWorkers);
  const outbox = createOutboxRelay({ db: database.db, bus, logger });
  outbox.start();
  let keys: Promise<Map<string, string>> | null = null;
  const publicKeys = () => (keys ??= publicKeyPems(database.db));

  const subscription = await subscribeOrderPaid(bus, {
    db: database.db,
    key,
    readSource: options.readSource ?? catalogueSourceReader(options.catalogueUrl, options.internalToken),
    builder,
    files,
    publicUrl: options.publicUrl,
    logger,
    afterCommit: () => outbox.nudge(),
    maxAttempts: options.maxAttempts,
    retryDelaysMs: options.retryDelaysMs,
  });

  const app = await buildApp({
    db: database.db,
    key,
    publicKeys,
    files,
    logger,
    lookupsPerMinute: options.lookupsPerMinute,
    readiness: backingReadiness(database, bus),
  });
  return {
    app,
    async close() {
      await app.close();
      await subscription.close();
      await outbox.stop();
      await builder.close();
    },
  };
}
