// What the orders service's routes are given: built once by app.ts, typed here so a route never
// imports the app that registers it.
import type { PrintProvider } from './modules/printing/print-provider';
import type { UnitOfWork } from '@persona/bus';
import type { ReadRouter } from '@persona/db';
import type { AdminVerifier } from '@persona/service-kit';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { OrdersDB } from './db';
import type { InvoiceSettings } from './modules/invoices/order-invoice';
import type { ShopMail } from './modules/mail/emails.repository';
import type { BookReader } from './modules/catalogue/catalogue-client';
import type { PaymentProvider } from './modules/payment-provider/payment-provider';
import type { StandIn } from './modules/payments/test-mode/start-stand-in';

export interface BuyerMail {
  shop: ShopMail;
  nudge: () => void;
}

export interface OrdersDeps {
  db: Kysely<OrdersDB>;
  /** The administrator's lists: `readLatest` (the replica once it holds every commit made before the request). */
  reads: ReadRouter<OrdersDB>;
  provider: PaymentProvider;
  standIn?: StandIn;
  readBook: BookReader;
  adminOnly: onRequestAsyncHookHandler;
  verifier: AdminVerifier;
  uow: UnitOfWork<OrdersDB>;
  lookupRateLimit: { max: number; timeWindow: string };
  /** Sign-in link requests per client. */
  libraryLinkRateLimit: { max: number; timeWindow: string };
  countCap?: number;
  exportBatchSize?: number;
  /** A printed Persona's print files, as the dispatch list links them (issue 27); none without INTERNAL_TOKEN. */
  printFileLinks?: (personaId: string) => { interior: string; cover: string };
  /** Who prints printed copies (issue 27): the webhook route reads its updates. */
  printProvider: PrintProvider;
  mail: BuyerMail;
  webhookInbox: { arrived(): void; nudge(): void };
  invoicing: InvoiceSettings;
  refundSpeed: 'normal' | 'optimum';
  livePaymentsRefused: string | null;
}
