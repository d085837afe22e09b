// The orders service as its own process (distributed mode).
import { createRabbitBus } from '@persona/bus';
import { openDatabase } from '@persona/db';
import { createLogger, runServer, sessionRevocationCheck, startOrExit } from '@persona/service-kit';
import { loadOrdersConfig } from './config';
import type { OrdersDB } from './db';
import { ORDERS_SCHEMA, startOrdersService } from './service';

startOrExit(async () => {
  const config = loadOrdersConfig();
  const logger = createLogger('orders', config.LOG_LEVEL);
  const database = openDatabase<OrdersDB>({ kind: 'postgres', url: config.DATABASE_URL, applicationName: 'orders' }, ORDERS_SCHEMA);
  const bus = createRabbitBus({ url: config.AMQP_URL, logger, connectionName: 'orders' });
  const service = await startOrdersService({
    database,
    bus,
    logger,
    metricsToken: config.METRICS_TOKEN,
    jwtSecret: config.JWT_SECRET,
    isRevoked: config.ADMIN_URL && config.INTERNAL_TOKEN ? sessionRevocationCheck(config.ADMIN_URL, config.INTERNAL_TOKEN) : undefined,
    catalogueUrl: config.CATALOGUE_URL,
    publicUrl: config.PUBLIC_URL,
    payments: { mode: config.PAYMENTS_MODE, keyId: config.RAZORPAY_KEY_ID, keySecret: config.RAZORPAY_KEY_SECRET, webhookSecret: config.RAZORPAY_WEBHOOK_SECRET },
    mail: { smtpUrl: config.SMTP_URL, dir: config.MAIL_DIR, from: config.MAIL_FROM },
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
