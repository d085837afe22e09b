// Feedback and contact messages: the administrator's list, newest first, a page at a time by
// cursor, from a day on, found by the sender's name (or its near spelling) or e-mail address.
import { COUNT_CAP, DEFAULT_PAGE_SIZE, PERSON_SEARCH_COUNT_CAP, shopDayStart } from '@persona/contracts';
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

function filteredFeedback(db: Kysely<AdminDB>, { search, from }: Pick<ListRequest, 'search' | 'from'>, spelling: PersonSpelling) {
  let q = db.selectFrom('feedback');
  if (from) q = q.where('created_at', '>=', shopDayStart(from));
  return search?.trim() ? q.where(personMatch(search, { name: 'name', email: 'email' }, spelling)) : q;
}

export async function listFeedback(db: Kysely<AdminDB>, request: ListRequest): Promise<CountedPage<FeedbackRow>> {
  const { search, from, limit = DEFAULT_PAGE_SIZE, countCap = COUNT_CAP, ...cursors } = request;
  const cap = search?.trim() ? Math.min(countCap, PERSON_SEARCH_COUNT_CAP) : countCap;
  const page = await writtenThenNear(search, (spelling) => {
    const rows = filteredFeedback(db, { search, from }, spelling)
      .selectAll()
      .select(sql<string>`created_at::text`.as('cursor_at'));
    return countedPage(db, rows, filteredFeedback(db, { search, from }, spelling), FEEDBACK_KEYS, (r) => [r.cursor_at, r.id], {
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

/** False when there was no such message. */
/** Deletes one message; answers what the audit log names it by, or undefined when there was none. */
export async function deleteFeedback(db: Kysely<AdminDB> | Transaction<AdminDB>, id: string): Promise<{ id: string; name: string } | undefined> {
  return db.deleteFrom('feedback').where('id', '=', id).returning(['id', 'name']).executeTakeFirst();
}
