// A logger bound to one event, so every line about it carries the
// correlation id of the user action that caused it.
import type { EventEnvelope } from '@persona/contracts';
import type { BusLogger } from './types';

/** `logger.child({ correlationId, eventId, eventType, ...extra })`; the logger itself when it has no child(). */
export function eventLogger<L extends BusLogger>(
  logger: L,
  event: Pick<EventEnvelope, 'id' | 'type' | 'correlationId'>,
  extra: Record<string, unknown> = {},
): L {
  const bindings = { correlationId: event.correlationId, eventId: event.id, eventType: event.type, ...extra };
  return (logger.child ? logger.child(bindings) : logger) as L;
}
