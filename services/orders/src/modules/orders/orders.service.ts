// Administrator changes to an order: the delivery status (spec §4: any of the
// four, in any order), with an event for the audit log.
import { createEvent, enqueueEvent } from '@persona/bus';
import type { DeliveryStatus, Order } from '@persona/contracts';
import { conflict, notFound } from '@persona/service-kit';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { OrdersDB } from '../../db';
import { indianDate } from '../payments/payments.service';
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

/**
 * An administrator asks for a failed Persona to be made again (DESIGN §3): the
 * order goes back to "generating" and personalisation gets the order's
 * details again, in the same transaction.
 */
export async function retryPersona(ctx: { db: Kysely<OrdersDB>; correlationId: string; afterCommit: () => void }, id: string): Promise<Order> {
  const row = await ctx.db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom('orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    if (!current) throw notFound('Order not found');
    if (current.payment_status !== 'paid' || current.persona_status !== 'failed') throw conflict('Only a paid order whose Persona failed can be retried', 'NOT_RETRYABLE');
    const updated = await trx
      .updateTable('orders')
      .set({ persona_status: 'generating', persona_error: null, updated_at: sql`now()` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const paidAt = updated.paid_at ?? new Date();
    await enqueueEvent(
      trx,
      createEvent(
        'persona.retry_requested',
        {
          orderId: updated.id,
          personaId: updated.persona_id,
          bookId: updated.book_id,
          buyerName: updated.full_name,
          purchaseDate: indianDate(paidAt),
          deliveryType: updated.delivery_type,
          amountPaise: updated.amount_paise,
          paidAt: paidAt.toISOString(),
        },
        { correlationId: ctx.correlationId },
      ),
    );
    return updated;
  });
  ctx.afterCommit();
  return repo.toOrder(row);
}
