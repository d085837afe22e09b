// The first and last steps of every service that publishes events, written once: its schema
// migrated (the outbox and inbox tables, then its own migrations) and its outbox relay running;
// at shutdown the relay stopped and what the outbox still holds published.
import { folderMigrations, migrateToLatest, pendingMigrations, type Database } from '@persona/db';
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
  /**
   * `apply` (the default): the schema is migrated at start (kysely's Migrator takes an advisory lock,
   * so replicas starting together wait for one another). `check`: migrations are a release step
   * (`npm run migrate`); the service refuses to start on a schema older than it needs.
   */
  migrationMode?: MigrationMode;
}

/** MIGRATIONS: whether a service migrates its schema at start, or only checks it is current. */
export type MigrationMode = 'apply' | 'check';

export interface ServiceStore {
  /** The running relay (a unit of work wakes it after a commit with events). */
  relay: OutboxRelay;
  /** Stops the relay and publishes what the outbox still holds; a failure is logged, and the next start publishes it. */
  flush(): Promise<void>;
}

/** Migrates the service's schema (or checks it is current), then starts its outbox relay. */
export async function openServiceStore<DB>(options: ServiceStoreOptions<DB>): Promise<ServiceStore> {
  const { name, database, bus, logger } = options;
  if (options.migrationMode === 'check') {
    const pending = await pendingMigrations(database, options.migrations);
    if (pending.length > 0)
      throw new Error(
        `the ${name} schema "${database.schema}" lacks ${pending.length} migration(s) this version needs (${pending.join(', ')}): run \`npm run migrate\` (the release step) first, or start with MIGRATIONS=apply`,
      );
  } else {
    const applied = await migrateToLatest(database, options.migrations);
    if (applied.length > 0) logger.info({ applied }, `${name} migrations applied`);
  }
  const relay = createOutboxRelay({
    db: database.db,
    bus,
    logger,
    retentionMs: options.retentionMs,
    // Replicas prune one at a time; embedded there is one process (and holding PGlite's one connection through a prune would stall it).
    pruneLock: database.kind === 'postgres' ? `${database.schema}:events-prune` : undefined,
  });
  relay.start();
  return {
    relay,
    async flush() {
      await relay.stop();
      await relay.drain().catch((err: unknown) => logger.warn({ err }, 'outbox not flushed at shutdown; the next start publishes it'));
    },
  };
}
