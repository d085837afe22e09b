// Orders' side of the Persona lifecycle: the personalisation service says a
// Persona is ready (queue the buyer's e-mail in the same transaction) or failed.
import { eventLogger, handleOnce, type BusLogger, type EventBus, type Subscription } from '@persona/bus';
import type { EventEnvelope, PersonaFailedPayload, PersonaReadyPayload } from '@persona/contracts';
import { personalizedPdfUrl } from '@persona/contracts';
import type { Kysely } from 'kysely';
import type { OrdersDB } from '../../db';
import * as repo from './orders.repository';

export const ORDERS_PERSONA_QUEUE = 'orders.personas';

export function readyEmail(order: repo.OrderRow, publicUrl: string) {
  const page = `${publicUrl}/send-persona?personaId=${order.persona_id}`;
  const download = `${publicUrl}${personalizedPdfUrl(order.persona_id)}`;
  return {
    subject: `Your Persona of "${order.book_title}" is ready`,
    text: [
      `Dear ${order.full_name},`,
      '',
      `Your Persona of "${order.book_title}" by ${order.book_author} is ready.`,
      '',
      `Persona ID: ${order.persona_id}`,
      `Your Persona: ${page}`,
      `Download: ${download}`,
      '',
      order.delivery_type === 'physical'
        ? 'Your printed copy will be dispatched soon; physical deliveries take 5 to 7 business days after dispatch.'
        : 'Keep your Persona ID: it finds your copy again whenever you need it.',
      '',
      'Persona Books',
    ].join('\n'),
  };
}

export async function applyPersonaEvent(db: Kysely<OrdersDB>, event: EventEnvelope, publicUrl: string): Promise<'ready' | 'failed' | 'ignored'> {
  let outcome: 'ready' | 'failed' | 'ignored' = 'ignored';
  await handleOnce(db, 'orders', event, async (trx) => {
    if (event.type === 'persona.ready') {
      const payload = event.payload as PersonaReadyPayload;
      const order = await repo.setPersonaStatus(trx, payload.personaId, { status: 'ready', sha256: payload.sha256 });
      if (!order) return;
      const email = readyEmail(order, publicUrl);
      await trx
        .insertInto('emails')
        .values({
          order_id: order.id,
          kind: 'persona-ready',
          to_address: order.email,
          subject: email.subject,
          text_body: email.text,
          correlation_id: event.correlationId || null,
        })
        .onConflict((oc) => oc.columns(['order_id', 'kind']).doNothing())
        .execute();
      outcome = 'ready';
    } else if (event.type === 'persona.failed') {
      const payload = event.payload as PersonaFailedPayload;
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
        const { personaId } = event.payload as { personaId?: string };
        const log = eventLogger(logger, event, { personaId });
        if (outcome === 'ready') log.info({}, 'persona ready on the order; e-mail queued');
        else if (outcome === 'failed') log.warn({}, 'persona failed on the order');
        else log.debug?.({}, 'persona event changed nothing (duplicate or unknown order)');
      }
      if (outcome === 'ready') afterReady();
    },
  });
}
