// /api/books: public reads (cached, with ETags) and admin writes (multipart).
import { Type } from '@sinclair/typebox';
import {
  Book,
  BookList,
  BookQuery,
  BookSummary,
  DataEnvelope,
  ErrorBody,
  IdParams,
  NoQuery,
  RelatedQuery,
  SitemapEntry,
  SitemapFileParams,
  SitemapIndex,
  Suggestion,
  SuggestQuery,
} from '@persona/contracts';
import { abandonedSignal, notFound, requestOrigin, unsupportedMediaType, type ServiceApp } from '@persona/service-kit';
import type { FastifyRequest } from 'fastify';
import { bookAnswer, listBooksAnswer, relatedAnswer, sitemapFileAnswer, sitemapIndexAnswer, suggestAnswer } from '../modules/books/cached-answers';
import { findBookParagraphs } from '../modules/books/books.repository';
import { createBook, deleteBook, updateBook } from '../modules/books/books.service';
import { formUploads, inspectUploads, parseBookForm } from '../modules/books/parse-book-form';
import { sendCached } from '../modules/books/send-cached';
import { discardUploads } from '@persona/untrusted';
import type { CatalogueDeps } from '../deps';

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody, 503: ErrorBody };

export default async function bookRoutes(app: ServiceApp, deps: CatalogueDeps) {
  const { db, cache, storage, adminOnly } = deps;
  const writeContext = (request: FastifyRequest) => ({ db, storage, uow: deps.uow, ...requestOrigin(request) });

  app.get('/api/books', { schema: { querystring: BookQuery, response: { 200: BookList, 400: ErrorBody } } }, async (request, reply) =>
    sendCached(request, reply, await listBooksAnswer(cache, request.query)),
  );

  // Static segments win over /api/books/:id in Fastify's router, whatever the order here.
  app.get(
    '/api/books/suggest',
    { schema: { querystring: SuggestQuery, response: { 200: DataEnvelope(Type.Array(Suggestion)), 400: ErrorBody } } },
    async (request, reply) => sendCached(request, reply, await suggestAnswer(cache, request.query.q)),
  );

  app.get('/api/books/sitemap', { schema: { querystring: NoQuery, response: { 200: DataEnvelope(SitemapIndex), 400: ErrorBody } } }, async (request, reply) =>
    sendCached(request, reply, await sitemapIndexAnswer(cache)),
  );

  app.get(
    '/api/books/sitemap/:file',
    { schema: { params: SitemapFileParams, querystring: NoQuery, response: { 200: DataEnvelope(Type.Array(SitemapEntry)), 400: ErrorBody, 404: ErrorBody } } },
    async (request, reply) => {
      const answer = await sitemapFileAnswer(cache, request.params.file);
      if (!answer) throw notFound('There is no such sitemap file');
      return sendCached(request, reply, answer);
    },
  );

  app.get(
    '/api/books/:id/related',
    { schema: { params: IdParams, querystring: RelatedQuery, response: { 200: DataEnvelope(Type.Array(BookSummary)), 400: ErrorBody, 404: ErrorBody } } },
    async (request, reply) => {
      const answer = await relatedAnswer(cache, request.params.id, request.query);
      if (!answer) throw notFound('Book not found');
      return sendCached(request, reply, answer);
    },
  );

  app.get(
    '/api/books/:id',
    { schema: { params: IdParams, querystring: NoQuery, response: { 200: DataEnvelope(Book), ...errors } } },
    async (request, reply) => {
      const answer = await bookAnswer(cache, request.params.id);
      if (!answer) return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: 'Book not found' });
      return sendCached(request, reply, answer);
    },
  );

  const multipartOnly = async (request: FastifyRequest) => {
    if (!request.isMultipart()) throw unsupportedMediaType('Send the book as multipart/form-data');
  };

  app.post(
    '/api/books',
    {
      onRequest: adminOnly,
      preHandler: multipartOnly,
      schema: { consumes: ['multipart/form-data'], querystring: NoQuery, response: { 201: DataEnvelope(Book), ...errors } },
    },
    async (request, reply) => {
      const form = await parseBookForm(request.parts(), 'create', deps.uploadsDir);
      try {
        await inspectUploads(form, deps.uploadChecks, abandonedSignal(reply));
        const book = await createBook(writeContext(request), form);
        return reply.status(201).send({ data: book, message: 'Book created successfully' });
      } finally {
        await discardUploads(formUploads(form).map((upload) => upload.file));
      }
    },
  );

  app.put(
    '/api/books/:id',
    {
      onRequest: adminOnly,
      preHandler: multipartOnly,
      schema: { consumes: ['multipart/form-data'], params: IdParams, querystring: NoQuery, response: { 200: DataEnvelope(Book), ...errors } },
    },
    async (request, reply) => {
      const form = await parseBookForm(request.parts(), 'update', deps.uploadsDir);
      try {
        await inspectUploads(form, deps.uploadChecks, abandonedSignal(reply));
        const book = await updateBook(writeContext(request), request.params.id, form);
        return { data: book, message: 'Book updated successfully' };
      } finally {
        await discardUploads(formUploads(form).map((upload) => upload.file));
      }
    },
  );

  app.delete(
    '/api/books/:id',
    {
      onRequest: adminOnly,
      schema: { params: IdParams, querystring: NoQuery, response: { 200: DataEnvelope(Type.Object({ _id: Type.String() })), ...errors } },
    },
    async (request) => {
      await deleteBook(writeContext(request), request.params.id);
      return { data: { _id: request.params.id }, message: 'Book deleted successfully' };
    },
  );
}

/** GET /api/books/:id/content: the full text, for the administrator's edit form only. */
export async function bookContentRoute(app: ServiceApp, deps: CatalogueDeps) {
  app.get(
    '/api/books/:id/content',
    {
      onRequest: deps.adminOnly,
      schema: {
        params: IdParams,
        querystring: NoQuery,
        response: { 200: DataEnvelope(Type.Object({ content: Type.Array(Type.String()) })), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const content = await findBookParagraphs(deps.db, request.params.id);
      if (!content) throw notFound('Book not found');
      return { data: { content } };
    },
  );
}
