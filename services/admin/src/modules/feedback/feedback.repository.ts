// Feedback and contact messages: the administrator's list, newest first, a page at a time by
// cursor, found by the sender's name or e-mail address.
import { COUNT_CAP, DEFAULT_PAGE_SIZE, type Feedback } from '@persona/contracts';
import { countedPage, personMatch, sql, type CountedPage, type KeysetColumn } from '@persona/db';
import type { Kysely, Selectable } from 'kysely';
import type { AdminDB } from '../../db';
import type { ListRequest } from '../lists/list-request';

type FeedbackRow = Selectable<AdminDB['feedback']>;

/** Newest first, ties by id: the (created_at, id) b-tree read backwards. */
export const FEEDBACK_KEYS: readonly KeysetColumn[] = [
  { ref: 'created_at', cast: 'timestamptz' },
  { ref: 'id', cast: 'uuid' },
];

function filteredFeedback(db: Kysely<AdminDB>, search: string | undefined) {
  const q = db.selectFrom('feedback');
  return search?.trim() ? q.where(personMatch(search, { name: 'name', email: 'email' })) : q;
}

export async function listFeedback(db: Kysely<AdminDB>, request: ListRequest): Promise<CountedPage<Feedback>> {
  const { search, limit = DEFAULT_PAGE_SIZE, countCap = COUNT_CAP, ...cursors } = request;
  const rows = filteredFeedback(db, search).selectAll().select(sql<string>`created_at::text`.as('cursor_at'));
  const page = await countedPage(db, rows, filteredFeedback(db, search), FEEDBACK_KEYS, (r) => [r.cursor_at, r.id], { limit, countCap, ...cursors });
  return { ...page, rows: page.rows.map(toFeedback) };
}

export function toFeedback(row: FeedbackRow): Feedback {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    message: row.message,
    bookId: row.book_id ? { _id: row.book_id, title: row.book_title ?? 'Unknown book' } : null,
    createdAt: row.created_at.toISOString(),
  };
}
