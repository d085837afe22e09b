// An administrator marks a visitor's message handled (or waiting again): the mark, who made it and
// when, and its audit event commit together. Marking it as it already is changes nothing and
// tells no one.
import { createEvent, type EventOrigin, type UnitOfWork } from '@persona/bus';
import { notFound } from '@persona/service-kit';
import type { AdminDB } from '../../db';
import { lockFeedback, setFeedbackHandled, type FeedbackRow } from './feedback.repository';

export async function markFeedbackHandled(uow: UnitOfWork<AdminDB>, id: string, handled: boolean, origin: EventOrigin): Promise<FeedbackRow> {
  const by = origin.actor?.email;
  // The route is for administrators only; a mark without one would say nobody made it.
  if (!by) throw new Error('markFeedbackHandled needs the administrator who marks it');
  return uow.run(async ({ trx, emit }) => {
    const row = await lockFeedback(trx, id);
    if (!row) throw notFound('Feedback not found');
    if (Boolean(row.handled_at) === handled) return row;
    const marked = await setFeedbackHandled(trx, id, handled ? by : null);
    await emit(createEvent('feedback.handled', { feedbackId: id, name: row.name, handled }, origin));
    return marked;
  });
}
