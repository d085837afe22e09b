// A provider's webhook whose signature was already checked, as the provider's neutral action
// (payment-provider.ts). The request only records it in the inbox (once per event id) and is
// answered; a background round (webhookInbox) then claims each due event with SKIP LOCKED and
// applies it in a transaction of its own: a capture of the right amount pays the order
// (markOrderPaid), a wrong amount, a failure or an authorisation is recorded and the order stays
// unpaid (an authorisation is captured, and the order paid, by the reconciler's next run).
import { backgroundRounds, quietGate, type BackgroundRounds, type Logger, type QuietGate } from '@persona/service-kit';
import type { UnitOfWork, Work } from '@persona/bus';
import type { Kysely } from 'kysely';
import type { OrdersDB } from '../../db';
import * as payments from './payments.repository';
import * as webhookEvents from './webhook-inbox.repository';
import { markOrderPaid } from './mark-order-paid';
import type { ShopMail } from '../mail/emails.repository';
import { applyRefundState } from '../refunds/refunds';
import { releaseRedemption } from '../coupons/coupon-redemptions';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
import type { WebhookAction } from '../payment-provider/payment-provider';

/** The webhook route's answer: recorded for handling, a redelivery of an event recorded before, or nothing this shop acts on. */
export type WebhookReceipt = 'accepted' | 'duplicate' | 'ignored';
/** What handling an event did (kept in webhook_events.outcome). */
export type WebhookOutcome = 'paid' | 'already-paid' | 'recorded' | 'ignored';

/** Events one round handles at most (then it yields to other work; the route's nudges start the next). */
const ROUND = 50;
/** The wait before the n-th retry of an event whose handling failed: 2 s, 4 s … capped at 10 min. */
export const webhookRetryMs = (attempts: number) => Math.min(2000 * 2 ** Math.max(0, attempts - 1), 600_000);

export async function recordPaymentWebhook(db: Kysely<OrdersDB>, eventId: string, webhook: WebhookAction): Promise<WebhookReceipt> {
  if (!(await webhookEvents.recordWebhookEvent(db, eventId, webhook))) return 'duplicate';
  return webhook.action === 'not_supported' ? 'ignored' : 'accepted';
}

/** Applies one event inside the caller's transaction (the event row is locked by it). */
async function applyWebhook(inbox: WebhookInbox, work: Work<OrdersDB>, eventId: string, webhook: WebhookAction): Promise<WebhookOutcome> {
  const { trx } = work;
  if (webhook.action === 'not_supported') return 'ignored';
  if (webhook.action === 'refund') {
    // Our refund by the key in its notes, else by Razorpay's id (a refund made outside the shop is not ours: ignored).
    const after = await applyRefundState(
      { uow: inbox.uow, shop: inbox.shop, correlationId: `webhook:${eventId}` },
      { refundId: webhook.refundKey && UUID.test(webhook.refundKey) ? webhook.refundKey : null, providerRefundId: webhook.providerRefundId },
      { status: webhook.status, providerRefundId: webhook.providerRefundId },
      work,
    );
    return after ? 'recorded' : 'ignored';
  }
  const row = await payments.findOrderByRazorpayOrderId(trx, webhook.providerOrderId);
  if (!row) return 'ignored';
  if (webhook.action === 'captured') {
    if (webhook.amountPaise !== row.amount_paise) {
      await payments.recordAttempt(trx, {
        order_id: row.id,
        razorpay_payment_id: webhook.paymentId,
        outcome: 'amount-mismatch',
        source: `webhook:${webhook.type}`,
        detail: `got ${webhook.amountPaise}, expected ${row.amount_paise}`,
      });
      return 'recorded';
    }
    if (await markOrderPaid(work, row, webhook.paymentId ?? 'unknown', `webhook:${webhook.type}`, `webhook:${eventId}`)) return 'paid';
    // Paid by the browser's proof (an authorisation): this is the capture the reconciler would have looked for.
    if (webhook.paymentId !== null && webhook.paymentId === row.razorpay_payment_id) await payments.paymentChecksDone(trx, row.id);
    return 'already-paid';
  }
  await payments.markUnpaidAttempt(trx, row.id, webhook.action === 'failed' ? 'failed' : 'attempted');
  // A failed payment gives its code back (a later payment of the order takes it again).
  if (webhook.action === 'failed' && row.coupon_id && row.payment_status !== 'paid') await releaseRedemption(trx, row.id, ['reserved']);
  // Authorised, not captured (an account without automatic capture): the reconciler captures it
  // at its next run, and pays the order then.
  if (webhook.action === 'authorized' && row.payment_status !== 'paid') await payments.askAboutPaymentNow(trx, row.id);
  await payments.recordAttempt(trx, {
    order_id: row.id,
    razorpay_payment_id: webhook.paymentId,
    outcome: webhook.action,
    source: 'webhook',
    detail: webhook.action === 'failed' ? webhook.reason : undefined,
  });
  return 'recorded';
}

