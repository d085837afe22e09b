import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { CommonConfig, loadConfig, Port } from '@persona/service-kit';

export const PersonalizationConfigSchema = Type.Object({
  PORT: Port(3003),
  HOST: CommonConfig.HOST,
  LOG_LEVEL: CommonConfig.LOG_LEVEL,
  METRICS_TOKEN: CommonConfig.METRICS_TOKEN,
  DATABASE_URL: CommonConfig.DATABASE_URL,
  AMQP_URL: CommonConfig.AMQP_URL,
  CATALOGUE_URL: Type.String({ pattern: '^https?://' }),
  /** Shared secret for the catalogue's internal routes. */
  INTERNAL_TOKEN: Type.String({ minLength: 32 }),
  /** The address buyers use: the QR code in each Persona opens PUBLIC_URL/verify/<id>. */
  PUBLIC_URL: Type.String({ pattern: '^https?://', default: 'http://localhost:8080' }),
  PERSONAS_DIR: Type.String({ default: path.resolve('data/personas') }),
  /** PKCS#8 PEM of the Ed25519 signing key; without it one is generated on first start and kept in the database. */
  SIGNING_KEY_PEM: Type.Optional(Type.String({ minLength: 40 })),
  /** Attempts before a Persona is recorded as failed and its message dead-lettered. */
  PERSONA_MAX_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 20, default: 5 }),
  /** Back-off between attempts, milliseconds, comma-separated. */
  PERSONA_RETRY_DELAYS_MS: Type.String({ pattern: '^\\d+(,\\d+)*$', default: '1000,5000,15000,30000' }),
  /** Worker threads building PDFs. */
  PDF_WORKERS: Type.Integer({ minimum: 1, maximum: 16, default: 1 }),
});
export type PersonalizationConfig = Static<typeof PersonalizationConfigSchema>;

export const loadPersonalizationConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(PersonalizationConfigSchema, env);
