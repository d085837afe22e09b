// /api/newsletter/subscribe (public, idempotent), the subscribers list and its CSV export.
import { Readable } from 'node:stream';
import {
  CsvAnswer,
  DEFAULT_PAGE_SIZE,
  ErrorBody,
  ListEnvelope,
  NoQuery,
  SubscribeBody,
  Subscriber,
  SubscriberExportQuery,
  SubscriberQuery,
} from '@persona/contracts';
import { decodeCursor, pageMeta } from '@persona/db';
import { clientAddress, readCursors, type ServiceApp } from '@persona/service-kit';
import { Type } from '@sinclair/typebox';
import type { AdminDeps } from '../deps';
import { subscribersCsv, toSubscriber } from '../modules/newsletter/subscribers.mapper';
import { listSubscribers, subscribe, subscriberBatches, SUBSCRIBER_KEYS } from '../modules/newsletter/subscribers.repository';

export default async function newsletterRoutes(app: ServiceApp, deps: AdminDeps) {
  const { db, adminOnly } = deps;

  app.post(
    '/api/newsletter/subscribe',
    {
      config: { rateLimit: { ...deps.publicRateLimit, keyGenerator: clientAddress } },
      schema: { querystring: NoQuery, body: SubscribeBody, response: { 200: Type.Object({ message: Type.String() }), 400: ErrorBody, 429: ErrorBody } },
    },
    async (request) => {
      return { message: (await subscribe(db, request.body.email)) ? 'Thank you for subscribing!' : 'You are already subscribed.' };
    },
  );

  app.get(
    '/api/admin/subscribers',
    { onRequest: adminOnly, schema: { querystring: SubscriberQuery, response: { 200: ListEnvelope(Subscriber), 400: ErrorBody, 401: ErrorBody } } },
    async (request) => {
      const { page = 1, limit = DEFAULT_PAGE_SIZE, search } = request.query;
      const cursors = readCursors(request.query, (text) => decodeCursor(text, SUBSCRIBER_KEYS));
      const result = await deps.reads.readLatest((reader) => listSubscribers(reader, { search, limit, page, ...cursors, countCap: deps.countCap }));
      return { data: result.rows.map(toSubscriber), meta: pageMeta(result, { page, limit }) };
    },
  );

  app.get(
    '/api/admin/subscribers/export',
    { onRequest: adminOnly, schema: { querystring: SubscriberExportQuery, response: { 200: CsvAnswer, 400: ErrorBody, 401: ErrorBody } } },
    async (_request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="subscribers.csv"')
        // A list of people's e-mail addresses: no cache anywhere may keep it.
        .header('cache-control', 'no-store')
        .send(Readable.from(subscribersCsv(subscriberBatches(db)))),
  );
}
