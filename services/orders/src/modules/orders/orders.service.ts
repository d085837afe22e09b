// Administrator changes to an order: the delivery status (spec §4: any of the
// four, in any order), with an event for the audit log.
import { createEvent, enqueueEvent } from '@persona/bus';
import type { DeliveryStatus, Order } from '@persona/contracts';
import { notFound } from '@persona/service-kit';
import type { Kysely } from 'kysely';
import type { OrdersDB } from '../../db';
import * as repo from './orders.repository';

export async function changeDeliveryStatus(ctx: { db: Kysely<OrdersDB>; correlationId: string; afterCommit: () => void }, id: string, status: DeliveryStatus): Promise<Order> {
  const { after, changed } = await ctx.db.transaction().execute(async (trx) => {
    const result = await repo.setDeliveryStatus(trx, id, status);
    if (!result) throw notFound('Order not found');
    const moved = result.before.delivery_status !== status;
    if (moved) {
      await enqueueEvent(
        trx,
        createEvent('order.delivery_status_changed', { orderId: id, personaId: result.after.persona_id, from: result.before.delivery_status, to: status }, { correlationId: ctx.correlationId }),
      );
    }
    return { after: result.after, changed: moved };
  });
  if (changed) ctx.afterCommit();
  return repo.toOrder(after);
}
