import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { CommonConfig, loadConfig, Port } from '@persona/service-kit';

export const CatalogueConfigSchema = Type.Object({
  PORT: Port(3001),
  HOST: CommonConfig.HOST,
  LOG_LEVEL: CommonConfig.LOG_LEVEL,
  METRICS_TOKEN: CommonConfig.METRICS_TOKEN,
  DATABASE_URL: CommonConfig.DATABASE_URL,
  AMQP_URL: CommonConfig.AMQP_URL,
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
export type CatalogueConfig = Static<typeof CatalogueConfigSchema>;

export const loadCatalogueConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(CatalogueConfigSchema, env);
