// The personalisation service as its own process (distributed mode).
import { runServiceProcess, type ProcessParts } from '@persona/service-process';
import { loadPersonalizationConfig, type PersonalizationConfig } from './config';
import type { PersonalizationDB } from './db';
import { PERSONALIZATION_SCHEMA, startPersonalizationService } from './service';

runServiceProcess({
  name: 'personalization',
  schema: PERSONALIZATION_SCHEMA,
  loadConfig: loadPersonalizationConfig,
  start: ({ config, database, bus, logger }: ProcessParts<PersonalizationConfig, PersonalizationDB>) =>
    startPersonalizationService({
      database,
      bus,
      logger,
      metricsToken: config.METRICS_TOKEN,
      catalogueUrl: config.CATALOGUE_URL,
      internalToken: config.INTERNAL_TOKEN,
      publicUrl: config.PUBLIC_URL,
      personasDir: config.PERSONAS_DIR,
      signingKeyPem: config.SIGNING_KEY_PEM,
      pdfWorkers: config.PDF_WORKERS,
      maxAttempts: config.PERSONA_MAX_ATTEMPTS,
      retryDelaysMs: config.PERSONA_RETRY_DELAYS_MS.split(',').map(Number),
    }),
});
