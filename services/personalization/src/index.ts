export { buildApp, type PersonalizationAppOptions } from './app';
export { startPersonalizationService, personalizationMigrations, PERSONALIZATION_SCHEMA, type PersonalizationService, type PersonalizationServiceOptions } from './service';
export { PersonalizationConfigSchema, loadPersonalizationConfig, type PersonalizationConfig } from './config';
export type { PersonalizationDB } from './db';
