// Wires the orders service for either run mode: migrations, the payment
// provider (and the Razorpay stand-in in test mode), the outbox and mail
// relays, the persona-event consumer and the reconciler.
import path from 'node:path';
import { createUnitOfWork, openServiceStore, registerBusMetrics, serviceMigrations, type Subscription } from '@persona/bus';
import { leadership, whileLeading } from '@persona/db';
import { createPrintProvider, type PrintOptions } from './modules/printing/create-print-provider';
import { submitPrintJobs } from './modules/printing/print-jobs';
import type { PrintProvider } from './modules/printing/print-provider';
import {
  backgroundRounds,
  backingReadiness,
  closeHttpServer,
  createAdminVerifier,
  printFileUrl,
  SHUTDOWN_DEFAULTS,
  type ServiceApp,
} from '@persona/service-kit';
import type { RunningService, ServiceBaseOptions } from '@persona/service-process';
import type { MigrationProvider } from 'kysely';
import { buildApp } from './app';
import type { OrdersDB } from './db';
import { createMailRelay, type MailOptions } from './modules/mail/mail-relay';
import { ORDERS_PERSONA_QUEUE, ORDERS_RECEIPT_QUEUE, subscribeOrderReceipts, subscribePersonaEvents } from './modules/orders/persona-events';
import { ORDERS_DOWNLOAD_RENEWAL_QUEUE, subscribeDownloadRenewals } from './modules/library/download-renewals';
import { ORDERS_FEEDBACK_ANSWER_QUEUE, subscribeFeedbackAnswers } from './modules/feedback-answers/feedback-answers';
import { catalogueBookReader, giftPictures, type BookReader } from './modules/catalogue/catalogue-client';
import { livePaymentsRefusal } from './modules/payments/selling-refusal';
import { createPaymentProvider, type PaymentSettings } from './modules/payments/create-payment-provider';
import { reconcileUnpaidOrders } from './modules/payments/reconcile-payments';
import { webhookInbox } from './modules/payments/handle-payment-webhook';
import type { StandIn } from './modules/payments/test-mode/start-stand-in';
import { pollRefunds } from './modules/refunds/refunds';
import { pruneMailFiles } from './modules/retention/mail-files';
import { DEFAULT_RETENTION, retentionMetrics, retentionRound, type RetentionSettings } from './modules/retention/retention';
import { releaseStaleReservations } from './modules/coupons/coupon-redemptions';
import { DEFAULT_SELLER, drawMissingInvoicePdfs, invoiceSettings, type InvoiceSettings } from './modules/invoices/order-invoice';
import type { InvoiceTasks } from './modules/invoices/invoice-tasks';
import { servicePool } from '@persona/untrusted';

export const ORDERS_SCHEMA = 'orders';
export const MIGRATIONS_DIR = path.resolve(__dirname, '../migrations');

export const ordersMigrations: MigrationProvider = serviceMigrations(MIGRATIONS_DIR);

export interface OrdersServiceOptions extends ServiceBaseOptions<OrdersDB> {
  jwtSecret: string;
  catalogueUrl: string;
  publicUrl: string;
  /** Where buyers write with questions; every e-mail names it. */
  supportEmail: string;
  payments: PaymentSettings;
  mail: MailOptions;
  /** Replaces the HTTP catalogue reader (tests). */
  readBook?: BookReader;
  reconcileEveryMs?: number;
  /** How often refunds due a check are asked about (tests make it small). */
  refundPollMs?: number;
  /** Razorpay's refund speed (REFUND_SPEED): normal (5–7 working days, free) or optimum (instant where the bank allows, a fee). */
  refundSpeed?: 'normal' | 'optimum';
  lookupsPerMinute?: number;
  libraryLinksPerMinute?: number;
  /** The administrator's list: where counting stops and the export's batch size (tests make them small). */
  lists?: { countCap?: number; exportBatchSize?: number };
  /** The seller, numbering and tax of the tax invoices (config: SELLER_*, INVOICE_PREFIX); the made-up demo seller when absent. */
  invoicing?: InvoiceSettings;
  /** How long e-mail bodies, webhook events, payment attempts and library tokens are kept (config: *_RETENTION_DAYS); DEFAULT_RETENTION when absent. */
  retention?: RetentionSettings;
  /** The session check for admin tokens (see sessionRevocationCheck). */
  isRevoked?: (jti: string) => boolean | Promise<boolean>;
  /**
   * The services' shared INTERNAL_TOKEN: the catalogue's checkout answer (prices in paise) is read
   * with it, and a gift's e-mail names its dedication image by a token made with it. Required
   * unless `readBook` stands in for the catalogue.
   */
  internalToken?: string;
  /** Who prints a printed Persona (PRINT_PROVIDER, PRINT_HOUSE_*; issue 27): the shop's own courier when absent. */
  print?: PrintOptions;
  /** Replaces the print provider those options make (tests: a house's stand-in). */
  printProvider?: PrintProvider;
  /** How often queued print jobs are handed to the provider (tests make it small). */
  printJobsPollMs?: number;
}

