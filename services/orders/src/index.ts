export { buildApp, type OrdersAppOptions } from './app';
export { startOrdersService, ordersMigrations, ORDERS_SCHEMA, type OrdersService, type OrdersServiceOptions } from './service';
export { ordersConfig, ordersServiceOptions, type OrdersConfig, type OrdersSettings } from './config';
export type { OrdersDB } from './db';
export { TEST_MODE_KEYS } from './modules/payments/razorpay/razorpay-provider';
export { paymentSignature, webhookSignature } from './modules/payments/razorpay/razorpay-signatures';
export { seedScaleOrders, type ScaleOrderBook, type ScaleOrdersOptions } from './modules/seed/seed-scale';
