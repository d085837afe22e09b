// The audit log: every event of the shop, recorded once (the event id is
// unique, and the inbox makes redeliveries a no-op).
import { eventLogger, handleOnce, type BusLogger, type EventBus, type Subscription } from '@persona/bus';
import type { AuditEntry, AuditQuery, EventEnvelope } from '@persona/contracts';
import { DEFAULT_PAGE_SIZE } from '@persona/contracts';
import type { Kysely } from 'kysely';
import type { AdminDB } from '../../db';
import { describeEvent } from './describe-event';

export const AUDIT_QUEUE = 'admin.audit';

export async function recordEvent(db: Kysely<AdminDB>, event: EventEnvelope, logger?: BusLogger): Promise<void> {
  const outcome = await handleOnce(db, 'admin.audit', event, async (anyTrx) => {
    const trx = anyTrx as unknown as Kysely<AdminDB>;
    const { summary, subjectId, actor } = describeEvent(event);
    await trx
      .insertInto('audit_log')
      .values({ event_id: event.id, type: event.type, summary, subject_id: subjectId, actor, occurred_at: new Date(event.occurredAt), correlation_id: event.correlationId || null })
      .onConflict((oc) => oc.column('event_id').doNothing())
      .execute();
  });
  if (logger) eventLogger(logger, event, { consumer: AUDIT_QUEUE }).debug?.({ outcome }, 'audit entry recorded');
}

export function subscribeAudit(bus: EventBus, db: Kysely<AdminDB>, logger?: BusLogger): Promise<Subscription> {
  return bus.subscribe({ queue: AUDIT_QUEUE, bindings: ['book.*', 'category.*', 'order.*', 'persona.*', 'admin.*'], handler: (event) => recordEvent(db, event, logger) });
}

export async function listAudit(db: Kysely<AdminDB>, query: AuditQuery): Promise<{ entries: AuditEntry[]; total: number }> {
  const page = query.page ?? 1;
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  let q = db.selectFrom('audit_log');
  if (query.type) q = q.where('type', '=', query.type);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy('occurred_at', 'desc').orderBy('id', 'desc').limit(limit).offset((page - 1) * limit).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    entries: rows.map((r) => ({
      _id: String(r.id),
      type: r.type,
      summary: r.summary,
      subjectId: r.subject_id,
      actor: r.actor,
      occurredAt: r.occurred_at.toISOString(),
      correlationId: r.correlation_id,
    })),
    total: count.n,
  };
}
