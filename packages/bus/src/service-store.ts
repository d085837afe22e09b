// The first and last steps of every service that publishes events, written once: its schema
// migrated (the outbox and inbox tables, then its own migrations) and its outbox relay running;
// at shutdown the relay stopped and what the outbox still holds published.
import { folderMigrations, migrateToLatest, type Database } from '@persona/db';
import type { MigrationProvider } from 'kysely';
import { outboxMigrations } from './outbox-migrations';
import { createOutboxRelay, type OutboxRelay } from './outbox';
import type { BusLogger, EventBus } from './types';

/** A service's migrations: the outbox and inbox tables first, then the service's own folder. */
export function serviceMigrations(folder: string): MigrationProvider {
  return {
    async getMigrations() {
      return { ...outboxMigrations, ...(await folderMigrations(folder).getMigrations()) };
    },
  };
}

export interface ServiceStoreOptions<DB> {
  /** The service's name, for the log line naming the migrations applied. */
  name: string;
  database: Database<DB>;
  migrations: MigrationProvider;
  bus: EventBus;
  logger: BusLogger;
  /** How long published outbox rows and inbox rows are kept (EVENTS_RETENTION_DAYS). */
  retentionMs?: number;
}

export interface ServiceStore {
  /** The running relay (a unit of work wakes it after a commit with events). */
  relay: OutboxRelay;
  /** Stops the relay and publishes what the outbox still holds; a failure is logged, and the next start publishes it. */
  flush(): Promise<void>;
}

/** Migrates the service's schema, then starts its outbox relay. */
export async function openServiceStore<DB>(options: ServiceStoreOptions<DB>): Promise<ServiceStore> {
  const { name, database, bus, logger } = options;
  const applied = await migrateToLatest(database, options.migrations);
  if (applied.length > 0) logger.info({ applied }, `${name} migrations applied`);
  const relay = createOutboxRelay({ db: database.db, bus, logger, retentionMs: options.retentionMs });
  relay.start();
  return {
    relay,
    async flush() {
      await relay.stop();
      await relay.drain().catch((err: unknown) => logger.warn({ err }, 'outbox not flushed at shutdown; the next start publishes it'));
    },
  };
}
