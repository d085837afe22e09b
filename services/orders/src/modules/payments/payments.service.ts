// Checkout and payment (DESIGN §4). The server computes every amount; an
// order is paid once, by whichever of verify, webhook or reconciler sees the
// payment first; it never moves back from paid; each first payment emits
// order.paid through the outbox in the same transaction.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createEvent, type UnitOfWork, type Work } from '@persona/bus';
import {
  computeOrderAmount,
  formatPersonaId,
  ZIP_MESSAGE,
  type InitiatePaymentBody,
  type InitiatePaymentData,
  type OrderAmount,
  type VerifyPaymentBody,
} from '@persona/contracts';
import { isUniqueViolation, type Kysely } from '@persona/db';
import { badRequest, conflict, HttpError, notFound } from '@persona/service-kit';
import type { OrdersDB } from '../../db';
import * as repo from '../orders/orders.repository';
import type { BookReader } from './catalogue-client';
import { PaymentProviderError, type PaymentProvider } from './payment-provider';

export interface PaymentsContext {
  db: Kysely<OrdersDB>;
  provider: PaymentProvider;
  readBook: BookReader;
  correlationId: string;
  /** Runs a payment and its order.paid as one transaction; the relay is woken after it commits. */
  uow: UnitOfWork<OrdersDB>;
}

export const VERIFICATION_FAILED = 'Payment verification failed';

/** The purchase date printed in the Persona: the calendar date in India. */
export function indianDate(at: Date): string {
  return new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 10);
}

function requestHash(body: InitiatePaymentBody): string {
  const { book, fullName, email, phone, deliveryType, address } = body;
  return createHash('sha256')
    .update(JSON.stringify([book, fullName.trim(), email.trim().toLowerCase(), phone.trim(), deliveryType, address]))
    .digest('hex');
}

function checkAddress(body: InitiatePaymentBody): void {
  if (body.deliveryType === 'physical') {
    if (!body.address) throw badRequest('An address is needed for physical delivery');
    if (!/^[0-9]{6}$/.test(body.address.zip)) throw badRequest(ZIP_MESSAGE);
  }
}

/**
 * DESIGN §7: the server decides the amount. The spec's request carries the
 * storefront's own figures (rupees); they are accepted when they agree and
 * refused when they do not, so a tampered checkout is told, not silently charged.
 */
function checkClientFigures(body: InitiatePaymentBody, amount: OrderAmount): void {
  const differs = (rupees: number | undefined, paise: number) => rupees !== undefined && !(Math.abs(rupees * 100 - paise) < 0.5);
  if (differs(body.amount, amount.totalPaise) || differs(body.shippingFee, amount.deliveryPaise)) {
    throw conflict(
      `The amount sent does not match this order: the shop charges ₹${(amount.totalPaise / 100).toFixed(2)}. Reload the book and try again.`,
      'AMOUNT_MISMATCH',
    );
  }
}

function answer(row: repo.OrderRow, provider: PaymentProvider): InitiatePaymentData {
  return {
    amount: row.amount_paise,
    currency: 'INR',
    razorpayOrderId: row.razorpay_order_id!,
    orderId: row.id,
    keyId: provider.keyId,
    testMode: provider.mode === 'test',
    breakdown: { basePaise: row.base_paise, printingPaise: row.printing_paise, deliveryPaise: row.delivery_paise, totalPaise: row.amount_paise },
  };
}

/** Creates the Razorpay order (paise; receipt = our order id) for an order, answering its id. */
async function createProviderOrder(ctx: PaymentsContext, order: { id: string; amountPaise: number; bookId: string; deliveryType: string }): Promise<string> {
  let providerOrder;
  try {
    providerOrder = await ctx.provider.createOrder({
      amountPaise: order.amountPaise,
      receipt: order.id.replace(/-/g, '').slice(0, 32),
      notes: { orderId: order.id, bookId: order.bookId, deliveryType: order.deliveryType },
    });
  } catch (err) {
    const message = err instanceof PaymentProviderError ? err.message : 'unknown error';
    throw new HttpError(502, `The payment provider could not start this payment (${message}); please try again`, 'PROVIDER_ERROR');
  }
  if (providerOrder.amount !== order.amountPaise) throw new HttpError(502, 'The payment provider answered a different amount', 'PROVIDER_AMOUNT_MISMATCH');
  return providerOrder.id;
}

