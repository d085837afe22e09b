// Orders' side of the Persona lifecycle: the personalisation service says a
// Persona is ready (queue the buyer's e-mail in the same transaction) or failed.
import { eventLogger, handleOnce, type BusLogger, type EventBus, type KnownEvent, type Subscription } from '@persona/bus';
import type { Kysely } from 'kysely';
import type { OrdersDB } from '../../db';
import { queueEmail } from '../mail/emails.repository';
import { personaReadyEmail } from '../mail/persona-ready-email';
import * as repo from './orders.repository';

export const ORDERS_PERSONA_QUEUE = 'orders.personas';

/** What personalisation tells orders about a Persona. */
export type PersonaOutcomeEvent = KnownEvent<'persona.ready' | 'persona.failed'>;

export async function applyPersonaEvent(db: Kysely<OrdersDB>, event: PersonaOutcomeEvent, publicUrl: string): Promise<'ready' | 'failed' | 'ignored'> {
  let outcome: 'ready' | 'failed' | 'ignored' = 'ignored';
  await handleOnce(db, 'orders', event, async (trx) => {
    if (event.type === 'persona.ready') {
      const { payload } = event;
      const order = await repo.setPersonaStatus(trx, payload.personaId, { status: 'ready', sha256: payload.sha256 });
      if (!order) return;
      await queueEmail(trx, personaReadyEmail(order, publicUrl, event.correlationId || null));
      outcome = 'ready';
    } else if (event.type === 'persona.failed') {
      const { payload } = event;
      const order = await repo.setPersonaStatus(trx, payload.personaId, { status: 'failed', error: payload.reason });
      if (order) outcome = 'failed';
    }
  });
  return outcome;
}

export function subscribePersonaEvents(
  bus: EventBus,
  db: Kysely<OrdersDB>,
  publicUrl: string,
  afterReady: () => void,
  logger?: BusLogger,
): Promise<Subscription> {
  return bus.subscribe({
    queue: ORDERS_PERSONA_QUEUE,
    bindings: ['persona.ready', 'persona.failed'],
    handler: async (event) => {
      const outcome = await applyPersonaEvent(db, event, publicUrl);
      if (logger) {
        const log = eventLogger(logger, event, { personaId: event.payload.personaId });
        if (outcome === 'ready') log.info({}, 'persona ready on the order; e-mail queued');
        else if (outcome === 'failed') log.warn({}, 'persona failed on the order');
        else log.debug?.({}, 'persona event changed nothing (duplicate or unknown order)');
      }
      if (outcome === 'ready') afterReady();
    },
  });
}
