import { randomUUID } from 'node:crypto';
import type { EventOf, EventPayloads, EventType } from '@persona/contracts';

/** Builds an envelope; the id is the message id consumers deduplicate on. */
export function createEvent<T extends EventType>(
  type: T,
  payload: EventPayloads[T],
  opts: { correlationId: string; id?: string; occurredAt?: Date },
): EventOf<T> {
  return {
    id: opts.id ?? randomUUID(),
    type,
    occurredAt: (opts.occurredAt ?? new Date()).toISOString(),
    correlationId: opts.correlationId,
    payload,
  };
}
