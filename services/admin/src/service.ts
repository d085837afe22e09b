// Wires the admin service for either run mode: migrations, the first
// administrator, the outbox relay, the audit consumer and the HTTP app.
import path from 'node:path';
import { createOutboxRelay, outboxMigrations, registerBusMetrics, type EventBus } from '@persona/bus';
import { folderMigrations, migrateToLatest, type Database } from '@persona/db';
import { backingReadiness, closeHttpServer, SHUTDOWN_DEFAULTS, type Logger, type ServiceApp } from '@persona/service-kit';
import type { MigrationProvider } from 'kysely';
import { buildApp } from './app';
import type { AdminDB } from './db';
import { AUDIT_QUEUE, subscribeAudit } from './modules/audit/audit';
import { bootstrapAdmin, type BootstrapOptions } from './modules/auth/bootstrap-admin';

export const ADMIN_SCHEMA = 'admin';
export const MIGRATIONS_DIR = path.resolve(__dirname, '../migrations');

export const adminMigrations: MigrationProvider = {
  async getMigrations() {
    return { ...outboxMigrations, ...(await folderMigrations(MIGRATIONS_DIR).getMigrations()) };
  },
};

export interface AdminServiceOptions {
  database: Database<AdminDB>;
  bus: EventBus;
  logger: Logger;
  jwtSecret: string;
  internalToken: string;
  catalogueUrl: string;
  firstAdmin: BootstrapOptions;
  loginsPerMinute?: number;
  postsPerMinute?: number;
  /** Guards /metrics (METRICS_TOKEN). */
  metricsToken?: string;
  /** How long published outbox rows and inbox rows are kept (EVENTS_RETENTION_DAYS). */
  eventRetentionMs?: number;
  /** Where the administrator's lists stop counting (COUNT_CAP; tests set a small one). */
  countCap?: number;
}

export interface AdminService {
  app: ServiceApp;
  /** Set when this start created an administrator with a generated password (print it once). */
  generatedAdmin: { email: string; password: string } | null;
  /** Stops taking requests, lets in-flight requests and audit messages finish within `graceMs` (else hands the messages back), flushes the outbox. */
  close(options?: { graceMs?: number }): Promise<void>;
}

export async function startAdminService(options: AdminServiceOptions): Promise<AdminService> {
  const { database, bus, logger } = options;
  const applied = await migrateToLatest(database, adminMigrations);
  if (applied.length > 0) logger.info({ applied }, 'admin migrations applied');
  const generatedAdmin = await bootstrapAdmin(database.db, options.firstAdmin);
  const outbox = createOutboxRelay({ db: database.db, bus, logger, retentionMs: options.eventRetentionMs });
  outbox.start();
  const subscription = await subscribeAudit(bus, database.db, logger);
  const app = await buildApp({
    db: database.db,
    jwtSecret: options.jwtSecret,
    internalToken: options.internalToken,
    catalogueUrl: options.catalogueUrl,
    logger,
    loginsPerMinute: options.loginsPerMinute,
    postsPerMinute: options.postsPerMinute,
    metricsToken: options.metricsToken,
    countCap: options.countCap,
    relay: outbox,
    readiness: backingReadiness(database, bus),
  });
  registerBusMetrics(app.metrics, { db: database.db, bus, queues: [AUDIT_QUEUE] });
  return {
    app,
    generatedAdmin,
    async close({ graceMs = SHUTDOWN_DEFAULTS.messageGraceMs } = {}) {
      await closeHttpServer(app, graceMs, logger);
      await subscription.close({ graceMs });
      await outbox.stop();
      await outbox.drain().catch((err) => logger.warn({ err }, 'outbox not flushed at shutdown; the next start publishes it'));
    },
  };
}
