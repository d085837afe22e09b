// The admin service as its own process (distributed mode).
import { createRabbitBus } from '@persona/bus';
import { openDatabase } from '@persona/db';
import { createLogger, runServer, startOrExit } from '@persona/service-kit';
import { loadAdminConfig } from './config';
import type { AdminDB } from './db';
import { ADMIN_SCHEMA, startAdminService } from './service';

startOrExit(async () => {
  const config = loadAdminConfig();
  const logger = createLogger('admin', config.LOG_LEVEL);
  const database = openDatabase<AdminDB>({ kind: 'postgres', url: config.DATABASE_URL, applicationName: 'admin' }, ADMIN_SCHEMA);
  const bus = createRabbitBus({ url: config.AMQP_URL, logger, connectionName: 'admin' });
  const service = await startAdminService({
    database,
    bus,
    logger,
    metricsToken: config.METRICS_TOKEN,
    jwtSecret: config.JWT_SECRET,
    internalToken: config.INTERNAL_TOKEN,
    catalogueUrl: config.CATALOGUE_URL,
    firstAdmin: { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD, name: config.ADMIN_NAME, generate: false },
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
