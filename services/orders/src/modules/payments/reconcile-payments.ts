// The reconciler (DESIGN §4): orders left unpaid for a while are asked about at
// the provider; a captured payment of the right amount pays the order, as a
// verify or webhook would have.
import * as repo from '../orders/orders.repository';
import { markOrderPaid } from './mark-order-paid';
import type { PaymentsContext } from './payments-context';

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
    const captured = payments.find((p) => p.status === 'captured' && p.amountPaise === row.amount_paise);
    if (!captured) continue;
    if (await ctx.uow.run((work) => markOrderPaid(work, row, captured.id, 'reconcile', ctx.correlationId))) settled += 1;
  }
  return settled;
}
