// The browser's word that it paid (spec §7): the signature is checked against
// the provider order id we stored, then the order is paid in one unit of work.
import type { VerifyPaymentBody, VerifyPaymentData } from '@persona/contracts';
import { HttpError, notFound } from '@persona/service-kit';
import { toReceipt } from '../order-records/orders.mapper';
import * as repo from '../order-records/orders.repository';
import { markOrderPaid } from './mark-order-paid';
import type { PaymentsContext } from './payments-context';

export const VERIFICATION_FAILED = 'Payment verification failed';

export async function verifyPayment(ctx: PaymentsContext, body: VerifyPaymentBody): Promise<VerifyPaymentData> {
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
  await ctx.uow.run((work) => markOrderPaid(work, row, body.razorpayPaymentId, 'verify', ctx.correlationId));
  // The signature proves this browser paid: it may see its own order told back (the receipt), as
  // paid (a printed copy's ship-by date is set then).
  const paid = (await repo.findOrderById(ctx.db, row.id)) ?? row;
  return { personaId: paid.persona_id, orderId: paid.id, receipt: toReceipt(paid, paid.paid_at ?? new Date()) };
}
