// An administrator cancels an order's printed copy before it is dispatched (issue 23): the delivery
// status becomes cancelled (with the buyer's e-mail and the audit log's event, in one transaction),
// then the refund goes through the refund path (refunds.ts) with the cancellation's id as the
// refund's: the printing and delivery fees, or — the owner's choice — all that is left of the order
// (its Persona's licence then ends when the refund is processed). A copy shipped or delivered is
// refused: it is on its way, and comes back before anything is refunded. A second press with the
// same id finds the copy cancelled and the refund made, and answers the same.
import { createEvent } from '@persona/bus';
import { formatInr, type CancelPrintBody, type Order } from '@persona/contracts';
import { badRequest, conflict, notFound } from '@persona/service-kit';
import { sql } from 'kysely';
import { queueEmail, type ShopMail } from '../mail/emails.repository';
import { deliveryEmail } from '../mail/order-emails';
import { requestRefund, type RefundContext, type RefundRow } from '../refunds/refunds';
import { toOrder } from '../order-records/orders.mapper';
import * as repo from '../order-records/orders.repository';

export interface PrintCancellation {
  order: Order;
  /** Null when the copy cost nothing to print and deliver: nothing to refund. */
  refund: RefundRow | null;
}

export async function cancelPrint(ctx: RefundContext & { shop: ShopMail }, orderId: string, body: CancelPrintBody): Promise<PrintCancellation> {
  const reason = body.reason.trim();
  if (!reason) throw badRequest('Say why the copy is cancelled: the buyer and the audit log read it');
  const { order, amountPaise } = await ctx.uow.run(async ({ trx, emit }) => {
    const current = await repo.findOrderForUpdate(trx, orderId);
    if (!current) throw notFound('Order not found');
    const { sum } = await trx
      .selectFrom('refunds')
      .select(sql<string | number | null>`sum(amount_paise)`.as('sum'))
      .where('order_id', '=', orderId)
      .where('status', '<>', 'failed')
      .executeTakeFirstOrThrow();
    const left = current.amount_paise - Number(sum ?? 0);
    const fees = current.printing_paise + current.delivery_paise;
    const amount = body.refund === 'order' ? left : fees;
    if (current.print_cancel_id === body.cancelId) return { order: current, amountPaise: amount };
    if (current.delivery_type !== 'physical') throw conflict('A digital order has no printed copy to cancel', 'NOT_PRINTED');
    if (current.payment_status !== 'paid') throw conflict('Only a paid order’s printed copy can be cancelled', 'NOT_PAID');
    if (current.delivery_status === 'shipped' || current.delivery_status === 'delivered') {
      throw conflict(
        `This printed copy was already dispatched${current.shipped_at ? ` on ${current.shipped_at.toISOString().slice(0, 10)}` : ''}: it can no longer be cancelled. Refund the order once the copy comes back.`,
        'ALREADY_DISPATCHED',
      );
    }
    if (current.delivery_status === 'cancelled') throw conflict('This printed copy is already cancelled', 'ALREADY_CANCELLED');
    // Checked before anything changes: a copy is never cancelled without the refund it promises.
    if (amount > left) {
      throw conflict(
        `The printing and delivery fees (${formatInr(fees / 100)}) are more than is left to refund (${formatInr(left / 100)}): refund what is left from the refund form`,
        'REFUND_TOO_LARGE',
      );
    }
    if (body.refund === 'order' && left < 100) throw conflict('This order has nothing left to refund', 'NOTHING_TO_REFUND');
    const { before, after } = (await repo.setDeliveryStatus(trx, orderId, 'cancelled'))!;
    const cancelled = await trx
      .updateTable('orders')
      .set({ print_cancel_id: body.cancelId })
      .where('id', '=', orderId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const due = deliveryEmail(after, ctx.shop, ctx.correlationId, body.refund);
    if (due) await queueEmail(trx, due);
    await emit(
      createEvent(
        'order.delivery_status_changed',
        { orderId, personaId: after.persona_id, from: before.delivery_status, to: 'cancelled' },
        { correlationId: ctx.correlationId, actor: ctx.actor },
      ),
    );
    return { order: cancelled, amountPaise: amount };
  });
  // The refund, once per cancellation (its id): a second press finds it and answers it as it stands.
  const existing = await ctx.db.selectFrom('refunds').selectAll().where('id', '=', body.cancelId).executeTakeFirst();
  if (existing) return { order: toOrder(order), refund: existing };
  if (amountPaise < 100) return { order: toOrder(order), refund: null };
  const refund = await requestRefund(ctx, orderId, {
    refundId: body.cancelId,
    amountPaise,
    reason: `Printed copy cancelled before dispatch (${body.refund === 'order' ? 'the whole order refunded' : 'printing and delivery refunded'}): ${reason}`,
  });
  return { order: toOrder((await repo.findOrderById(ctx.db, orderId))!), refund };
}
