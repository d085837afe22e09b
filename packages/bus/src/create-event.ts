import { randomUUID } from 'node:crypto';
import type { EventActor, EventOf, EventPayloads, EventType } from '@persona/contracts';

/** Where an event comes from: the request's correlation id and, for an administrator's request, who made it. */
export interface EventOrigin {
  correlationId: string;
  actor?: EventActor;
}

/** Builds an envelope; the id is the message id consumers deduplicate on. */
export function createEvent<T extends EventType>(type: T, payload: EventPayloads[T], opts: EventOrigin & { id?: string; occurredAt?: Date }): EventOf<T> {
  return {
    id: opts.id ?? randomUUID(),
    type,
    occurredAt: (opts.occurredAt ?? new Date()).toISOString(),
    correlationId: opts.correlationId,
    ...(opts.actor ? { actor: { id: opts.actor.id, email: opts.actor.email } } : {}),
    payload,
  };
}
