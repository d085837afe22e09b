// Wires the admin service for either run mode: migrations, the first
// administrator, the outbox relay, the audit consumer and the HTTP app.
import path from 'node:path';
import { openServiceStore, registerBusMetrics, serviceMigrations } from '@persona/bus';
import { backingReadiness, closeHttpServer, SHUTDOWN_DEFAULTS } from '@persona/service-kit';
import type { RunningService, ServiceBaseOptions } from '@persona/service-process';
import type { MigrationProvider } from 'kysely';
import { buildApp } from './app';
import type { AdminDB } from './db';
import { AUDIT_QUEUE, subscribeAudit } from './modules/audit/audit';
import { bootstrapAdmin, type BootstrapOptions } from './modules/auth/bootstrap-admin';

export const ADMIN_SCHEMA = 'admin';
export const MIGRATIONS_DIR = path.resolve(__dirname, '../migrations');

export const adminMigrations: MigrationProvider = serviceMigrations(MIGRATIONS_DIR);

export interface AdminServiceOptions extends ServiceBaseOptions<AdminDB> {
  jwtSecret: string;
  internalToken: string;
  catalogueUrl: string;
  firstAdmin: BootstrapOptions;
  loginsPerMinute?: number;
  postsPerMinute?: number;
  /** Where the administrator's lists stop counting (COUNT_CAP; tests set a small one). */
  countCap?: number;
}

export interface AdminService extends RunningService {
  /** Set when this start created an administrator with a generated password (print it once). */
  generatedAdmin: { email: string; password: string } | null;
  /** Stops taking requests, lets in-flight requests and audit messages finish within `graceMs` (else hands the messages back), flushes the outbox. */
  close(options?: { graceMs?: number }): Promise<void>;
}

export async function startAdminService(options: AdminServiceOptions): Promise<AdminService> {
  const { database, bus, logger } = options;
  const store = await openServiceStore({
    name: 'admin',
    database,
    migrations: adminMigrations,
    bus,
    logger,
    retentionMs: options.eventRetentionMs,
    migrationMode: options.migrationMode,
  });
  const generatedAdmin = await bootstrapAdmin(database.db, options.firstAdmin);
  const subscription = await subscribeAudit(bus, database.db, logger);
  const app = await buildApp({
    db: database.db,
    reads: database,
    jwtSecret: options.jwtSecret,
    internalToken: options.internalToken,
    catalogueUrl: options.catalogueUrl,
    logger,
    loginsPerMinute: options.loginsPerMinute,
    postsPerMinute: options.postsPerMinute,
    metricsToken: options.metricsToken,
    redisUrl: options.redisUrl,
    loadShedding: options.loadShedding,
    countCap: options.countCap,
    relay: store.relay,
    readiness: backingReadiness(database, bus),
  });
  registerBusMetrics(app.metrics, { db: database.db, bus, queues: [AUDIT_QUEUE] });
  return {
    app,
    generatedAdmin,
    async close({ graceMs = SHUTDOWN_DEFAULTS.messageGraceMs } = {}) {
      await closeHttpServer(app, graceMs, logger);
      await subscription.close({ graceMs });
      await store.flush();
    },
  };
}
