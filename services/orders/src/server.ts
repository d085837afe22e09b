// The orders service as its own process (distributed mode).
import { runServiceProcess } from '@persona/service-process';
import { ordersConfig, ordersServiceOptions } from './config';
import { ORDERS_SCHEMA, startOrdersService } from './service';

runServiceProcess({ name: 'orders', schema: ORDERS_SCHEMA, loadConfig: ordersConfig.loadProcess, options: ordersServiceOptions, start: startOrdersService });
