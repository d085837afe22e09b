// The audit log's rows: one per event (the event id is unique), and the administrator's list of
// them, newest first, a page at a time by cursor.
import { COUNT_CAP, DEFAULT_PAGE_SIZE } from '@persona/contracts';
import { countedPage, sql, type CountedPage, type KeysetColumn } from '@persona/db';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AdminDB } from '../../db';
import type { ListRequest } from '../lists/list-request';
import type { AuditLine } from './describe-event';

export type AuditRow = Selectable<AdminDB['audit_log']>;

export async function insertAuditEntry(
  db: Kysely<AdminDB> | Transaction<AdminDB>,
  entry: AuditLine & { eventId: string; type: string; occurredAt: string; correlationId: string | null },
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      event_id: entry.eventId,
      type: entry.type,
      summary: entry.summary,
      subject_id: entry.subjectId,
      actor: entry.actor,
      occurred_at: new Date(entry.occurredAt),
      correlation_id: entry.correlationId,
    })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .execute();
}

/** Newest first, ties by id: the (occurred_at, id) b-tree read backwards, (type, occurred_at, id) for one type, (subject_id, occurred_at, id) for one subject. */
export const AUDIT_KEYS: readonly KeysetColumn[] = [
  { ref: 'occurred_at', cast: 'timestamptz' },
  { ref: 'id', cast: 'bigint' },
];

export async function listAudit(db: Kysely<AdminDB>, request: ListRequest & { type?: string; subject?: string }): Promise<CountedPage<AuditRow>> {
  const { type, subject, search: _search, limit = DEFAULT_PAGE_SIZE, countCap = COUNT_CAP, ...cursors } = request;
  // One order's (or book's) entries: the (subject_id, occurred_at, id) index.
  const filtered = () => {
    let query = db.selectFrom('audit_log');
    if (type) query = query.where('type', '=', type);
    if (subject) query = query.where('subject_id', '=', subject);
    return query;
  };
  const rows = filtered()
    .selectAll()
    .select(sql<string>`occurred_at::text`.as('cursor_at'));
  const page = await countedPage(db, rows, filtered(), AUDIT_KEYS, (r) => [r.cursor_at, String(r.id)], { limit, countCap, ...cursors });
  return page;
}