export interface OrdersService extends RunningService {
  mode: 'live' | 'test';
  /** Sends queued e-mails now (tests, diagnostics). */
  drainMail(): Promise<number>;
  /** Handles every payment webhook recorded and due now (tests, diagnostics). */
  drainWebhooks(): Promise<number>;
  /** Asks about every refund whose check is due now (tests, diagnostics). */
  pollRefunds(): Promise<number>;
  /** Prunes what is past its retention now, in the replica that leads (tests, diagnostics); the rows pruned. */
  pruneRetained(): Promise<number>;
  /** Test mode's Razorpay stand-in (tests play Razorpay with it); absent in live mode. */
  standIn?: StandIn;
  /**
   * Stops taking requests; in-flight requests and persona events get `graceMs`
   * (messages still being handled then go back to the queue); the outbox is
   * flushed and the mail relay finishes its round.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

export async function startOrdersService(options: OrdersServiceOptions): Promise<OrdersService> {
  const { database, bus, logger } = options;
  const readBook = options.readBook ?? (options.internalToken ? catalogueBookReader(options.catalogueUrl, options.internalToken) : undefined);
  if (!readBook) throw new Error("The orders service reads a checkout's book from the catalogue's internal routes: set INTERNAL_TOKEN");
  const store = await openServiceStore({
    name: 'orders',
    database,
    migrations: ordersMigrations,
    bus,
    logger,
    retentionMs: options.eventRetentionMs,
    migrationMode: options.migrationMode,
  });
  const outbox = store.relay;
  const closers: Array<() => Promise<void>> = [];
  // The one-at-a-time work (the reconciler, the refund poller, coupon holds, the invoice PDFs' sweep)
  // runs in the one replica that leads (@persona/db's leadership); the rest is safe in every replica.
  const lead = leadership(database, 'orders', { logger });
  await lead.start();
  closers.push(() => lead.stop());

  let app: ServiceApp | undefined;
  // In test mode the stand-in's webhooks go to our real webhook route (this replica's: any replica
  // handles any webhook), and with REDIS_URL its state is shared by every replica's stand-in.
  const payments = await createPaymentProvider(
    options.payments,
    async (delivery) => {
      if (!app) throw new Error('orders app not ready');
      const res = await app.inject({
        method: 'POST',
        url: '/api/payments/webhook',
        payload: delivery.body,
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': delivery.signature, 'x-razorpay-event-id': delivery.eventId },
      });
      if (res.statusCode !== 200) throw new Error(`webhook answered ${res.statusCode}`);
    },
    logger,
    { redisUrl: options.redisUrl },
  );
  closers.push(() => payments.close());
  const { provider, mode, standIn } = payments;
  const livePaymentsRefused = livePaymentsRefusal(mode, options.payments.keyId, options.publicUrl);
  // Loud, at every start: the owner reads it in the log, and on the dashboard.
  if (livePaymentsRefused) logger.error({ publicUrl: options.publicUrl }, livePaymentsRefused);

  closers.push(() => store.flush());
  const mail = createMailRelay(database.db, options.mail, logger);
  mail.start();
  closers.push(() => mail.stop());
  // Invoice PDFs are drawn on a worker thread (invoice-tasks.ts), never on this event loop, and at
  // a lower CPU priority than it: nobody waits on an invoice, a webhook waits on its answer.
  const invoiceThread = servicePool<InvoiceTasks>(require.resolve('./modules/invoices/invoice-tasks'), {
    threads: 1,
    niceness: 10,
    heapMb: 128,
    timeoutMs: 30_000,
    maxQueue: 10_000,
    maxWaitMs: 600_000,
  });
  closers.push(() => invoiceThread.close());
  const invoicing: InvoiceSettings = {
    ...(options.invoicing ?? invoiceSettings(DEFAULT_SELLER)),
    draw: (invoice) => invoiceThread.run('renderInvoice', invoice),
  };
  // An invoice whose PDF was not drawn after its commit (a crash, a restart) is drawn within a minute.
  const invoicePdfs = backgroundRounds(
    whileLeading(lead, () => drawMissingInvoicePdfs(database.db, invoicing.draw)),
    { pollMs: 60_000, logger, what: 'invoice PDFs' },
  );
  invoicePdfs.start();
  closers.push(() => invoicePdfs.stop());
  const shop = { publicUrl: options.publicUrl, supportEmail: options.supportEmail };
  // Printed copies (issue 27): their print jobs handed to the print provider in the leader's rounds.
  const printProvider = options.printProvider ?? createPrintProvider(options.print, options.supportEmail, options.internalToken);
  const printJobs = backgroundRounds(
    whileLeading(lead, () =>
      submitPrintJobs({
        db: database.db,
        provider: printProvider,
        fileUrl: (personaId, file) => printFileUrl(options.publicUrl, options.internalToken ?? '', personaId, file),
        logger,
      }),
    ),
    { pollMs: options.printJobsPollMs ?? 30_000, logger, what: 'print jobs' },
  );
  printJobs.start();
  closers.push(() => printJobs.stop());
  const inbox = webhookInbox({ uow: createUnitOfWork({ db: database.db, relay: outbox }), db: database.db, logger, shop });
  inbox.start();
  closers.push(() => inbox.stop());

  app = await buildApp({
    db: database.db,
    reads: database,
    provider,
    standIn,
    readBook,
    verifier: createAdminVerifier({ secret: options.jwtSecret, isRevoked: options.isRevoked }),
    logger,
    relay: outbox,
    lookupsPerMinute: options.lookupsPerMinute,
    libraryLinksPerMinute: options.libraryLinksPerMinute,
    lists: options.lists,
    mail: { shop, nudge: () => mail.nudge() },
    webhookInbox: inbox,
    invoicing,
    refundSpeed: options.refundSpeed,
    livePaymentsRefused,
    metricsToken: options.metricsToken,
    redisUrl: options.redisUrl,
    loadShedding: options.loadShedding,
    readiness: backingReadiness(database, bus),
    printProvider,
    ...(options.internalToken
      ? {
          printFileLinks: (personaId: string) => ({
            interior: printFileUrl(options.publicUrl, options.internalToken!, personaId, 'interior'),
            cover: printFileUrl(options.publicUrl, options.internalToken!, personaId, 'cover'),
          }),
        }
      : {}),
  });
  registerBusMetrics(app.metrics, {
    db: database.db,
    bus,
    queues: [ORDERS_PERSONA_QUEUE, ORDERS_RECEIPT_QUEUE, ORDERS_DOWNLOAD_RENEWAL_QUEUE, ORDERS_FEEDBACK_ANSWER_QUEUE],
  });

  const subscriptions: Subscription[] = [
    await subscribePersonaEvents(
      bus,
      database.db,
      shop,
      () => {
        mail.nudge();
        printJobs.nudge();
      },
      logger,
      giftPictures(options.catalogueUrl, options.publicUrl, options.internalToken),
      printProvider.name,
    ),
    await subscribeOrderReceipts(bus, database.db, shop, () => mail.nudge(), logger, invoicing),
    await subscribeDownloadRenewals(bus, database.db, shop, () => mail.nudge(), logger),
    await subscribeFeedbackAnswers(bus, database.db, shop, () => mail.nudge(), logger),
  ];
  let graceMs: number = SHUTDOWN_DEFAULTS.messageGraceMs;
  for (const subscription of subscriptions) closers.push(() => subscription.close({ graceMs }));

  const reconcileEvery = options.reconcileEveryMs ?? 60_000;
  // One run at a time, in the replica that leads (a long run is not overlapped by the next tick).
  let reconciling = false;
  const reconciler = setInterval(() => {
    if (reconciling || !lead.leading) return;
    reconciling = true;
    reconcileUnpaidOrders({
      db: database.db,
      provider,
      readBook,
      correlationId: 'reconciler',
      uow: createUnitOfWork({ db: database.db, relay: outbox }),
      log: logger,
    })
      .then((n) => n > 0 && logger.info({ settled: n }, 'reconciler found paid orders'))
      .catch((err) => logger.warn({ err }, 'reconciler failed'))
      .finally(() => (reconciling = false));
  }, reconcileEvery);
  reconciler.unref();
  closers.push(async () => clearInterval(reconciler));

  // Refunds not yet final: asked about on their schedule (refunds/refunds.ts), a requested one sent again with its key.
  const refundPoller = backgroundRounds(
    whileLeading(lead, () =>
      pollRefunds({ uow: createUnitOfWork({ db: database.db, relay: outbox }), db: database.db, provider, shop, correlationId: 'refund-poller' }, logger),
    ),
    { pollMs: options.refundPollMs ?? 30_000, logger, what: 'refund poller' },
  );
  refundPoller.start();
  closers.push(() => refundPoller.stop());

  // Coupon codes held by checkouts left unpaid longer than a checkout lives are given back (coupons/coupon-redemptions.ts).
  const couponHolds = backgroundRounds(
    whileLeading(lead, () => releaseStaleReservations(database.db, logger)),
    { pollMs: 60_000, logger, what: 'coupon holds' },
  );
  couponHolds.start();
  closers.push(() => couponHolds.stop());

  // What grows with every sale is kept as long as README's *_RETENTION_DAYS say, then pruned a batch at a time (retention/).
  const retention = backgroundRounds(
    whileLeading(lead, retentionRound(database.db, options.retention ?? DEFAULT_RETENTION, logger, retentionMetrics(app.metrics))),
    { pollMs: 3600_000, logger, what: 'retention' },
  );
  retention.start();
  closers.push(() => retention.stop());
  // E-mails written as files (no SMTP_URL) live on this machine: every replica prunes its own folder.
  const retainedMail = options.mail.smtpUrl
    ? null
    : backgroundRounds(
        async () => {
          const pruned = await pruneMailFiles(options.mail.dir, new Date(Date.now() - (options.retention ?? DEFAULT_RETENTION).emailBodyDays * 86_400_000));
          if (pruned > 0) logger.info({ files: pruned, dir: options.mail.dir }, 'e-mail files past their retention pruned');
          return pruned;
        },
        { pollMs: 3600_000, logger, what: 'e-mail files retention' },
      );
  retainedMail?.start();
  if (retainedMail) closers.push(() => retainedMail.stop());

  const running = app;
  return {
    app: running,
    mode,
    drainMail: () => mail.drain(),
    drainWebhooks: () => inbox.drain(),
    pollRefunds: () => refundPoller.drain(),
    pruneRetained: () => retention.drain(),
    standIn,
    async close(options = {}) {
      graceMs = options.graceMs ?? SHUTDOWN_DEFAULTS.messageGraceMs;
      await closeHttpServer(running, graceMs, logger);
      for (const close of closers.reverse()) await close().catch((err) => logger.warn({ err }, 'orders shutdown step failed'));
    },
  };
}
