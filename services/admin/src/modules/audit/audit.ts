// The audit log: every event of the shop, recorded once (the event id is
// unique, and the inbox makes redeliveries a no-op).
import { eventLogger, handleOnce, type BusLogger, type EventBus, type Subscription } from '@persona/bus';
import { COUNT_CAP, DEFAULT_PAGE_SIZE, type AuditEntry, type EventEnvelope } from '@persona/contracts';
import { countedPage, sql, type CountedPage, type KeysetColumn } from '@persona/db';
import type { Kysely } from 'kysely';
import type { AdminDB } from '../../db';
import type { ListRequest } from '../lists/list-request';
import { describeEvent } from './describe-event';

export const AUDIT_QUEUE = 'admin.audit';

export async function recordEvent(db: Kysely<AdminDB>, event: EventEnvelope, logger?: BusLogger): Promise<void> {
  const outcome = await handleOnce(db, 'admin.audit', event, async (trx) => {
    const { summary, subjectId, actor } = describeEvent(event);
    await trx
      .insertInto('audit_log')
      .values({
        event_id: event.id,
        type: event.type,
        summary,
        subject_id: subjectId,
        actor,
        occurred_at: new Date(event.occurredAt),
        correlation_id: event.correlationId || null,
      })
      .onConflict((oc) => oc.column('event_id').doNothing())
      .execute();
  });
  if (logger) eventLogger(logger, event, { consumer: AUDIT_QUEUE }).debug?.({ outcome }, 'audit entry recorded');
}

export function subscribeAudit(bus: EventBus, db: Kysely<AdminDB>, logger?: BusLogger): Promise<Subscription> {
  return bus.subscribe({
    queue: AUDIT_QUEUE,
    bindings: ['book.*', 'category.*', 'order.*', 'persona.*', 'admin.*'],
    handler: (event) => recordEvent(db, event, logger),
  });
}

/** Newest first, ties by id: the (occurred_at, id) b-tree read backwards, or (type, occurred_at, id) for one type. */
export const AUDIT_KEYS: readonly KeysetColumn[] = [
  { ref: 'occurred_at', cast: 'timestamptz' },
  { ref: 'id', cast: 'bigint' },
];

export async function listAudit(db: Kysely<AdminDB>, request: ListRequest & { type?: string }): Promise<CountedPage<AuditEntry>> {
  const { type, search: _search, limit = DEFAULT_PAGE_SIZE, countCap = COUNT_CAP, ...cursors } = request;
  const filtered = () => (type ? db.selectFrom('audit_log').where('type', '=', type) : db.selectFrom('audit_log'));
  const rows = filtered()
    .selectAll()
    .select(sql<string>`occurred_at::text`.as('cursor_at'));
  const page = await countedPage(db, rows, filtered(), AUDIT_KEYS, (r) => [r.cursor_at, String(r.id)], { limit, countCap, ...cursors });
  return {
    ...page,
    rows: page.rows.map((r) => ({
      _id: String(r.id),
      type: r.type,
      summary: r.summary,
      subjectId: r.subject_id,
      actor: r.actor,
      occurredAt: r.occurred_at.toISOString(),
      correlationId: r.correlation_id,
    })),
  };
}
