// A feedback row as the API shows it (the book it is about, by the title kept when it arrived).
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
  };
}
