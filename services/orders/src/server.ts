// The orders service as its own process (distributed mode).
import { sessionRevocationCheck } from '@persona/service-kit';
import { runServiceProcess, type ProcessParts } from '@persona/service-process';
import { loadOrdersConfig, type OrdersConfig } from './config';
import type { OrdersDB } from './db';
import { ORDERS_SCHEMA, startOrdersService } from './service';

runServiceProcess({
  name: 'orders',
  schema: ORDERS_SCHEMA,
  loadConfig: loadOrdersConfig,
  start: ({ config, database, bus, logger }: ProcessParts<OrdersConfig, OrdersDB>) =>
    startOrdersService({
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
    }),
});
