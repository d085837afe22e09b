// The admin service's configuration, the only reader of its environment in
// either run mode: its own process (server.ts) and the embedded shop both
// build the service's options from `adminServiceOptions`.
import { Type, type Static } from '@sinclair/typebox';
import { CommonConfig, serviceConfig, ServiceSettings, sharedServiceOptions } from '@persona/service-kit';
import type { AdminServiceOptions } from './service';

/** What the service needs in either run mode (`adminConfig.settings`, `loadSettings`), and its own process's schema (the settings, where it listens, what it runs on: `process`, `loadProcess`). */
export const adminConfig = serviceConfig(
  Type.Object({
    ...ServiceSettings,
    JWT_SECRET: CommonConfig.JWT_SECRET,
    /** Shared secret the gateway and services send to check a session. */
    INTERNAL_TOKEN: Type.String({ minLength: 32 }),
    CATALOGUE_URL: Type.String({ pattern: '^https?://' }),
    /** The first administrator, created on first start when both are set. */
    ADMIN_EMAIL: Type.Optional(Type.String({ pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' })),
    ADMIN_PASSWORD: Type.Optional(Type.String({ minLength: 10 })),
    ADMIN_NAME: Type.String({ default: 'Administrator' }),
  }),
  3004,
);
export type AdminSettings = Static<typeof adminConfig.settings>;
export type AdminConfig = Static<typeof adminConfig.process>;

/**
 * The service's options from its settings; the run mode adds the database, the
 * bus and the logger. `generateFirstAdmin`: without ADMIN_EMAIL and
 * ADMIN_PASSWORD, create an administrator with a generated password on an
 * empty database (the embedded shop prints it; a deployed service must be told).
 */
export function adminServiceOptions(settings: AdminSettings, { generateFirstAdmin = false } = {}): Omit<AdminServiceOptions, 'database' | 'bus' | 'logger'> {
  return {
    ...sharedServiceOptions(settings),
    jwtSecret: settings.JWT_SECRET,
    internalToken: settings.INTERNAL_TOKEN,
    catalogueUrl: settings.CATALOGUE_URL,
    firstAdmin: { email: settings.ADMIN_EMAIL, password: settings.ADMIN_PASSWORD, name: settings.ADMIN_NAME, generate: generateFirstAdmin },
  };
}
