// The orders service as its own process (distributed mode).
import { runServiceProcess, type ProcessParts } from '@persona/service-process';
import { loadOrdersConfig, ordersServiceOptions, type OrdersConfig } from './config';
import type { OrdersDB } from './db';
import { ORDERS_SCHEMA, startOrdersService } from './service';

runServiceProcess({
  name: 'orders',
  schema: ORDERS_SCHEMA,
  loadConfig: loadOrdersConfig,
  start: ({ config, database, bus, logger }: ProcessParts<OrdersConfig, OrdersDB>) =>
    startOrdersService({ database, bus, logger, ...ordersServiceOptions(config) }),
});
