// Refunds through Razorpay (issue 23). A refund is a row first (its id the X-Refund-Idempotency
// key), checked under the order's row lock so that what is refunded never passes what was paid;
// then it is sent. Its state only moves forward — requested → pending → processed | failed —
// whichever of the API's answer, a refund.* webhook (through the inbox) or the poller says so
// first; a later or repeated word is no change. An answer lost on the way back leaves the refund
// requested: the poller sends it again with the same key, and Razorpay answers the same refund.
// Processed: the buyer is e-mailed and a credit note citing the invoice is issued; the one that
// completes a full refund also ends the order's Personas' licence (order.refunded_in_full).
import { createEvent, type EventOrigin, type UnitOfWork, type Work } from '@persona/bus';
import { formatInr, type OrderRefund } from '@persona/contracts';
import { badRequest, conflict, notFound, type Logger } from '@persona/service-kit';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { OrdersDB, RefundStatus, RefundsTable } from '../../db';
import { queueEmail, type ShopMail } from '../mail/emails.repository';
import { refundProcessedEmail } from '../mail/order-emails';
import * as repo from '../order-records/orders.repository';
import { PaymentProviderError, type PaymentProvider, type ProviderRefund } from '../payment-provider/payment-provider';
import { findInvoicesOfOrder, issueCreditNote, type Invoice } from '../invoices/invoices.repository';
import { apportionRefund } from '../invoices/tax';
import { releaseRedemption } from '../coupons/coupon-redemptions';

export type RefundRow = Selectable<RefundsTable>;
export type RefundSpeed = 'normal' | 'optimum';

const RANK: Record<RefundStatus, number> = { requested: 0, pending: 1, processed: 2, failed: 2 };
const MINUTE = 60_000;
/** When the poller asks about an unfinished refund: soon, then less often, for two weeks (normal refunds take 5–7 working days). */
export const REFUND_CHECK_SCHEDULE_MS = [1, 5, 15, 60, 180, 720, 1440, 2880, 5760, 10080, 20160].map((m) => m * MINUTE);

export function nextRefundCheck(createdAt: Date, now: Date): Date | null {
  const age = now.getTime() - createdAt.getTime();
  const step = REFUND_CHECK_SCHEDULE_MS.find((at) => at > age + 30_000);
  return step === undefined ? null : new Date(createdAt.getTime() + step);
}

/** Razorpay's refusals as an owner should read them. */
export function refundFailureInWords(message: string): string {
  if (/older than|6 months|six months|refund window/i.test(message)) {
    return 'Razorpay refunds a payment for six months only: this one is older. Refund the buyer another way (a bank transfer) and note it on the order.';
  }
  if (/greater than the refund payment amount|fully refunded/i.test(message)) return 'Razorpay says this payment has no more to refund.';
  if (/insufficient|balance/i.test(message)) return 'Your Razorpay balance is too low for this refund: add funds, then try again.';
  return `Razorpay refused the refund: ${message}`;
}

export interface RefundContext extends EventOrigin {
  uow: UnitOfWork<OrdersDB>;
  db: Kysely<OrdersDB>;
  provider: PaymentProvider;
  shop: ShopMail;
  speed: RefundSpeed;
}

/**
 * An administrator's refund of `amountPaise` of a paid order, once per `refundId` (the page's):
 * recorded, then sent. Answers the refund as it then stands.
 */
