// The reconciler (DESIGN §4): each unpaid order with a Razorpay order is asked about at the
// provider when its own question is due (payments/payment-checks.ts); a captured payment of the
// right amount pays the order, as a verify or webhook would have.
import * as repo from '../orders/orders.repository';
import { markOrderPaid } from './mark-order-paid';
import { nextPaymentCheck } from './payment-checks';
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
    const rows = await repo.claimPaymentChecks(ctx.db, at, Math.min(batch, maxPerRun - asked), (row) => nextPaymentCheck(row.created_at, at));
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

/** One order's question: true when it was captured and this call paid it. */
async function settle(ctx: PaymentsContext, row: repo.OrderRow): Promise<boolean> {
  let payments;
  try {
    payments = await ctx.provider.paymentsOf(row.razorpay_order_id!);
  } catch {
    // Asked again when next due.
    return false;
  }
  const captured = payments.find((p) => p.status === 'captured' && p.amountPaise === row.amount_paise);
  if (!captured) return false;
  return ctx.uow.run((work) => markOrderPaid(work, row, captured.id, 'reconcile', ctx.correlationId));
}
