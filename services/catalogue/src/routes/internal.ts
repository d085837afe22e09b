// /internal/books/:id/source and /internal/books/:id/pdf: the only way the
// full text and the full PDF leave the catalogue, for the personalisation
// service (DESIGN §1, §5). The gateway never routes /internal; each call also
// needs the shared internal token.
import type { BookSource } from '@persona/contracts';
import { IdParams } from '@persona/contracts';
import { internalOnly, notFound, type ServiceApp } from '@persona/service-kit';
import type { CatalogueDeps } from '../app';
import { findBookParagraphs, findBookRecord } from '../modules/books/books.repository';

export default async function internalRoutes(app: ServiceApp, deps: CatalogueDeps & { internalToken: string }) {
  const internal = internalOnly(deps.internalToken);

  app.get('/internal/books/:id/source', { onRequest: internal, schema: { params: IdParams } }, async (request) => {
    const record = await findBookRecord(deps.db, request.params.id);
    if (!record) throw notFound('Book not found');
    const paragraphs = (await findBookParagraphs(deps.db, record.id)) ?? [];
    const source: BookSource = {
      bookId: record.id,
      title: record.title,
      author: record.author,
      paragraphs,
      hasFullPdf: record.fullPdfKey !== null,
      language: record.language,
    };
    return { data: source };
  });

  app.get('/internal/books/:id/pdf', { onRequest: internal, schema: { params: IdParams } }, async (request, reply) => {
    const record = await findBookRecord(deps.db, request.params.id);
    if (!record?.fullPdfKey) throw notFound('This book has no full PDF');
    const file = await deps.storage.get(record.fullPdfKey);
    if (!file) throw notFound('The full PDF file is missing');
    return reply.type('application/pdf').header('content-length', file.size).send(file.stream);
  });
}
