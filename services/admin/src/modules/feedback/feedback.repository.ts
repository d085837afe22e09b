// Feedback and contact messages: the administrator's list, newest first.
import { DEFAULT_PAGE_SIZE, type Feedback, type FeedbackQuery } from '@persona/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { AdminDB } from '../../db';

export async function listFeedback(db: Kysely<AdminDB>, query: FeedbackQuery): Promise<{ feedback: Feedback[]; total: number }> {
  const page = query.page ?? 1;
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const [rows, count] = await Promise.all([
    db.selectFrom('feedback').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset((page - 1) * limit).execute(),
    db.selectFrom('feedback').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { feedback: rows.map(toFeedback), total: Number(count.n) };
}

export function toFeedback(row: Selectable<AdminDB['feedback']>): Feedback {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    message: row.message,
    bookId: row.book_id ? { _id: row.book_id, title: row.book_title ?? 'Unknown book' } : null,
    createdAt: row.created_at.toISOString(),
  };
}