/**
 * Handles due events, each in a transaction of its own, until none is due or `limit` are done;
 * resolves with how many were handled. One that fails is tried again later (webhookRetryMs).
 */
/** What handling the inbox needs: its unit of work and database, the log, and the shop its e-mails name. */
export interface WebhookInbox {
  uow: UnitOfWork<OrdersDB>;
  db: Kysely<OrdersDB>;
  logger: Logger;
  shop: ShopMail;
  /** Waited on before each event: the route's answers come first (webhookInbox). */
  gate?: QuietGate;
}

export async function handleDueWebhooks(inbox: WebhookInbox, limit = ROUND): Promise<number> {
  const { uow, db, logger } = inbox;
  let handled = 0;
  while (handled < limit) {
    await inbox.gate?.whenQuiet();
    let claimed: { eventId: string; attempts: number } | undefined;
    try {
      const outcome = await uow.run(async (work) => {
        const event = await webhookEvents.claimDueWebhookEvent(work.trx);
        if (!event) return null;
        claimed = event;
        const result = await applyWebhook(inbox, work, event.eventId, event.action);
        await webhookEvents.webhookEventHandled(work.trx, event.eventId, result);
        return result;
      });
      if (outcome === null) break;
      handled += 1;
    } catch (err) {
      if (!claimed) throw err;
      logger.warn({ err, eventId: claimed.eventId }, 'payment webhook not handled; will retry');
      await webhookEvents.webhookEventFailed(db, claimed.eventId, String((err as Error).message), webhookRetryMs(claimed.attempts + 1));
      handled += 1;
    }
  }
  return handled;
}

/** The inbox as the webhook route sees it: told of each delivery as it arrives, nudged once one is recorded. */
export interface WebhookInboxRounds extends BackgroundRounds {
  /** A delivery arrived: the inbox gives way while they keep coming (quiet-gate.ts). */
  arrived(): void;
}

/**
 * The inbox's background rounds: every `pollMs` (events left by a crash or another process), and at
 * once when nudged by the route. Each event waits until deliveries pause (or its turn comes): on
 * one machine, paying an order and all that follows (its Persona, its invoice, its e-mails) took the
 * CPU the route needed to answer a burst of deliveries within Razorpay's patience.
 */
export function webhookInbox(inbox: WebhookInbox, pollMs = 5000): WebhookInboxRounds {
  const { logger } = inbox;
  const gate = inbox.gate ?? quietGate();
  const paced = { ...inbox, gate };
  const rounds = backgroundRounds(
    async () => {
      const handled = await handleDueWebhooks(paced);
      // A full round may have left events due: the next follows at once.
      if (handled >= ROUND) rounds.nudge();
      return handled;
    },
    { pollMs, logger, what: 'payment webhook inbox' },
  );
  return { ...rounds, arrived: () => gate.arrived() };
}
