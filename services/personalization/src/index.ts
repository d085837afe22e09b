export { buildApp, type PersonalizationAppOptions } from './app';
export {
  startPersonalizationService,
  personalizationMigrations,
  PERSONALIZATION_SCHEMA,
  type PersonalizationService,
  type PersonalizationServiceOptions,
} from './service';
export { personalizationConfig, personalizationServiceOptions, type PersonalizationConfig, type PersonalizationSettings } from './config';
export type { PersonalizationDB } from './db';