/** Older rows may lack their Razorpay order (created before it was made first): make it now. */
async function ensureProviderOrder(ctx: PaymentsContext, row: repo.OrderRow): Promise<repo.OrderRow> {
  if (row.razorpay_order_id) return row;
  const razorpayOrderId = await createProviderOrder(ctx, { id: row.id, amountPaise: row.amount_paise, bookId: row.book_id, deliveryType: row.delivery_type });
  await repo.setRazorpayOrderId(ctx.db, row.id, razorpayOrderId);
  return { ...row, razorpay_order_id: razorpayOrderId };
}

export async function initiatePayment(ctx: PaymentsContext, body: InitiatePaymentBody, idempotencyKey: string | undefined): Promise<InitiatePaymentData> {
  checkAddress(body);
  const hash = requestHash(body);
  if (idempotencyKey) {
    const existing = await repo.findOrderByIdempotencyKey(ctx.db, idempotencyKey);
    if (existing) {
      if (existing.request_hash !== hash) throw conflict('This Idempotency-Key was already used for a different checkout', 'IDEMPOTENCY_KEY_REUSED');
      return answer(await ensureProviderOrder(ctx, existing), ctx.provider);
    }
  }
  const book = await ctx.readBook(body.book, ctx.correlationId);
  const amount = computeOrderAmount(book, body.deliveryType);
  if (amount.totalPaise < 100) throw badRequest('This book cannot be bought online: its price is under ₹1');
  checkClientFigures(body, amount);
  // The Razorpay order first, then the order row with it in one INSERT: no order row ever lacks its
  // payment order (a failure in between leaves only an unpaid Razorpay order behind, which expires).
  const id = randomUUID();
  const razorpayOrderId = await createProviderOrder(ctx, { id, amountPaise: amount.totalPaise, bookId: book.id, deliveryType: body.deliveryType });
  let row: repo.OrderRow;
  try {
    row = await repo.insertOrder(ctx.db, {
      id,
      razorpay_order_id: razorpayOrderId,
      persona_id: formatPersonaId(randomBytes(10)),
      book_id: book.id,
      book_title: book.title,
      book_author: book.author,
      full_name: body.fullName.trim(),
      email: body.email.trim(),
      phone: body.phone.trim(),
      delivery_type: body.deliveryType,
      address: body.deliveryType === 'physical' ? body.address : null,
      base_paise: amount.basePaise,
      printing_paise: amount.printingPaise,
      delivery_paise: amount.deliveryPaise,
      amount_paise: amount.totalPaise,
      idempotency_key: idempotencyKey ?? null,
      request_hash: hash,
      correlation_id: ctx.correlationId,
    });
  } catch (err) {
    // Two requests with one key raced; the other one created the order.
    if (idempotencyKey && isUniqueViolation(err)) return initiatePayment(ctx, body, idempotencyKey);
    throw err;
  }
  return answer(await ensureProviderOrder(ctx, row), ctx.provider);
}

/**
 * The single place an order becomes paid. order.paid carries the checkout's
 * correlation id (kept on the order), so the buyer's action stays one trace
 * whichever of verify, webhook or reconciler gets here first.
 */
async function payOrder({ trx, emit }: Work<OrdersDB>, row: repo.OrderRow, razorpayPaymentId: string, via: string, correlationId: string): Promise<boolean> {
  const paid = await repo.markPaid(trx, row.id, razorpayPaymentId, via);
  await repo.recordAttempt(trx, {
    order_id: row.id,
    razorpay_payment_id: razorpayPaymentId,
    outcome: 'paid',
    source: via,
    detail: paid ? undefined : 'already paid',
  });
  if (!paid) return false;
  await emit(
    createEvent(
      'order.paid',
      {
        orderId: paid.id,
        personaId: paid.persona_id,
        bookId: paid.book_id,
        buyerName: paid.full_name,
        purchaseDate: indianDate(paid.paid_at ?? new Date()),
        deliveryType: paid.delivery_type,
        amountPaise: paid.amount_paise,
        paidAt: (paid.paid_at ?? new Date()).toISOString(),
      },
      { correlationId: paid.correlation_id ?? correlationId },
    ),
  );
  return true;
}

