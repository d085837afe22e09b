// Administrator changes to an order: a printed copy's delivery status (spec §4: any of the four,
// in any order; a digital order has none), with its shipment when marked shipped, an event for the
// audit log and the buyer's e-mail (one per status, ever), all in one transaction.
import { createEvent } from '@persona/bus';
import type { DeliveryStatus, Order } from '@persona/contracts';
import { badRequest, conflict, notFound } from '@persona/service-kit';
import { queueEmail, type ShopMail } from '../mail/emails.repository';
import { deliveryEmail } from '../mail/order-emails';
import { personaRequest } from '../payments/mark-order-paid';
import type { OrderChangeContext } from '../order-records/order-change-context';
import { toOrder } from '../order-records/orders.mapper';
import { reissueOfPersona } from './reissue-persona';
import * as repo from '../order-records/orders.repository';

/** The change an administrator asks for: the status, and for "shipped" who carries it and its tracking number. */
export interface DeliveryChange {
  deliveryStatus: DeliveryStatus;
  carrier?: string;
  trackingNumber?: string;
}

export async function changeDeliveryStatus(ctx: OrderChangeContext & { shop: ShopMail }, id: string, change: DeliveryChange): Promise<Order> {
  const status = change.deliveryStatus;
  if (status !== 'shipped' && (change.carrier !== undefined || change.trackingNumber !== undefined))
    throw badRequest('A carrier and a tracking number go only with a shipped order');
  const after = await ctx.uow.run(async ({ trx, emit }) => {
    const current = await repo.findOrderForUpdate(trx, id);
    if (!current) throw notFound('Order not found');
    if (current.delivery_type !== 'physical') throw conflict('A digital order has no delivery status', 'NOT_PRINTED');
    const shipment = status === 'shipped' ? { carrier: change.carrier?.trim() || null, trackingNumber: change.trackingNumber?.trim() || null } : undefined;
    const result = (await repo.setDeliveryStatus(trx, id, status, shipment))!;
    if (result.before.delivery_status !== status) {
      const due = deliveryEmail(result.after, ctx.shop, ctx.correlationId);
      if (due) await queueEmail(trx, due);
      await emit(
        createEvent(
          'order.delivery_status_changed',
          { orderId: id, personaId: result.after.persona_id, from: result.before.delivery_status, to: status },
          { correlationId: ctx.correlationId, actor: ctx.actor },
        ),
      );
    }
    return result.after;
  });
  return toOrder(after);
}

/**
 * An administrator asks for a failed Persona to be made again (DESIGN §3): the
 * order goes back to "generating" and personalisation gets the order's
 * details again, in the same transaction.
 */
export async function retryPersona(ctx: OrderChangeContext, id: string): Promise<Order> {
  const row = await ctx.uow.run(async ({ trx, emit }) => {
    const current = await repo.findOrderForUpdate(trx, id);
    if (!current) throw notFound('Order not found');
    if (current.payment_status !== 'paid' || current.persona_status !== 'failed')
      throw conflict('Only a paid order whose Persona failed can be retried', 'NOT_RETRYABLE');
    const updated = await repo.markPersonaRequestedAgain(trx, id);
    // A re-issue that failed is asked for again as the re-issue it is, so its Persona still replaces the old one.
    const reissue = await reissueOfPersona(trx, updated.persona_id);
    await emit(
      reissue
        ? createEvent(
            'persona.reissue_requested',
            { ...personaRequest(updated), reissueId: reissue.id, replacesPersonaId: reissue.old_persona_id, reason: reissue.reason },
            { correlationId: ctx.correlationId, actor: ctx.actor },
          )
        : createEvent('persona.retry_requested', personaRequest(updated), { correlationId: ctx.correlationId, actor: ctx.actor }),
    );
    return updated;
  });
  return toOrder(row);
}
