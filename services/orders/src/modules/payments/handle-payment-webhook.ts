// A provider's webhook whose signature was already checked, as the provider's
// neutral action (payment-provider.ts): idempotent on the event id; a capture
// of the right amount pays the order (markOrderPaid), a wrong amount, a failure
// or an authorisation is recorded and the order stays unpaid (an authorisation is
// captured, and the order paid, by the reconciler's next run).
import * as repo from '../orders/orders.repository';
import { markOrderPaid } from './mark-order-paid';
import type { WebhookAction } from './payment-provider';
import type { PaymentsContext } from './payments-context';

export type WebhookOutcome = 'paid' | 'already-paid' | 'recorded' | 'duplicate' | 'ignored';

export function handlePaymentWebhook(ctx: PaymentsContext, eventId: string, webhook: WebhookAction): Promise<WebhookOutcome> {
  return ctx.uow.run(async (work): Promise<WebhookOutcome> => {
    const { trx } = work;
    if (!(await repo.claimWebhookEvent(trx, eventId, webhook.type))) return 'duplicate';
    if (webhook.action === 'not_supported') return 'ignored';
    const row = await repo.findOrderByRazorpayOrderId(trx, webhook.providerOrderId);
    if (!row) return 'ignored';
    if (webhook.action === 'captured') {
      if (webhook.amountPaise !== row.amount_paise) {
        await repo.recordAttempt(trx, {
          order_id: row.id,
          razorpay_payment_id: webhook.paymentId,
          outcome: 'amount-mismatch',
          source: `webhook:${webhook.type}`,
          detail: `got ${webhook.amountPaise}, expected ${row.amount_paise}`,
        });
        return 'recorded';
      }
      if (await markOrderPaid(work, row, webhook.paymentId ?? 'unknown', `webhook:${webhook.type}`, ctx.correlationId)) return 'paid';
      // Paid by the browser's proof (an authorisation): this is the capture the reconciler would have looked for.
      if (webhook.paymentId !== null && webhook.paymentId === row.razorpay_payment_id) await repo.paymentChecksDone(trx, row.id);
      return 'already-paid';
    }
    await repo.markUnpaidAttempt(trx, row.id, webhook.action === 'failed' ? 'failed' : 'attempted');
    // Authorised, not captured (an account without automatic capture): the reconciler captures it
    // at its next run, and pays the order then (this answer stays quick).
    if (webhook.action === 'authorized' && row.payment_status !== 'paid') await repo.askAboutPaymentNow(trx, row.id);
    await repo.recordAttempt(trx, {
      order_id: row.id,
      razorpay_payment_id: webhook.paymentId,
      outcome: webhook.action,
      source: 'webhook',
      detail: webhook.action === 'failed' ? webhook.reason : undefined,
    });
    return 'recorded';
  });
}
