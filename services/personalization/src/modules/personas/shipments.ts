// A printed copy shipped (issue 27): orders says an order's delivery status changed
// (order.delivery_status_changed, by the administrator or the print house's webhook); when it is
// shipped, the Persona records it and the public log appends an entry of its own, after the one
// that says its printed copy was made. Through the inbox: a redelivered event changes nothing.
import { eventLogger, handleOnce, type EventBus, type KnownEvent, type Subscription } from '@persona/bus';
import type { Logger } from '@persona/service-kit';
import type { Kysely } from 'kysely';
import type { PersonalizationDB } from '../../db';
import { queueForLog } from './personas.repository';

export const SHIPMENTS_QUEUE = 'personalization.shipments';

/** Records the shipment of the order's printed copy; answers whether this event shipped it (not a duplicate, not another status). */
export async function recordShipment(db: Kysely<PersonalizationDB>, event: KnownEvent<'order.delivery_status_changed'>): Promise<boolean> {
  if (event.payload.to !== 'shipped') return false;
  let shipped = false;
  await handleOnce(db, SHIPMENTS_QUEUE, event, async (trx) => {
    const rows = await trx
      .updateTable('personas')
      .set({ shipped_at: new Date(event.occurredAt) })
      .where('persona_id', '=', event.payload.personaId)
      .where('shipped_at', 'is', null)
      .returning('persona_id')
      .execute();
    await queueForLog(
      trx,
      rows.map((r) => r.persona_id),
      'shipped',
    );
    shipped = rows.length > 0;
  });
  return shipped;
}

export function subscribeShipments(bus: EventBus, db: Kysely<PersonalizationDB>, logger: Logger, onShipped?: () => void): Promise<Subscription> {
  return bus.subscribe({
    queue: SHIPMENTS_QUEUE,
    bindings: ['order.delivery_status_changed'],
    handler: async (event) => {
      if (await recordShipment(db, event)) {
        eventLogger(logger, event, { orderId: event.payload.orderId }).info({ personaId: event.payload.personaId }, 'printed copy shipped');
        onShipped?.();
      }
    },
  });
}
