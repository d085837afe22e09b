// Starts the orders service on a fresh database (PGlite in memory, or a fresh
// schema on the real PostgreSQL), the in-process bus on the same database,
// test-mode payments against the real stand-in, and a fixed book.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { EventBus } from '@persona/bus';
import { sql, type Database } from '@persona/db';
import { mintAdminToken, TEST_JWT_SECRET } from '@persona/test-kit';
import type { InjectOptions } from 'fastify';
import { openTestStack } from '@persona/test-stack';
import { TEST_MODE_KEYS } from '../src/modules/payments/razorpay/razorpay-provider';
import { paymentSignature, webhookSignature } from '../src/modules/payments/razorpay/razorpay-signatures';
import type { OrdersDB } from '../src/db';
import type { CheckoutBook } from '../src/modules/catalogue/catalogue-client';
import type { PaymentSettings } from '../src/modules/payments/create-payment-provider';
import { startOrdersService, type OrdersService } from '../src/service';
import type { PrintProvider } from '../src/modules/printing/print-provider';

export const BOOK: CheckoutBook = {
  id: '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c',
  title: 'Gitanjali',
  author: 'Rabindranath Tagore',
  pricePaise: 34950,
  printingCostPaise: 12000,
};

/** A book stored before the catalogue refused what no Persona can print: its author's name is in Chinese characters. */
export const UNPRINTABLE_BOOK: CheckoutBook = { ...BOOK, id: '7a1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5d', title: 'Quiet Night Thoughts', author: 'Li Bai 李白' };

export interface OrdersHarness {
  service: OrdersService;
  database: Database<OrdersDB>;
  bus: EventBus;
  mailDir: string;
  admin: { authorization: string };
  close(): Promise<void>;
}

export async function startOrdersHarness(
  kind: 'pglite' | 'postgres',
  extra: {
    lookupsPerMinute?: number;
    libraryLinksPerMinute?: number;
    lists?: { countCap?: number; exportBatchSize?: number };
    /** The mail relay's clock (scheduled e-mails). */
    mailNow?: () => Date;
    /** The shop's address and payment keys (default: https://shop.example, test mode). */
    publicUrl?: string;
    payments?: PaymentSettings;
    /** Printed copies' provider (a print house's stand-in), with the INTERNAL_TOKEN its file links are signed with. */
    printProvider?: PrintProvider;
    internalToken?: string;
    printJobsPollMs?: number;
  } = {},
): Promise<OrdersHarness> {
  const mailDir = await mkdtemp(path.join(os.tmpdir(), 'orders-mail-'));
  const stack = await openTestStack<OrdersDB>(kind, 'orders');
  const { database, bus, logger } = stack;
  const service = await startOrdersService({
    database,
    bus,
    logger,
    jwtSecret: TEST_JWT_SECRET,
    catalogueUrl: 'http://127.0.0.1:1',
    publicUrl: extra.publicUrl ?? 'https://shop.example',
    supportEmail: 'help@shop.example',
    payments: extra.payments ?? {},
    mail: { dir: mailDir, from: 'Persona Books <orders@example.com>', now: extra.mailNow },
    readBook: async (id) => {
      if (id === UNPRINTABLE_BOOK.id) return UNPRINTABLE_BOOK;
      if (id !== BOOK.id) {
        const { notFound } = await import('@persona/service-kit');
        throw notFound('Book not found');
      }
      return BOOK;
    },
    reconcileEveryMs: 3600_000,
    refundPollMs: 3600_000,
    lookupsPerMinute: extra.lookupsPerMinute,
    libraryLinksPerMinute: extra.libraryLinksPerMinute,
    lists: extra.lists,
    ...(extra.printProvider ? { printProvider: extra.printProvider } : {}),
    ...(extra.internalToken ? { internalToken: extra.internalToken } : {}),
    ...(extra.printJobsPollMs ? { printJobsPollMs: extra.printJobsPollMs } : {}),
  });
  return {
    service,
    database,
    bus,
    mailDir,
    admin: { authorization: `Bearer ${mintAdminToken()}` },
    async close() {
      await service.close();
      await stack.close();
      await rm(mailDir, { recursive: true, force: true });
    },
  };
}

export const checkout = (over: Record<string, unknown> = {}) => ({
  book: BOOK.id,
  fullName: 'Zoë Ünal',
  email: 'zoe@example.com',
  phone: '+91 98765 43210',
  deliveryType: 'digital',
  address: null,
  ...over,
});

/** What checkout.js hands the browser for a payment, signed as Razorpay signs it: verify's body. */
export function verifyBody(orderId: string, razorpayOrderId: string, paymentId: string) {
  return { orderId, razorpayOrderId, razorpayPaymentId: paymentId, razorpaySignature: paymentSignature(razorpayOrderId, paymentId, TEST_MODE_KEYS.keySecret) };
}

/** A Razorpay webhook about a payment of `razorpayOrderId`, signed with the test-mode secret; each call a new event id. */
export function signedWebhook(event: string, razorpayOrderId: string, amount: number, paymentId = `pay_${randomUUID().replace(/-/g, '').slice(0, 14)}`) {
  const body = JSON.stringify({
    entity: 'event',
    event,
    payload: { payment: { entity: { id: paymentId, order_id: razorpayOrderId, amount, status: event === 'payment.failed' ? 'failed' : 'captured' } } },
  });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-razorpay-signature': webhookSignature(body, TEST_MODE_KEYS.webhookSecret),
      'x-razorpay-event-id': `evt_${randomUUID()}`,
    },
  };
}

/** A checkout paid through verify (the browser's proof), as a buyer's would be: its order and persona ids. */
export async function paidOrder(h: OrdersHarness, body: object = checkout()): Promise<{ orderId: string; personaId: string }> {
  const inject = (opts: InjectOptions) => h.service.app.inject(opts);
  const { orderId, razorpayOrderId } = (await inject({ method: 'POST', url: '/api/payments/initiate', payload: body })).json().data;
  const paymentId = `pay_${orderId.replace(/-/g, '').slice(0, 14)}`;
  const res = await inject({ method: 'POST', url: '/api/payments/verify', payload: verifyBody(orderId, razorpayOrderId, paymentId) });
  return { orderId, personaId: res.json().data.personaId as string };
}

/** A paid order's invoice once order.paid's consumer has issued it (after the payment's answer, on PostgreSQL often so). */
export async function issuedInvoice(h: OrdersHarness, id: string, headers: Record<string, string> = {}) {
  for (let i = 0; i < 100; i += 1) {
    const res = await h.service.app.inject({ method: 'GET', url: `/api/orders/${id}/invoice`, headers });
    if (res.statusCode === 200) return res;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no invoice was issued');
}

export const ADDRESS = { line1: '12 MG Road', city: 'Kochi', zip: '682001', country: 'India' };

export async function outboxEvents(
  database: Database<OrdersDB>,
): Promise<Array<{ type: string; payload: Record<string, unknown>; actor?: { id: string; email: string } }>> {
  const { rows } = await sql<{ envelope: { type: string; payload: Record<string, unknown> } }>`SELECT envelope FROM outbox ORDER BY id`.execute(database.db);
  return rows.map((r) => (typeof r.envelope === 'string' ? JSON.parse(r.envelope) : r.envelope));
}
