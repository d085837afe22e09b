// Orders' side of an administrator's answer to a visitor's message (issue 24): the admin service
// records the answer and announces feedback.answered; the orders service, whose mail relay sends
// the shop's e-mails, queues the answer to the sender's address (event-emails: once however often
// the event arrives).
import type { BusLogger, EventBus, KnownEvent, Subscription } from '@persona/bus';
import type { Kysely } from 'kysely';
import type { OrdersDB } from '../../db';
import { applyEventEmail, subscribeEventEmail, type EventEmail } from '../mail/event-emails';
import type { ShopMail } from '../mail/emails.repository';
import { feedbackAnswerEmail } from './feedback-answer-email';

export const ORDERS_FEEDBACK_ANSWER_QUEUE = 'orders.feedback-answers';

const answers = (shop: ShopMail): EventEmail<'feedback.answered'> => ({
  queue: ORDERS_FEEDBACK_ANSWER_QUEUE,
  type: 'feedback.answered',
  emailOf: async (_trx, event) => feedbackAnswerEmail(event.payload, shop, event.correlationId || null),
  logged: (event) => ({ fields: { feedbackId: event.payload.feedbackId }, message: "a message answered: the answer's e-mail queued" }),
});

/** Queues the answer; false when the event was seen before. */
export const applyFeedbackAnswer = (db: Kysely<OrdersDB>, event: KnownEvent<'feedback.answered'>, shop: ShopMail) => applyEventEmail(db, answers(shop), event);

export const subscribeFeedbackAnswers = (
  bus: EventBus,
  db: Kysely<OrdersDB>,
  shop: ShopMail,
  afterQueued: () => void,
  logger?: BusLogger,
): Promise<Subscription> => subscribeEventEmail(bus, db, answers(shop), afterQueued, logger);
