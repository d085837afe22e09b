// /api/feedback: contact and per-book messages in (public, rate limited);
// the administrator's list (still waiting first), marking handled, answering by e-mail, delete.
import {
  DataEnvelope,
  DEFAULT_PAGE_SIZE,
  ErrorBody,
  Feedback,
  FeedbackAnswerBody,
  FeedbackBody,
  FeedbackHandledBody,
  FeedbackQuery,
  IdParams,
  ListEnvelope,
  NoQuery,
} from '@persona/contracts';
import { decodeCursor, pageMeta } from '@persona/db';
import { createEvent } from '@persona/bus';
import { checkDateRange, clientAddress, notFound, readCursors, requestOrigin, type ServiceApp } from '@persona/service-kit';
import { Type } from '@sinclair/typebox';
import type { AdminDeps } from '../deps';
import { toFeedback } from '../modules/feedback/feedback.mapper';
import { deleteFeedback, FEEDBACK_KEYS, insertFeedback, listFeedback } from '../modules/feedback/feedback.repository';
import { markFeedbackHandled } from '../modules/feedback/mark-feedback-handled';
import { answerFeedback } from '../modules/feedback/answer-feedback';

export default async function feedbackRoutes(app: ServiceApp, deps: AdminDeps) {
  const { db, adminOnly } = deps;

  app.post(
    '/api/feedback',
    {
      config: { rateLimit: { ...deps.publicRateLimit, keyGenerator: clientAddress } },
      schema: { querystring: NoQuery, body: FeedbackBody, response: { 201: DataEnvelope(Feedback), 400: ErrorBody, 429: ErrorBody, 503: ErrorBody } },
    },
    async (request, reply) => {
      const { name, email, message, bookId } = request.body;
      const bookTitle = bookId ? await deps.bookTitles(bookId, request.correlationId) : null;
      const data = toFeedback(await insertFeedback(db, { name, email, message, bookId: bookId ?? null, bookTitle }));
      return reply.status(201).send({ data, message: 'Thank you! Your message has been sent.' });
    },
  );

  app.get(
    '/api/feedback/all',
    { onRequest: adminOnly, schema: { querystring: FeedbackQuery, response: { 200: ListEnvelope(Feedback), 400: ErrorBody, 401: ErrorBody } } },
    async (request) => {
      const { page = 1, limit = DEFAULT_PAGE_SIZE, search, from, state } = request.query;
      checkDateRange({ from });
      const cursors = readCursors(request.query, (text) => decodeCursor(text, FEEDBACK_KEYS));
      // On the read replica once it has every commit made before this request (the admin's own changes included).
      const result = await deps.reads.readLatest((reader) => listFeedback(reader, { search, from, state, limit, page, ...cursors, countCap: deps.countCap }));
      return { data: result.rows.map(toFeedback), meta: pageMeta(result, { page, limit }) };
    },
  );

  app.patch(
    '/api/feedback/:id',
    {
      onRequest: adminOnly,
      schema: {
        params: IdParams,
        querystring: NoQuery,
        body: FeedbackHandledBody,
        response: { 200: DataEnvelope(Feedback), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      // Who marked it comes from the token, never from the body.
      const row = await markFeedbackHandled(deps.uow, request.params.id, request.body.handled, requestOrigin(request));
      return { data: toFeedback(row), message: request.body.handled ? 'Marked as handled' : 'Marked as waiting' };
    },
  );

  app.post(
    '/api/feedback/:id/answer',
    {
      onRequest: adminOnly,
      schema: {
        params: IdParams,
        querystring: NoQuery,
        body: FeedbackAnswerBody,
        response: { 200: DataEnvelope(Feedback), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const row = await answerFeedback(deps.uow, request.params.id, request.body.text, requestOrigin(request));
      return { data: toFeedback(row), message: `Your answer is on its way to ${row.email}` };
    },
  );

  app.delete(
    '/api/feedback/:id',
    {
      onRequest: adminOnly,
      schema: {
        params: IdParams,
        querystring: NoQuery,
        response: { 200: Type.Object({ message: Type.String() }), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      // The deletion and its audit event commit together; the event names the administrator.
      const deleted = await deps.uow.run(async ({ trx, emit }) => {
        const row = await deleteFeedback(trx, request.params.id);
        if (row) await emit(createEvent('feedback.deleted', { feedbackId: row.id, name: row.name }, requestOrigin(request)));
        return row;
      });
      if (!deleted) throw notFound('Feedback not found');
      return { message: 'Feedback deleted successfully' };
    },
  );
}
