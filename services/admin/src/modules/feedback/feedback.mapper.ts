// A feedback row as the API shows it (the book it is about, by the title kept when it arrived;
// whether and by whom it was handled, and the answer sent).
import type { Feedback } from '@persona/contracts';
import type { FeedbackRow } from './feedback.repository';

export function toFeedback(row: FeedbackRow): Feedback {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    message: row.message,
    bookId: row.book_id ? { _id: row.book_id, title: row.book_title ?? 'Unknown book' } : null,
    createdAt: row.created_at.toISOString(),
    handled: row.handled_at && row.handled_by ? { at: row.handled_at.toISOString(), by: row.handled_by } : null,
    answer: row.answer && row.answered_at && row.answered_by ? { text: row.answer, at: row.answered_at.toISOString(), by: row.answered_by } : null,
  };
}
