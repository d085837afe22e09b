// The gateway's configuration, the only reader of its environment in either
// run mode: its own process (server.ts) and the embedded shop both build the
// gateway's options from `gatewayOptions`.
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import {
  cachedSessionCheck,
  CommonConfig,
  loadConfig,
  LoadSheddingSettings,
  loadSheddingOptions,
  Port,
  redisSessionCache,
  sessionRevocationCheck,
} from '@persona/service-kit';
import type { GatewayOptions } from './app';

const Url = Type.String({ pattern: '^https?://' });

/** What the gateway needs in either run mode. */
export const GatewaySettingsSchema = Type.Object({
  METRICS_TOKEN: CommonConfig.METRICS_TOKEN,
  JWT_SECRET: CommonConfig.JWT_SECRET,
  /** The address visitors use; canonical and Open Graph links are built from it (default http://localhost:PORT). */
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
  /**
   * Comma-separated https origins of the ad network the storefront's reader ad slot loads
   * (READER_AD_SLOT in its site content): allowed to run scripts, frames, images and calls in
   * the pages' Content-Security-Policy. Empty (the default): the pages load nothing from them.
   */
  CSP_AD_ORIGINS: Type.String({ default: '', pattern: '^(https://[a-z0-9.*-]+(:[0-9]+)?)?(\\s*,\\s*https://[a-z0-9.*-]+(:[0-9]+)?)*$' }),
  /** Requests per minute per client address; 0 turns the limit off. */
  RATE_LIMIT_MAX: Type.Integer({ minimum: 0, default: 1200 }),
  /** redis://host:6379: RATE_LIMIT_MAX counts there, so several gateways share one limit per client. */
  REDIS_URL: CommonConfig.REDIS_URL,
  TRUST_PROXY: Type.Boolean({ default: false }),
  /** When the gateway, saturated, answers 503 with Retry-After (as every service). */
  ...LoadSheddingSettings,
});
export type GatewaySettings = Static<typeof GatewaySettingsSchema>;

/** The gateway's own process: its settings and where it listens (it has no database or bus). */
export const GatewayConfigSchema = Type.Object({
  PORT: Port(8080),
  HOST: CommonConfig.HOST,
  LOG_LEVEL: CommonConfig.LOG_LEVEL,
  ...GatewaySettingsSchema.properties,
});
export type GatewayConfig = Static<typeof GatewayConfigSchema>;

export const loadGatewaySettings = (env: NodeJS.ProcessEnv = process.env) => loadConfig(GatewaySettingsSchema, env);
export const loadGatewayConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(GatewayConfigSchema, env);

/** The gateway's options from its settings and the port it listens on; the run mode adds the logger. */
export function gatewayOptions(settings: GatewaySettings, port: number): Omit<GatewayOptions, 'logger'> {
  return {
    upstreams: {
      catalogue: settings.CATALOGUE_URL,
      orders: settings.ORDERS_URL,
      personalization: settings.PERSONALIZATION_URL,
      admin: settings.ADMIN_URL,
    },
    jwtSecret: settings.JWT_SECRET,
    // Through the session answers every replica shares in Redis, when there is one (logging out overwrites them at once).
    isRevoked:
      settings.ADMIN_URL && settings.INTERNAL_TOKEN
        ? cachedSessionCheck(
            sessionRevocationCheck(settings.ADMIN_URL, settings.INTERNAL_TOKEN),
            settings.REDIS_URL ? redisSessionCache(settings.REDIS_URL) : undefined,
          )
        : undefined,
    storefrontDir: settings.STOREFRONT_DIR,
    adminAppDir: settings.ADMIN_APP_DIR,
    publicUrl: settings.PUBLIC_URL ?? `http://localhost:${port}`,
    corsOrigins: settings.CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    adOrigins: settings.CSP_AD_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    rateLimitMax: settings.RATE_LIMIT_MAX,
    redisUrl: settings.REDIS_URL,
    trustProxy: settings.TRUST_PROXY,
    metricsToken: settings.METRICS_TOKEN,
    loadShedding: loadSheddingOptions(settings),
  };
}
