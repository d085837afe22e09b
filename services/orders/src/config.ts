// The orders service's configuration, the only reader of its environment in
// either run mode: its own process (server.ts) and the embedded shop both
// build the service's options from `ordersServiceOptions`.
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { CommonConfig, loadConfig, retentionMs, sessionRevocationCheck, withProcessConfig } from '@persona/service-kit';
import type { OrdersServiceOptions } from './service';

/** What the orders service needs in either run mode. */
export const OrdersSettingsSchema = Type.Object({
  METRICS_TOKEN: CommonConfig.METRICS_TOKEN,
  EVENTS_RETENTION_DAYS: CommonConfig.EVENTS_RETENTION_DAYS,
  JWT_SECRET: CommonConfig.JWT_SECRET,
  /** The admin service, asked whether an admin token's session is still active (with INTERNAL_TOKEN). */
  ADMIN_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  INTERNAL_TOKEN: Type.Optional(Type.String({ minLength: 32 })),
  CATALOGUE_URL: Type.String({ pattern: '^https?://' }),
  /** The address buyers use; links in e-mails are built from it. */
  PUBLIC_URL: Type.String({ pattern: '^https?://', default: 'http://localhost:8080' }),
  /** `test` forces test mode; without live keys the shop is in test mode anyway. */
  PAYMENTS_MODE: Type.Optional(Type.Union([Type.Literal('live'), Type.Literal('test')])),
  RAZORPAY_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
  RAZORPAY_KEY_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  RAZORPAY_WEBHOOK_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  /** smtp(s)://user:pass@host:port; without it e-mails are written as .eml files to MAIL_DIR. */
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  MAIL_FROM: Type.String({ default: 'Persona Books <orders@persona-books.local>' }),
  MAIL_DIR: Type.String({ default: path.resolve('data/mail') }),
});
export type OrdersSettings = Static<typeof OrdersSettingsSchema>;

/** The orders service's own process: its settings, where it listens and what it runs on. */
export const OrdersConfigSchema = withProcessConfig(OrdersSettingsSchema, 3002);
export type OrdersConfig = Static<typeof OrdersConfigSchema>;

export const loadOrdersSettings = (env: NodeJS.ProcessEnv = process.env) => loadConfig(OrdersSettingsSchema, env);
export const loadOrdersConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(OrdersConfigSchema, env);

/** The service's options from its settings; the run mode adds the database, the bus and the logger. */
export function ordersServiceOptions(settings: OrdersSettings): Omit<OrdersServiceOptions, 'database' | 'bus' | 'logger'> {
  return {
    metricsToken: settings.METRICS_TOKEN,
    eventRetentionMs: retentionMs(settings.EVENTS_RETENTION_DAYS),
    jwtSecret: settings.JWT_SECRET,
    isRevoked: settings.ADMIN_URL && settings.INTERNAL_TOKEN ? sessionRevocationCheck(settings.ADMIN_URL, settings.INTERNAL_TOKEN) : undefined,
    catalogueUrl: settings.CATALOGUE_URL,
    publicUrl: settings.PUBLIC_URL,
    payments: {
      mode: settings.PAYMENTS_MODE,
      keyId: settings.RAZORPAY_KEY_ID,
      keySecret: settings.RAZORPAY_KEY_SECRET,
      webhookSecret: settings.RAZORPAY_WEBHOOK_SECRET,
    },
    mail: { smtpUrl: settings.SMTP_URL, dir: settings.MAIL_DIR, from: settings.MAIL_FROM },
  };
}
