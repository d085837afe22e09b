// Orders' side of an administrator's answer to a visitor's message (issue 24): the admin service
// records the answer and announces feedback.answered; the orders service, whose mail relay sends
// the shop's e-mails, queues the answer to the sender's address through its inbox (once however
// often the event arrives).
import { eventLogger, handleOnce, type BusLogger, type EventBus, type KnownEvent, type Subscription } from '@persona/bus';
import type { Kysely } from 'kysely';
import type { OrdersDB } from '../../db';
import { queueEmail, type ShopMail } from '../mail/emails.repository';
import { feedbackAnswerEmail } from './feedback-answer-email';

export const ORDERS_FEEDBACK_ANSWER_QUEUE = 'orders.feedback-answers';

/** Queues the answer; false when the event was seen before. */
export async function applyFeedbackAnswer(db: Kysely<OrdersDB>, event: KnownEvent<'feedback.answered'>, shop: ShopMail): Promise<boolean> {
  let queued = false;
  await handleOnce(db, ORDERS_FEEDBACK_ANSWER_QUEUE, event, async (trx) => {
    await queueEmail(trx, feedbackAnswerEmail(event.payload, shop, event.correlationId || null));
    queued = true;
  });
  return queued;
}

export function subscribeFeedbackAnswers(
  bus: EventBus,
  db: Kysely<OrdersDB>,
  shop: ShopMail,
  afterQueued: () => void,
  logger?: BusLogger,
): Promise<Subscription> {
  return bus.subscribe({
    queue: ORDERS_FEEDBACK_ANSWER_QUEUE,
    bindings: ['feedback.answered'],
    handler: async (event) => {
      const queued = await applyFeedbackAnswer(db, event, shop);
      if (logger) eventLogger(logger, event, { feedbackId: event.payload.feedbackId }).info({ queued }, "a message answered: the answer's e-mail queued");
      if (queued) afterQueued();
    },
  });
}
