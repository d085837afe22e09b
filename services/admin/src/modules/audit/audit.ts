// The audit log: every event of the shop, recorded once (the event id is
// unique, and the inbox makes redeliveries a no-op).
import { eventLogger, handleOnce, type BusLogger, type EventBus, type KnownEvent, type Subscription } from '@persona/bus';
import type { Kysely } from 'kysely';
import type { AdminDB } from '../../db';
import { insertAuditEntry } from './audit.repository';
import { describeEvent } from './describe-event';

export const AUDIT_QUEUE = 'admin.audit';

export async function recordEvent(db: Kysely<AdminDB>, event: KnownEvent, logger?: BusLogger): Promise<void> {
  const outcome = await handleOnce(db, 'admin.audit', event, async (trx) => {
    await insertAuditEntry(trx, {
      ...describeEvent(event),
      eventId: event.id,
      type: event.type,
      occurredAt: event.occurredAt,
      correlationId: event.correlationId || null,
    });
  });
  if (logger) eventLogger(logger, event, { consumer: AUDIT_QUEUE }).debug?.({ outcome }, 'audit entry recorded');
}

export function subscribeAudit(bus: EventBus, db: Kysely<AdminDB>, logger?: BusLogger): Promise<Subscription> {
  return bus.subscribe({
    queue: AUDIT_QUEUE,
    bindings: ['book.*', 'category.*', 'order.*', 'coupon.*', 'persona.*', 'admin.*', 'feedback.*'],
    handler: (event) => recordEvent(db, event, logger),
  });
}
