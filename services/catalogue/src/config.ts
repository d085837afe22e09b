// The catalogue's configuration, the only reader of its environment in either
// run mode: its own process (server.ts) and the embedded shop both build the
// service's options from `catalogueServiceOptions`.
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { CommonConfig, loadConfig, retentionMs, sessionRevocationCheck, withProcessConfig } from '@persona/service-kit';
import type { CatalogueServiceOptions } from './service';

/** What the catalogue needs in either run mode. */
export const CatalogueSettingsSchema = Type.Object({
  METRICS_TOKEN: CommonConfig.METRICS_TOKEN,
  EVENTS_RETENTION_DAYS: CommonConfig.EVENTS_RETENTION_DAYS,
  JWT_SECRET: CommonConfig.JWT_SECRET,
  /** The admin service, asked whether an admin token's session is still active (with INTERNAL_TOKEN). */
  ADMIN_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** Where uploaded files are kept. */
  FILES_DIR: Type.String({ default: path.resolve('data/files') }),
  /** Shared secret the personalisation service sends to read a book's full text or PDF. */
  INTERNAL_TOKEN: Type.Optional(Type.String({ minLength: 32 })),
  /** Seed the demo catalogue into an empty database on first start. */
  SEED_DEMO: Type.Boolean({ default: true }),
});
export type CatalogueSettings = Static<typeof CatalogueSettingsSchema>;

/** The catalogue's own process: its settings, where it listens and what it runs on. */
export const CatalogueConfigSchema = withProcessConfig(CatalogueSettingsSchema, 3001);
export type CatalogueConfig = Static<typeof CatalogueConfigSchema>;

export const loadCatalogueSettings = (env: NodeJS.ProcessEnv = process.env) => loadConfig(CatalogueSettingsSchema, env);
export const loadCatalogueConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(CatalogueConfigSchema, env);

/** The service's options from its settings; the run mode adds the database, the bus and the logger. */
export function catalogueServiceOptions(settings: CatalogueSettings): Omit<CatalogueServiceOptions, 'database' | 'bus' | 'logger'> {
  return {
    metricsToken: settings.METRICS_TOKEN,
    eventRetentionMs: retentionMs(settings.EVENTS_RETENTION_DAYS),
    jwtSecret: settings.JWT_SECRET,
    isRevoked: settings.ADMIN_URL && settings.INTERNAL_TOKEN ? sessionRevocationCheck(settings.ADMIN_URL, settings.INTERNAL_TOKEN) : undefined,
    filesDir: settings.FILES_DIR,
    seedDemo: settings.SEED_DEMO,
    internalToken: settings.INTERNAL_TOKEN,
  };
}
