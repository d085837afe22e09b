// The catalogue as its own process (distributed mode): PostgreSQL + RabbitMQ.
import { createRabbitBus } from '@persona/bus';
import { openDatabase } from '@persona/db';
import { createLogger, runServer, sessionRevocationCheck, startOrExit } from '@persona/service-kit';
import { loadCatalogueConfig } from './config';
import type { CatalogueDB } from './db';
import { CATALOGUE_SCHEMA, startCatalogueService } from './service';

startOrExit(async () => {
  const config = loadCatalogueConfig();
  const logger = createLogger('catalogue', config.LOG_LEVEL);
  const database = openDatabase<CatalogueDB>({ kind: 'postgres', url: config.DATABASE_URL, applicationName: 'catalogue' }, CATALOGUE_SCHEMA);
  const bus = createRabbitBus({ url: config.AMQP_URL, logger, connectionName: 'catalogue' });
  const service = await startCatalogueService({
    database,
    bus,
    logger,
    metricsToken: config.METRICS_TOKEN,
    jwtSecret: config.JWT_SECRET,
    isRevoked: config.ADMIN_URL && config.INTERNAL_TOKEN ? sessionRevocationCheck(config.ADMIN_URL, config.INTERNAL_TOKEN) : undefined,
    filesDir: config.FILES_DIR,
    seedDemo: config.SEED_DEMO,
    internalToken: config.INTERNAL_TOKEN,
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
