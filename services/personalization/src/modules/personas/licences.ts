// A Persona's licence (issue 23): orders says an order is refunded in full (order.refunded_in_full,
// published in the transaction that processed its last refund); its Personas stay genuine but
// download no more, and their verify page says refunded, with when. Through the inbox: a
// redelivered event changes nothing.
import { eventLogger, handleOnce, type EventBus, type KnownEvent, type Subscription } from '@persona/bus';
import type { Logger } from '@persona/service-kit';
import type { Kysely } from 'kysely';
import type { PersonalizationDB } from '../../db';
import * as repo from './personas.repository';

export const LICENCES_QUEUE = 'personalization.licences';

/** Ends the licences of the refunded order's Personas; answers the ids ended (none for a duplicate). */
export async function endLicences(db: Kysely<PersonalizationDB>, event: KnownEvent<'order.refunded_in_full'>): Promise<string[]> {
  let ended: string[] = [];
  await handleOnce(db, 'personalization.licences', event, async (trx) => {
    ended = await repo.endLicencesOfOrder(trx, event.payload.orderId, new Date(event.payload.refundedAt));
  });
  return ended;
}

/** `onEnded`: told when licences ended (the public log's writer appends their refunds soon). */
export function subscribeLicenceEnds(bus: EventBus, db: Kysely<PersonalizationDB>, logger: Logger, onEnded?: () => void): Promise<Subscription> {
  return bus.subscribe({
    queue: LICENCES_QUEUE,
    bindings: ['order.refunded_in_full'],
    handler: async (event) => {
      const ended = await endLicences(db, event);
      eventLogger(logger, event, { orderId: event.payload.orderId }).info({ ended }, 'order refunded in full; its Personas download no more');
      if (ended.length > 0) onEnded?.();
    },
  });
}
