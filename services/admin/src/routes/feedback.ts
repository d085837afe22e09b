// /api/feedback: contact and per-book messages in (public, rate limited);
// the administrator's list and delete.
import { DataEnvelope, ErrorBody, Feedback, FeedbackBody, IdParams } from '@persona/contracts';
import { badRequest, notFound, serviceUnavailable, type ServiceApp } from '@persona/service-kit';
import { Type } from '@sinclair/typebox';
import type { AdminDeps } from '../app';

export default async function feedbackRoutes(app: ServiceApp, deps: AdminDeps) {
  const { db, adminOnly } = deps;

  app.post(
    '/api/feedback',
    { config: { rateLimit: deps.publicRateLimit }, schema: { body: FeedbackBody, response: { 201: DataEnvelope(Feedback), 400: ErrorBody, 429: ErrorBody, 503: ErrorBody } } },
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

  app.get('/api/feedback/all', { onRequest: adminOnly, schema: { response: { 200: DataEnvelope(Type.Array(Feedback)), 401: ErrorBody } } }, async () => {
    const rows = await db.selectFrom('feedback').selectAll().orderBy('created_at', 'desc').limit(1000).execute();
    return { data: rows.map(toFeedback) };
  });

  app.delete('/api/feedback/:id', { onRequest: adminOnly, schema: { params: IdParams, response: { 200: Type.Object({ message: Type.String() }), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody } } }, async (request) => {
    const deleted = await db.deleteFrom('feedback').where('id', '=', request.params.id).returning('id').executeTakeFirst();
    if (!deleted) throw notFound('Feedback not found');
    return { message: 'Feedback deleted successfully' };
  });
}

function toFeedback(row: { id: string; name: string; email: string; message: string; book_id: string | null; book_title: string | null; created_at: Date }): Feedback {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    message: row.message,
    bookId: row.book_id ? { _id: row.book_id, title: row.book_title ?? 'Unknown book' } : null,
    createdAt: row.created_at.toISOString(),
  };
}
