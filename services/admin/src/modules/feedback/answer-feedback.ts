// An administrator answers a visitor's message by e-mail: the answer is kept with who sent it and
// when, the message becomes handled, and feedback.answered leaves in the same transaction. The
// admin service sends no mail itself: the orders service, whose mail relay sends the shop's
// e-mails, queues it from the event (services/orders/src/modules/feedback-answers). Once per
// message: a second answer is refused, so the sender never gets two differing replies by accident.
import { createEvent, type EventOrigin, type UnitOfWork } from '@persona/bus';
import { conflict, notFound } from '@persona/service-kit';
import type { AdminDB } from '../../db';
import { lockFeedback, recordFeedbackAnswer, type FeedbackRow } from './feedback.repository';

export async function answerFeedback(uow: UnitOfWork<AdminDB>, id: string, text: string, origin: EventOrigin): Promise<FeedbackRow> {
  const by = origin.actor?.email;
  if (!by) throw new Error('answerFeedback needs the administrator who answers');
  const answer = text.trim();
  return uow.run(async ({ trx, emit }) => {
    const row = await lockFeedback(trx, id);
    if (!row) throw notFound('Feedback not found');
    if (row.answer) throw conflict('This message has already been answered', 'ALREADY_ANSWERED');
    const answered = await recordFeedbackAnswer(trx, id, answer, by);
    await emit(
      createEvent('feedback.answered', { feedbackId: id, name: row.name, email: row.email, message: row.message, answer, bookTitle: row.book_title }, origin),
    );
    return answered;
  });
}
