// The personalisation service as its own process (distributed mode).
import { createRabbitBus } from '@persona/bus';
import { openDatabase } from '@persona/db';
import { createLogger, runServer, startOrExit } from '@persona/service-kit';
import { loadPersonalizationConfig } from './config';
import type { PersonalizationDB } from './db';
import { PERSONALIZATION_SCHEMA, startPersonalizationService } from './service';

startOrExit(async () => {
  const config = loadPersonalizationConfig();
  const logger = createLogger('personalization', config.LOG_LEVEL);
  const database = openDatabase<PersonalizationDB>({ kind: 'postgres', url: config.DATABASE_URL, applicationName: 'personalization' }, PERSONALIZATION_SCHEMA);
  const bus = createRabbitBus({ url: config.AMQP_URL, logger, connectionName: 'personalization' });
  const service = await startPersonalizationService({
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
  });
  await runServer({
    app: service.app,
    port: config.PORT,
    host: config.HOST,
    logger,
    // After the HTTP server drained: consumers finish or hand back their messages, the outbox is flushed, then pools close.
    onShutdown: async ({ graceMs }) => {
      await service.close({ graceMs });
      await bus.close();
      await database.close();
    },
  });
});