export async function requestRefund(ctx: RefundContext, orderId: string, input: { refundId: string; amountPaise: number; reason: string }): Promise<RefundRow> {
  if (!Number.isSafeInteger(input.amountPaise) || input.amountPaise < 100) throw badRequest('A refund is at least ₹1.00, in whole paise');
  const reason = input.reason.trim();
  if (!reason) throw badRequest('Say why the refund is made: the buyer and the audit log read it');
  const row = await ctx.uow.run(async ({ trx, emit }) => {
    const order = await repo.findOrderForUpdate(trx, orderId);
    if (!order) throw notFound('Order not found');
    const existing = await trx.selectFrom('refunds').selectAll().where('id', '=', input.refundId).executeTakeFirst();
    if (existing) {
      if (existing.order_id !== orderId) throw conflict('That refund id belongs to another order', 'REFUND_ID_TAKEN');
      return existing;
    }
    if (order.payment_status !== 'paid' || !order.razorpay_payment_id) throw conflict('Only a paid order can be refunded', 'NOT_PAID');
    const refunded = await refundedPaise(trx, orderId, ['requested', 'pending', 'processed']);
    if (refunded + input.amountPaise > order.amount_paise) {
      throw conflict(
        `That is more than is left to refund: ${formatInr((order.amount_paise - refunded) / 100)} of the ${formatInr(order.amount_paise / 100)} paid`,
        'REFUND_TOO_LARGE',
      );
    }
    const now = new Date();
    const inserted = await trx
      .insertInto('refunds')
      .values({
        id: input.refundId,
        order_id: orderId,
        payment_id: order.razorpay_payment_id,
        amount_paise: input.amountPaise,
        speed: ctx.speed,
        reason,
        status: 'requested',
        requested_by: ctx.actor?.email ?? 'the shop',
        processed_at: null,
        provider_refund_id: null,
        failure: null,
        check_at: nextRefundCheck(now, now),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await emit(refundEvent(order, inserted, ctx));
    return inserted;
  });
  if (row.status !== 'requested') return row;
  return sendRefund(ctx, row);
}

/** What the order's refunds in `statuses` add up to, in paise: on its way or done (not failed), or processed only. */
async function refundedPaise(db: Kysely<OrdersDB> | Work<OrdersDB>['trx'], orderId: string, statuses: readonly RefundStatus[]): Promise<number> {
  const { sum } = await db
    .selectFrom('refunds')
    .select(sql<string | number | null>`sum(amount_paise)`.as('sum'))
    .where('order_id', '=', orderId)
    .where('status', 'in', statuses)
    .executeTakeFirstOrThrow();
  return Number(sum ?? 0);
}

/** A refund as the order page and the refund route show it. */
export function toOrderRefund(r: RefundRow): OrderRefund {
  return {
    _id: r.id,
    amountPaise: r.amount_paise,
    status: r.status,
    speed: r.speed,
    reason: r.reason,
    requestedBy: r.requested_by,
    razorpayRefundId: r.provider_refund_id,
    failure: r.failure,
    createdAt: r.created_at.toISOString(),
    processedAt: r.processed_at ? r.processed_at.toISOString() : null,
  };
}

/** Sends a requested refund (again: the same key answers the same refund) and records the answer. */
async function sendRefund(ctx: RefundContext, row: RefundRow): Promise<RefundRow> {
  let answer: ProviderRefund;
  try {
    answer = await ctx.provider.refund(row.payment_id, row.amount_paise, { key: row.id, speed: row.speed });
  } catch (err) {
    // Refused (a 4xx): final, in plain words. Anything else (no answer, a 5xx): still requested, the poller sends it again.
    if (err instanceof PaymentProviderError && err.status !== undefined && err.status >= 400 && err.status < 500) {
      return (await applyRefundState(ctx, { refundId: row.id }, { status: 'failed', failure: refundFailureInWords(err.message) })) ?? row;
    }
    return row;
  }
  return (await applyRefundState(ctx, { refundId: row.id }, { status: answer.status, providerRefundId: answer.id })) ?? row;
}

type RefundWord = { status: RefundStatus; providerRefundId?: string; failure?: string };

/**
 * Moves a refund forward (never back, never twice to the same state), in the given unit of work or
 * one of its own. Answers the refund after, or undefined when no refund matches.
 */
export async function applyRefundState(
  ctx: Pick<RefundContext, 'uow' | 'shop' | 'correlationId'>,
  which: { refundId?: string | null; providerRefundId?: string },
  word: RefundWord,
  work?: Work<OrdersDB>,
): Promise<RefundRow | undefined> {
  const run = async ({ trx, emit }: Work<OrdersDB>) => {
    let query = trx.selectFrom('refunds').selectAll().forUpdate();
    if (which.refundId) query = query.where('id', '=', which.refundId);
    else if (which.providerRefundId) query = query.where('provider_refund_id', '=', which.providerRefundId);
    else return undefined;
    const current = await query.executeTakeFirst();
    if (!current) return undefined;
    const providerRefundId = current.provider_refund_id ?? word.providerRefundId ?? null;
    if (RANK[word.status] <= RANK[current.status]) {
      // No change of state; a provider id learnt late is still kept.
      if (providerRefundId === current.provider_refund_id) return current;
      return trx.updateTable('refunds').set({ provider_refund_id: providerRefundId }).where('id', '=', current.id).returningAll().executeTakeFirstOrThrow();
    }
    const final = word.status === 'processed' || word.status === 'failed';
    const now = new Date();
    const after = await trx
      .updateTable('refunds')
      .set({
        status: word.status,
        provider_refund_id: providerRefundId,
        failure: word.status === 'failed' ? (word.failure ?? 'Razorpay could not make the refund') : null,
        processed_at: word.status === 'processed' ? now : null,
        check_at: final ? null : nextRefundCheck(current.created_at, now),
        updated_at: now,
      })
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const order = (await repo.findOrderById(trx, after.order_id))!;
    await emit(refundEvent(order, after, ctx));
    if (after.status === 'processed') {
      // The order's row, as issuing its invoice locks it: a refund processed while the invoice is being
      // issued waits for it (and credits it below), or the invoice waits and credits this refund.
      await trx.selectFrom('orders').select('id').where('id', '=', order.id).forNoKeyUpdate().execute();
      const refundedInAll = await refundedPaise(trx, order.id, ['processed']);
      // Refunded in full: the coupon's redemption is given back.
      if (order.coupon_id && refundedInAll >= order.amount_paise) await releaseRedemption(trx, order.id, ['final', 'reserved']);
      // Refunded in full: its Personas' licence ends (personalisation refuses their downloads), told once.
      if (refundedInAll >= order.amount_paise && !order.refunded_in_full_at) {
        await trx.updateTable('orders').set({ refunded_in_full_at: now, updated_at: now }).where('id', '=', order.id).execute();
        await emit(
          createEvent(
            'order.refunded_in_full',
            { orderId: order.id, personaId: order.persona_id, refundedAt: now.toISOString() },
            { correlationId: ctx.correlationId },
          ),
        );
      }
      const [invoice] = (await findInvoicesOfOrder(trx, order.id)).filter((d) => d.kind === 'invoice');
      // No invoice yet (it is issued as the receipt is, from order.paid): creditRefundsOfInvoice credits this refund then.
      const creditNote = invoice ? await creditNoteOf(trx, invoice, after, now) : undefined;
      await queueEmail(
        trx,
        refundProcessedEmail(
          order,
          { id: after.id, amountPaise: after.amount_paise, speed: after.speed, refundedInAllPaise: refundedInAll },
          ctx.shop,
          ctx.correlationId,
          creditNote,
        ),
      );
    }
    return after;
  };
  return work ? run(work) : ctx.uow.run(run);
}

/** The credit note of a processed refund, citing the invoice and taxed as it was. */
function creditNoteOf(trx: Work<OrdersDB>['trx'], invoice: Invoice, refund: RefundRow, issuedAt: Date): Promise<Invoice> {
  return issueCreditNote(trx, {
    invoiceId: invoice.id,
    refundId: refund.id,
    issuedAt,
    tax: apportionRefund(
      {
        sellerStateCode: invoice.seller.gstin.slice(0, 2),
        placeOfSupply: invoice.placeOfSupply,
        supplyType: invoice.supplyType,
        lines: invoice.lines,
        totals: invoice.totals,
      },
      refund.amount_paise,
    ),
  });
}

/**
 * The credit notes of an order's refunds processed before its invoice existed (a refund made in
 * the moments between the payment and the receipt, which issues the invoice): issued with the
 * invoice, in its transaction, dated now so that numbers and dates stay in the same order.
 */
export async function creditRefundsOfInvoice(trx: Work<OrdersDB>['trx'], invoice: Invoice): Promise<Invoice[]> {
  const waiting = await trx
    .selectFrom('refunds')
    .selectAll()
    .where('order_id', '=', invoice.orderId)
    .where('status', '=', 'processed')
    .where(sql<boolean>`NOT EXISTS (SELECT 1 FROM invoices i WHERE i.refund_id = refunds.id::text)`)
    .orderBy('processed_at')
    .execute();
  const notes: Invoice[] = [];
  for (const refund of waiting) notes.push(await creditNoteOf(trx, invoice, refund, new Date()));
  return notes;
}

function refundEvent(order: repo.OrderRow, refund: RefundRow, origin: EventOrigin) {
  return createEvent(
    'order.refund_changed',
    {
      orderId: order.id,
      personaId: order.persona_id,
      refundId: refund.id,
      amountPaise: refund.amount_paise,
      status: refund.status,
      ...(refund.failure ? { failure: refund.failure } : {}),
    },
    { correlationId: origin.correlationId, actor: origin.actor },
  );
}

/**
 * The poller's round: refunds whose check is due, the longest due first, claimed with SKIP LOCKED
 * and moved on to their next check in the same statement; a requested one is sent again (same
 * key), a pending one asked about. Resolves with how many were asked about.
 */
export async function pollRefunds(ctx: Omit<RefundContext, 'actor' | 'speed'>, log: Logger, limit = 20): Promise<number> {
  const now = new Date();
  const due = await ctx.db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('refunds').selectAll().where('check_at', '<=', now).orderBy('check_at').limit(limit).forUpdate().skipLocked().execute();
    for (const row of rows) {
      await trx
        .updateTable('refunds')
        .set({ check_at: nextRefundCheck(row.created_at, now), checks: row.checks + 1 })
        .where('id', '=', row.id)
        .execute();
    }
    return rows;
  });
  for (const row of due) {
    try {
      if (row.status === 'requested') await sendRefund({ ...ctx, speed: row.speed }, row);
      else if (row.provider_refund_id) {
        const answer = await ctx.provider.fetchRefund(row.provider_refund_id);
        await applyRefundState(ctx, { refundId: row.id }, { status: answer.status });
      }
    } catch (err) {
      log.warn({ err, refundId: row.id }, 'refund check failed; asked again at its next check');
    }
  }
  return due.length;
}

export async function refundsOfOrder(db: Kysely<OrdersDB>, orderId: string): Promise<RefundRow[]> {
  return db.selectFrom('refunds').selectAll().where('order_id', '=', orderId).orderBy('created_at').execute();
}
