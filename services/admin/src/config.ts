import { Type, type Static } from '@sinclair/typebox';
import { CommonConfig, loadConfig, Port } from '@persona/service-kit';

export const AdminConfigSchema = Type.Object({
  PORT: Port(3004),
  HOST: CommonConfig.HOST,
  LOG_LEVEL: CommonConfig.LOG_LEVEL,
  METRICS_TOKEN: CommonConfig.METRICS_TOKEN,
  DATABASE_URL: CommonConfig.DATABASE_URL,
  AMQP_URL: CommonConfig.AMQP_URL,
  JWT_SECRET: CommonConfig.JWT_SECRET,
  /** Shared secret the gateway and services send to check a session. */
  INTERNAL_TOKEN: Type.String({ minLength: 32 }),
  CATALOGUE_URL: Type.String({ pattern: '^https?://' }),
  /** The first administrator, created on first start when both are set. */
  ADMIN_EMAIL: Type.Optional(Type.String({ pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' })),
  ADMIN_PASSWORD: Type.Optional(Type.String({ minLength: 10 })),
  ADMIN_NAME: Type.String({ default: 'Administrator' }),
});
export type AdminConfig = Static<typeof AdminConfigSchema>;

export const loadAdminConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(AdminConfigSchema, env);
