export { buildApp } from './app';
export type { PersonalizationAppOptions } from './deps';
export {
  startPersonalizationService,
  personalizationMigrations,
  PERSONALIZATION_SCHEMA,
  type PersonalizationService,
  type PersonalizationServiceOptions,
} from './service';
export { personalizationConfig, personalizationServiceOptions, type PersonalizationConfig, type PersonalizationSettings } from './config';
export type { PersonalizationDB } from './db';
