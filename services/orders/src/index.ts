export { buildApp, type OrdersAppOptions } from './app';
export { startOrdersService, ordersMigrations, ORDERS_SCHEMA, type OrdersService, type OrdersServiceOptions } from './service';
export { ordersConfig, ordersServiceOptions, type OrdersConfig, type OrdersSettings } from './config';
export type { OrdersDB } from './db';
export { TEST_MODE_KEYS } from './modules/payments/razorpay/razorpay-provider';
export { paymentSignature, webhookSignature } from './modules/payments/razorpay/razorpay-signatures';
export { seedScaleOrders, type ScaleOrderBook, type ScaleOrdersOptions } from './modules/seed/seed-scale';
// Every e-mail the shop writes, for the end-to-end check that each reads on a phone (e2e/test/emails.test.ts).
export * as orderEmails from './modules/mail/order-emails';
export { downloadRenewalEmail } from './modules/mail/download-renewal-email';
export { feedbackAnswerEmail } from './modules/feedback-answers/feedback-answer-email';
export type { DueEmail } from './modules/mail/emails.repository';
export type { OrderRow } from './modules/order-records/orders.repository';
