// The single place an order becomes paid (DESIGN §4), whichever of verify,
// webhook or reconciler sees the payment first; and the one builder of the
// payload personalisation is asked to make a Persona with (order.paid, and
// persona.retry_requested when an administrator asks again).
import { createEvent, type Work } from '@persona/bus';
import { orderedOnOf, printedDelivery, shopDate, type OrderPaidPayload } from '@persona/contracts';
import type { OrdersDB } from '../../db';
import type { OrderRow } from '../order-records/orders.repository';
import { markPaid, recordAttempt } from './payments.repository';
import { finalizeRedemption } from '../coupons/coupon-redemptions';

/** What personalisation needs to make the Persona of a paid order. */
export function personaRequest(order: OrderRow): OrderPaidPayload {
  const paidAt = order.paid_at ?? new Date();
  return {
    orderId: order.id,
    personaId: order.persona_id,
    bookId: order.book_id,
    buyerName: order.full_name,
    // The purchase date printed in the Persona: the shop's (India's) calendar date.
    purchaseDate: shopDate(paidAt),
    deliveryType: order.delivery_type,
    amountPaise: order.amount_paise,
    paidAt: paidAt.toISOString(),
    ...(order.gift_recipient_name
      ? { gift: { recipientName: order.gift_recipient_name, ...(order.gift_message ? { message: order.gift_message } : {}) } }
      : {}),
  };
}

/**
 * A printed copy's ship-by date, reckoned when it is paid (issue 24): the dispatch time counts from
 * the payment, not from a checkout left open for days; a gift ships so that it still arrives by
 * its day. The checkout showed the buyer the same rule's "arrives by" before paying.
 */
export function shipByOf(row: Pick<OrderRow, 'delivery_type' | 'gift_deliver_on'>, paidAt: Date): string | null {
  return row.delivery_type === 'physical' ? printedDelivery(orderedOnOf(paidAt), row.gift_deliver_on).shipBy : null;
}

/**
 * Marks the order paid by `paymentId` (`via`: verify, webhook:<type>, reconcile) and adds
 * order.paid to the outbox, in the caller's unit of work; false when it was paid already
 * (the attempt is recorded either way). order.paid carries the checkout's correlation id (kept
 * on the order), so the buyer's action stays one trace whoever gets here first.
 */
export async function markOrderPaid({ trx, emit }: Work<OrdersDB>, row: OrderRow, paymentId: string, via: string, correlationId: string): Promise<boolean> {
  // The browser's proof (verify) is of an authorisation; every other way here saw the capture.
  const now = new Date();
  const paid = await markPaid(trx, row.id, paymentId, via, via === 'verify' ? now : null, shipByOf(row, now));
  await recordAttempt(trx, { order_id: row.id, razorpay_payment_id: paymentId, outcome: 'paid', source: via, detail: paid ? undefined : 'already paid' });
  if (!paid) return false;
  // Paid at its discounted price: the code's redemption is the buyer's for good.
  if (paid.coupon_id) await finalizeRedemption(trx, paid.id);
  await emit(createEvent('order.paid', personaRequest(paid), { correlationId: paid.correlation_id ?? correlationId }));
  return true;
}
