// The personalisation service as its own process (distributed mode).
import { runServiceProcess } from '@persona/service-process';
import { personalizationConfig, personalizationServiceOptions } from './config';
import { PERSONALIZATION_SCHEMA, startPersonalizationService } from './service';

runServiceProcess({
  name: 'personalization',
  schema: PERSONALIZATION_SCHEMA,
  loadConfig: personalizationConfig.loadProcess,
  options: personalizationServiceOptions,
  start: startPersonalizationService,
});
