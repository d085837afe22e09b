// The personalisation service as its own process (distributed mode).
import { runServiceProcess, type ProcessParts } from '@persona/service-process';
import { loadPersonalizationConfig, personalizationServiceOptions, type PersonalizationConfig } from './config';
import type { PersonalizationDB } from './db';
import { PERSONALIZATION_SCHEMA, startPersonalizationService } from './service';

runServiceProcess({
  name: 'personalization',
  schema: PERSONALIZATION_SCHEMA,
  loadConfig: loadPersonalizationConfig,
  start: ({ config, database, bus, logger }: ProcessParts<PersonalizationConfig, PersonalizationDB>) =>
    startPersonalizationService({ database, bus, logger, ...personalizationServiceOptions(config) }),
});
