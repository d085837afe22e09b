// Feedback and contact messages: the administrator's list, newest first, a page at a time by
// cursor, from a day on, still waiting or dealt with, found by the sender's name (or its near
// spelling) or e-mail address; marked handled, answered, deleted.
import { COUNT_CAP, DEFAULT_PAGE_SIZE, PERSON_SEARCH_COUNT_CAP, shopDayStart, type FeedbackState } from '@persona/contracts';
import { countedPage, personMatch, sql, writtenThenNear, type CountedPage, type KeysetColumn, type PersonSpelling } from '@persona/db';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AdminDB } from '../../db';
import type { ListRequest } from '../lists/list-request';

export type FeedbackRow = Selectable<AdminDB['feedback']>;

/** Newest first, ties by id: the (created_at, id) b-tree read backwards. */
export const FEEDBACK_KEYS: readonly KeysetColumn[] = [
  { ref: 'created_at', cast: 'timestamptz' },
  { ref: 'id', cast: 'uuid' },
];

export interface FeedbackListRequest extends ListRequest {
  state?: FeedbackState;
}

function filteredFeedback(db: Kysely<AdminDB>, { search, from, state }: Pick<FeedbackListRequest, 'search' | 'from' | 'state'>, spelling: PersonSpelling) {
  let q = db.selectFrom('feedback');
  if (from) q = q.where('created_at', '>=', shopDayStart(from));
  if (state === 'unhandled') q = q.where('handled_at', 'is', null);
  else if (state === 'handled') q = q.where('handled_at', 'is not', null);
  return search?.trim() ? q.where(personMatch(search, { name: 'name', email: 'email' }, spelling)) : q;
}

export async function listFeedback(db: Kysely<AdminDB>, request: FeedbackListRequest): Promise<CountedPage<FeedbackRow>> {
  const { search, from, state, limit = DEFAULT_PAGE_SIZE, countCap = COUNT_CAP, ...cursors } = request;
  const cap = search?.trim() ? Math.min(countCap, PERSON_SEARCH_COUNT_CAP) : countCap;
  const page = await writtenThenNear(search, (spelling) => {
    const rows = filteredFeedback(db, { search, from, state }, spelling)
      .selectAll()
      .select(sql<string>`created_at::text`.as('cursor_at'));
    return countedPage(db, rows, filteredFeedback(db, { search, from, state }, spelling), FEEDBACK_KEYS, (r) => [r.cursor_at, r.id], {
      limit,
      countCap: cap,
      sparse: Boolean(search?.trim()),
      ...cursors,
    });
  });
  return page;
}

export async function insertFeedback(
  db: Kysely<AdminDB>,
  message: { name: string; email: string; message: string; bookId: string | null; bookTitle: string | null },
): Promise<FeedbackRow> {
  return db
    .insertInto('feedback')
    .values({ name: message.name.trim(), email: message.email.trim(), message: message.message.trim(), book_id: message.bookId, book_title: message.bookTitle })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes one message; answers what the audit log names it by, or undefined when there was none. */
export async function deleteFeedback(db: Kysely<AdminDB> | Transaction<AdminDB>, id: string): Promise<{ id: string; name: string } | undefined> {
  return db.deleteFrom('feedback').where('id', '=', id).returning(['id', 'name']).executeTakeFirst();
}

/** One message, its row locked until the transaction ends (an answer is sent once, a mark made once). */
export async function lockFeedback(trx: Transaction<AdminDB>, id: string): Promise<FeedbackRow | undefined> {
  return trx.selectFrom('feedback').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Marks one message handled by `by` now, or waiting again (`by` null); answers the row as it is now. */
export async function setFeedbackHandled(trx: Transaction<AdminDB>, id: string, by: string | null): Promise<FeedbackRow> {
  return trx
    .updateTable('feedback')
    .set(by ? { handled_at: sql<Date>`now()`, handled_by: by } : { handled_at: null, handled_by: null })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Records the answer sent by `by`, and the message as handled by them (unless it already was). */
export async function recordFeedbackAnswer(trx: Transaction<AdminDB>, id: string, answer: string, by: string): Promise<FeedbackRow> {
  return trx
    .updateTable('feedback')
    .set({
      answer,
      answered_at: sql<Date>`now()`,
      answered_by: by,
      handled_at: sql<Date>`coalesce(handled_at, now())`,
      handled_by: sql<string>`coalesce(handled_by, ${by})`,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
