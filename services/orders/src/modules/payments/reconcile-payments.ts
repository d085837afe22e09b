// The reconciler (DESIGN §4): each unpaid order with a Razorpay order is asked about at the
// provider when its own question is due (payments/payment-checks.ts); a captured payment of the
// right amount pays the order, as a verify or webhook would have, and an authorised one is
// captured first (inside the days before Razorpay would give an uncaptured payment back). A
// paid order whose payment was seen authorised only (verify) is asked about until it is captured.
import type { OrderRow } from '../order-records/orders.repository';
import { claimPaymentChecks, paymentChecksDone } from './payments.repository';
import { markOrderPaid } from './mark-order-paid';
import { nextPaymentCheck } from './payment-checks';
import type { ProviderPayment } from '../payment-provider/payment-provider';
import type { PaymentsContext } from './payments-context';

export interface ReconcileOptions {
  /** The reconciler's clock (tests move it on). */
  now?: () => Date;
  /** Orders claimed at a time. */
  batch?: number;
  /** Questions to the provider at once. */
  concurrency?: number;
  /** The most orders asked about in one run (the rest are asked on the next, the longest due first). */
  maxPerRun?: number;
}

/** Asks the provider about every unpaid order whose question is due; pays those it says were captured. Answers how many it paid. */
export async function reconcileUnpaidOrders(ctx: PaymentsContext, options: ReconcileOptions = {}): Promise<number> {
  const { now = () => new Date(), batch = 50, concurrency = 4, maxPerRun = 2000 } = options;
  let settled = 0;
  let asked = 0;
  while (asked < maxPerRun) {
    const at = now();
    const rows = await claimPaymentChecks(ctx.db, at, Math.min(batch, maxPerRun - asked), (row) => nextPaymentCheck(row.created_at, at));
    asked += rows.length;
    let next = 0;
    const worker = async () => {
      while (next < rows.length) {
        if (await settle(ctx, rows[next++]!)) settled += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, worker));
    if (rows.length < batch) break;
  }
  return settled;
}

/**
 * One order's question: an unpaid order is paid when a payment of its amount was captured, or was
 * authorised and is captured now; a paid order's payment (a verify proves an authorisation only)
 * is captured if it is not yet. True when this call paid the order.
 */
async function settle(ctx: PaymentsContext, row: OrderRow): Promise<boolean> {
  let payments: ProviderPayment[];
  try {
    payments = await ctx.provider.paymentsOf(row.razorpay_order_id!);
  } catch {
    return false; // asked again when next due
  }
  if (row.payment_status === 'paid') {
    const payment = payments.find((p) => p.id === row.razorpay_payment_id);
    const status = payment?.status === 'authorized' ? (await captureOf(ctx, payment))?.status : payment?.status;
    if (status === 'captured') await paymentChecksDone(ctx.db, row.id);
    return false;
  }
  const ofAmount = payments.filter((p) => p.amountPaise === row.amount_paise);
  let captured = ofAmount.find((p) => p.status === 'captured');
  const authorized = ofAmount.find((p) => p.status === 'authorized');
  if (!captured && authorized) captured = (await captureOf(ctx, authorized)) ?? undefined;
  if (captured?.status !== 'captured') return false;
  const paymentId = captured.id;
  return ctx.uow.run((work) => markOrderPaid(work, row, paymentId, 'reconcile', ctx.correlationId));
}

/** The payment captured (its whole amount), or null when the provider could not (asked again when next due). */
async function captureOf(ctx: PaymentsContext, payment: ProviderPayment): Promise<ProviderPayment | null> {
  try {
    return await ctx.provider.capture(payment.id, payment.amountPaise);
  } catch (err) {
    ctx.log?.info({ err, paymentId: payment.id }, 'capture failed; asked again when next due');
    return null;
  }
}
