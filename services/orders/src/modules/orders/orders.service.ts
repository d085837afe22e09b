// Administrator changes to an order: the delivery status (spec §4: any of the
// four, in any order), with an event for the audit log.
import { createEvent, type UnitOfWork } from '@persona/bus';
import type { DeliveryStatus, Order } from '@persona/contracts';
import { conflict, notFound } from '@persona/service-kit';
import type { OrdersDB } from '../../db';
import { personaRequest } from '../payments/mark-order-paid';
import { toOrder } from './orders.mapper';
import * as repo from './orders.repository';

/** What an administrator's change to an order needs besides its input. */
export interface OrderChangeContext {
  /** Runs the change and its event as one transaction; the relay is woken after it commits. */
  uow: UnitOfWork<OrdersDB>;
  correlationId: string;
}

export async function changeDeliveryStatus(ctx: OrderChangeContext, id: string, status: DeliveryStatus): Promise<Order> {
  const after = await ctx.uow.run(async ({ trx, emit }) => {
    const result = await repo.setDeliveryStatus(trx, id, status);
    if (!result) throw notFound('Order not found');
    if (result.before.delivery_status !== status) {
      await emit(
        createEvent(
          'order.delivery_status_changed',
          { orderId: id, personaId: result.after.persona_id, from: result.before.delivery_status, to: status },
          { correlationId: ctx.correlationId },
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
    await emit(createEvent('persona.retry_requested', personaRequest(updated), { correlationId: ctx.correlationId }));
    return updated;
  });
  return toOrder(row);
}
