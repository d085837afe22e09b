import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { CommonConfig, loadConfig, Port } from '@persona/service-kit';

const Url = Type.String({ pattern: '^https?://' });

export const GatewayConfigSchema = Type.Object({
  PORT: Port(8080),
  HOST: CommonConfig.HOST,
  LOG_LEVEL: CommonConfig.LOG_LEVEL,
  METRICS_TOKEN: CommonConfig.METRICS_TOKEN,
  JWT_SECRET: CommonConfig.JWT_SECRET,
  /** The address visitors use; canonical and Open Graph links are built from it. */
  PUBLIC_URL: Type.Optional(Url),
  CATALOGUE_URL: Url,
  ORDERS_URL: Type.Optional(Url),
  PERSONALIZATION_URL: Type.Optional(Url),
  ADMIN_URL: Type.Optional(Url),
  /** With ADMIN_URL: asks the admin service whether an admin token's session is still active. */
  INTERNAL_TOKEN: Type.Optional(Type.String({ minLength: 32 })),
  /** The storefront's built files (index.html and assets). */
  STOREFRONT_DIR: Type.String({ default: path.resolve('apps/storefront/dist') }),
  /** The admin app's built files, served under /admin. */
  ADMIN_APP_DIR: Type.String({ default: path.resolve('apps/admin/dist') }),
  /** Comma-separated origins allowed to call the API from a browser; empty = same origin only. */
  CORS_ORIGINS: Type.String({ default: '' }),
  /** Requests per minute per client address; 0 turns the limit off. */
  RATE_LIMIT_MAX: Type.Integer({ minimum: 0, default: 1200 }),
  TRUST_PROXY: Type.Boolean({ default: false }),
});
export type GatewayConfig = Static<typeof GatewayConfigSchema>;

export const loadGatewayConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(GatewayConfigSchema, env);
