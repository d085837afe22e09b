import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { CommonConfig, loadConfig, Port } from '@persona/service-kit';

export const OrdersConfigSchema = Type.Object({
  PORT: Port(3002),
  HOST: CommonConfig.HOST,
  LOG_LEVEL: CommonConfig.LOG_LEVEL,
  METRICS_TOKEN: CommonConfig.METRICS_TOKEN,
  DATABASE_URL: CommonConfig.DATABASE_URL,
  AMQP_URL: CommonConfig.AMQP_URL,
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
export type OrdersConfig = Static<typeof OrdersConfigSchema>;

export const loadOrdersConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(OrdersConfigSchema, env);