export async function verifyPayment(ctx: PaymentsContext, body: VerifyPaymentBody): Promise<{ personaId: string; orderId: string }> {
  const row = await repo.findOrderById(ctx.db, body.orderId);
  if (!row) throw notFound('Order not found');
  // The signature is checked against the Razorpay order id WE stored, never the one the browser sent alone.
  if (
    !row.razorpay_order_id ||
    body.razorpayOrderId !== row.razorpay_order_id ||
    !ctx.provider.isValidPaymentSignature(row.razorpay_order_id, body.razorpayPaymentId, body.razorpaySignature)
  ) {
    throw new HttpError(400, VERIFICATION_FAILED, 'VERIFICATION_FAILED');
  }
  await ctx.uow.run((work) => payOrder(work, row, body.razorpayPaymentId, 'verify', ctx.correlationId));
  return { personaId: row.persona_id, orderId: row.id };
}

interface WebhookPayload {
  event?: string;
  payload?: {
    payment?: { entity?: { id?: string; order_id?: string; amount?: number; status?: string; error_description?: string } };
    order?: { entity?: { id?: string; amount?: number; amount_paid?: number } };
  };
}

export type WebhookOutcome = 'paid' | 'already-paid' | 'recorded' | 'duplicate' | 'ignored';

/** Handles a webhook whose signature was already checked. Idempotent on the event id. */
export async function handleWebhook(ctx: PaymentsContext, eventId: string, event: WebhookPayload): Promise<WebhookOutcome> {
  const type = event.event ?? 'unknown';
  const payment = event.payload?.payment?.entity;
  const razorpayOrderId = payment?.order_id ?? event.payload?.order?.entity?.id;
  return ctx.uow.run(async (work): Promise<WebhookOutcome> => {
    const { trx } = work;
    if (!(await repo.claimWebhookEvent(trx, eventId, type))) return 'duplicate';
    if (!razorpayOrderId) return 'ignored';
    const row = await repo.findOrderByRazorpayOrderId(trx, razorpayOrderId);
    if (!row) return 'ignored';
    if (type === 'payment.captured' || type === 'order.paid') {
      const amount = payment?.amount ?? event.payload?.order?.entity?.amount_paid;
      if (amount !== row.amount_paise) {
        await repo.recordAttempt(trx, {
          order_id: row.id,
          razorpay_payment_id: payment?.id ?? null,
          outcome: 'amount-mismatch',
          source: `webhook:${type}`,
          detail: `got ${amount}, expected ${row.amount_paise}`,
        });
        return 'recorded';
      }
      return (await payOrder(work, row, payment?.id ?? 'unknown', `webhook:${type}`, ctx.correlationId)) ? 'paid' : 'already-paid';
    }
    if (type === 'payment.failed' || type === 'payment.authorized') {
      await repo.markUnpaidAttempt(trx, row.id, type === 'payment.failed' ? 'failed' : 'attempted');
      await repo.recordAttempt(trx, {
        order_id: row.id,
        razorpay_payment_id: payment?.id ?? null,
        outcome: type === 'payment.failed' ? 'failed' : 'authorized',
        source: 'webhook',
        detail: payment?.error_description,
      });
      return 'recorded';
    }
    return 'ignored';
  });
}

/** Asks the provider about orders left unpaid; pays those it says were captured. */
export async function reconcileUnpaidOrders(
  ctx: PaymentsContext,
  options = { olderThanMs: 2 * 60_000, newerThanMs: 48 * 3600_000, limit: 50 },
): Promise<number> {
  let settled = 0;
  for (const row of await repo.unsettledOrders(ctx.db, options.olderThanMs, options.newerThanMs, options.limit)) {
    let payments;
    try {
      payments = await ctx.provider.paymentsOf(row.razorpay_order_id!);
    } catch {
      continue;
    }
    const captured = payments.find((p) => p.status === 'captured' && p.amount === row.amount_paise);
    if (!captured) continue;
    if (await ctx.uow.run((work) => payOrder(work, row, captured.id, 'reconcile', ctx.correlationId))) settled += 1;
  }
  return settled;
}
