// /api/feedback: contact and per-book messages in (public, rate limited);
// the administrator's list and delete.
import { DataEnvelope, DEFAULT_PAGE_SIZE, ErrorBody, Feedback, FeedbackBody, FeedbackQuery, IdParams, ListEnvelope, NoQuery } from '@persona/contracts';
import { decodeCursor, pageMeta } from '@persona/db';
import { badRequest, clientAddress, notFound, readCursors, serviceUnavailable, type ServiceApp } from '@persona/service-kit';
import { Type } from '@sinclair/typebox';
import type { AdminDeps } from '../app';
import { FEEDBACK_KEYS, listFeedback, toFeedback } from '../modules/feedback/feedback.repository';

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
      let bookTitle: string | null = null;
      if (bookId) {
        let res: Response;
        try {
          res = await fetch(`${deps.catalogueUrl}/api/books/${bookId}`, { signal: AbortSignal.timeout(3000) });
        } catch {
          throw serviceUnavailable('The catalogue is not answering; please try again shortly');
        }
        if (res.status === 404) throw badRequest('The book this message is about does not exist');
        if (!res.ok) throw serviceUnavailable('The catalogue is not answering; please try again shortly');
        bookTitle = ((await res.json()) as { data: { title: string } }).data.title;
      }
      const row = await db
        .insertInto('feedback')
        .values({ name: name.trim(), email: email.trim(), message: message.trim(), book_id: bookId ?? null, book_title: bookTitle })
        .returningAll()
        .executeTakeFirstOrThrow();
      return reply.status(201).send({ data: toFeedback(row), message: 'Thank you! Your message has been sent.' });
    },
  );

  app.get(
    '/api/feedback/all',
    { onRequest: adminOnly, schema: { querystring: FeedbackQuery, response: { 200: ListEnvelope(Feedback), 400: ErrorBody, 401: ErrorBody } } },
    async (request) => {
      const { page = 1, limit = DEFAULT_PAGE_SIZE, search } = request.query;
      const cursors = readCursors(request.query, (text) => decodeCursor(text, FEEDBACK_KEYS));
      const result = await listFeedback(db, { search, limit, page, ...cursors, countCap: deps.countCap });
      return { data: result.rows, meta: pageMeta(result, { page, limit }) };
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
      const deleted = await db.deleteFrom('feedback').where('id', '=', request.params.id).returning('id').executeTakeFirst();
      if (!deleted) throw notFound('Feedback not found');
      return { message: 'Feedback deleted successfully' };
    },
  );
}
