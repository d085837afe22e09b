// Builds the orders service's Fastify instance.
import { createUnitOfWork } from '@persona/bus';
import {
  type AdminVerifier,
  type AppBaseOptions,
  baseServiceOptions,
  createServiceApp,
  registerRouteRateLimits,
  sharedLimits,
  requireAdmin,
  type ServiceApp,
} from '@persona/service-kit';
import { primaryOnly, type ReadRouter } from '@persona/db';
import type { Kysely } from 'kysely';
import type { OrdersDB } from './db';
import type { BuyerMail, OrdersDeps } from './deps';
import type { BookReader } from './modules/catalogue/catalogue-client';
import type { InvoiceSettings } from './modules/invoices/order-invoice';
import type { PaymentProvider } from './modules/payment-provider/payment-provider';
import type { StandIn } from './modules/payments/test-mode/start-stand-in';
import { ownCourier, type PrintProvider } from './modules/printing/print-provider';
import couponRoutes from './routes/coupons';
import libraryRoutes from './routes/library';
import orderRoutes from './routes/orders';
import paymentRoutes from './routes/payments';
import printHouseRoutes from './routes/print-house';
import reportRoutes from './routes/reports';

export interface OrdersAppOptions extends AppBaseOptions {
  db: Kysely<OrdersDB>;
  /** Where the administrator's lists are read (the database: its read replica when DATABASE_READ_URL is set); the primary without it. */
  reads?: ReadRouter<OrdersDB>;
  provider: PaymentProvider;
  /** Present in test mode only: serves the "buyer pays" action. */
  standIn?: StandIn;
  readBook: BookReader;
  verifier: AdminVerifier;
  /** Persona lookups per minute per client (guessing protection). */
  lookupsPerMinute?: number;
  /** Library sign-in link requests per minute per client. */
  libraryLinksPerMinute?: number;
  /** The administrator's list: where counting stops (COUNT_CAP) and the export's batch size. */
  lists?: { countCap?: number; exportBatchSize?: number };
  /** The buyers' e-mails a change queues: the shop they name, and the relay to wake once queued. */
  mail: BuyerMail;
  /** The payment webhooks' inbox, told of each delivery (it gives way to them) and woken once one is recorded. */
  webhookInbox: { arrived(): void; nudge(): void };
  invoicing: InvoiceSettings;
  /** Razorpay's refund speed (REFUND_SPEED). */
  refundSpeed?: 'normal' | 'optimum';
  /** Why live payments are refused (livePaymentsRefusal): initiation answers 503 and the dashboard says why; absent: the shop sells. */
  livePaymentsRefused?: string | null;
  /** A printed Persona's print files, as the dispatch list links them (issue 27); none without INTERNAL_TOKEN. */
  printFileLinks?: (personaId: string) => { interior: string; cover: string };
  /** Who prints printed copies: its webhooks are read by /api/print-house/webhook (issue 27). */
  printProvider?: PrintProvider;
}

export async function buildApp(options: OrdersAppOptions): Promise<ServiceApp> {
  const app = createServiceApp(baseServiceOptions('orders', options));
  await registerRouteRateLimits(app, 'lookups', sharedLimits(app, options.redisUrl, 'orders'));
  const deps: OrdersDeps = {
    db: options.db,
    reads: options.reads ?? primaryOnly(options.db),
    provider: options.provider,
    standIn: options.standIn,
    readBook: options.readBook,
    adminOnly: requireAdmin(options.verifier),
    verifier: options.verifier,
    uow: createUnitOfWork({ db: options.db, relay: options.relay, reads: options.reads }),
    lookupRateLimit: { max: options.lookupsPerMinute ?? 120, timeWindow: '1 minute' },
    libraryLinkRateLimit: { max: options.libraryLinksPerMinute ?? 5, timeWindow: '1 minute' },
    countCap: options.lists?.countCap,
    exportBatchSize: options.lists?.exportBatchSize,
    mail: options.mail,
    webhookInbox: options.webhookInbox,
    invoicing: options.invoicing,
    refundSpeed: options.refundSpeed ?? 'normal',
    livePaymentsRefused: options.livePaymentsRefused ?? null,
    printFileLinks: options.printFileLinks,
    printProvider: options.printProvider ?? ownCourier,
  };
  await app.register(async (scope) => {
    await paymentRoutes(scope as ServiceApp, deps);
    await orderRoutes(scope as ServiceApp, deps);
    await reportRoutes(scope as ServiceApp, deps);
    await libraryRoutes(scope as ServiceApp, deps);
    await couponRoutes(scope as ServiceApp, deps);
    await printHouseRoutes(scope as ServiceApp, deps);
  });
  return app;
}
