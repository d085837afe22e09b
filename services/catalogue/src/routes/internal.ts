// /internal/books/:id/source, /pdf, /cover and /signature: the only way the
// full text, the full PDF and the author's signature leave the catalogue, for
// the personalisation service (DESIGN §1, §5); /checkout: a book's price in
// paise for the orders service. The gateway never routes /internal; each call
// also needs the shared internal token.
import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import sharp from 'sharp';
import { BookSource, CheckoutBook, DataEnvelope, ErrorBody, FileAnswer, IdParams, NoQuery } from '@persona/contracts';
import { internalOnly, notFound, type ServiceApp } from '@persona/service-kit';
import type { CatalogueDeps } from '../deps';
import { findBookParagraphs, findBookRecord, findCheckoutBook, findSourceHead, type SourceHead } from '../modules/books/books.repository';

/**
 * The entity tag of a book's source: every write of a book sets its updated_at, and a new full PDF,
 * cover or signature is a new key (so a Persona made after one is uploaded never reuses the old facts). The personalisation service keeps the sources it read and asks again with it: a
 * book sold a hundred times a minute is read (and its whole text sent) once, then answered 304.
 */
export function sourceTag(head: SourceHead): string {
  const digest = createHash('sha256')
    .update(`${head.id}\0${head.updatedAt.toISOString()}\0${head.fullPdfKey ?? ''}\0${head.coverKey ?? ''}\0${head.authorSignatureKey ?? ''}`)
    .digest('base64url');
  return `"${digest.slice(0, 22)}"`;
}

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

export default async function internalRoutes(app: ServiceApp, deps: CatalogueDeps & { internalToken: string }) {
  const internal = internalOnly(deps.internalToken);

  // Read on the primary for every checkout, never cached: the price charged is the one stored now.
  app.get(
    '/internal/books/:id/checkout',
    { onRequest: internal, schema: { params: IdParams, querystring: NoQuery, response: { 200: DataEnvelope(CheckoutBook), ...errors } } },
    async (request) => {
      const book = await findCheckoutBook(deps.db, request.params.id);
      if (!book) throw notFound('Book not found');
      return { data: book };
    },
  );

  app.get(
    '/internal/books/:id/source',
    {
      onRequest: internal,
      schema: {
        params: IdParams,
        querystring: NoQuery,
        response: { 200: DataEnvelope(BookSource), 304: Type.Null({ description: 'Unchanged since the entity tag sent in If-None-Match' }), ...errors },
      },
    },
    async (request, reply) => {
      const head = await findSourceHead(deps.db, request.params.id);
      if (!head) throw notFound('Book not found');
      const tag = sourceTag(head);
      reply.header('etag', tag);
      // No body at all (not even `null`'s four bytes of length).
      if (request.headers['if-none-match'] === tag) return reply.code(304).send(undefined as unknown as null);
      const paragraphs = (await findBookParagraphs(deps.db, head.id)) ?? [];
      const source: BookSource = {
        bookId: head.id,
        title: head.title,
        author: head.author,
        description: head.description,
        paragraphs,
        hasFullPdf: head.fullPdfKey !== null,
        language: head.language,
        hasCover: head.coverKey !== null,
        hasAuthorSignature: head.authorSignatureKey !== null,
      };
      return { data: source };
    },
  );

  app.get(
    '/internal/books/:id/pdf',
    {
      onRequest: internal,
      schema: { params: IdParams, querystring: NoQuery, response: { 200: FileAnswer("The book's full PDF", ['application/pdf']), ...errors } },
    },
    async (request, reply) => {
      const record = await findBookRecord(deps.db, request.params.id);
      if (!record?.fullPdfKey) throw notFound('This book has no full PDF');
      const file = await deps.storage.get(record.fullPdfKey);
      if (!file) throw notFound('The full PDF file is missing');
      return reply.type('application/pdf').header('content-length', file.size).send(file.stream);
    },
  );

  // The Persona's first page and the EPUB's cover image: a PDF and an EPUB take JPEG or PNG, so a
  // GIF or WebP cover is sent as PNG (its first frame).
  app.get(
    '/internal/books/:id/cover',
    {
      onRequest: internal,
      schema: { params: IdParams, querystring: NoQuery, response: { 200: FileAnswer('The cover, as PNG or JPEG', ['image/png', 'image/jpeg']), ...errors } },
    },
    async (request, reply) => {
      const head = await findSourceHead(deps.db, request.params.id);
      if (!head) throw notFound('Book not found');
      if (!head.coverKey) throw notFound('This book has no cover image');
      const file = await deps.storage.get(head.coverKey);
      if (!file) throw notFound('The cover image file is missing');
      if (/\.(jpg|png)$/.test(head.coverKey)) {
        return reply
          .type(head.coverKey.endsWith('.png') ? 'image/png' : 'image/jpeg')
          .header('content-length', file.size)
          .send(file.stream);
      }
      const png = await sharp(await streamBytes(file.stream), { limitInputPixels: 50_000_000 })
        .png()
        .toBuffer();
      return reply.type('image/png').send(png);
    },
  );

  app.get(
    '/internal/books/:id/signature',
    {
      onRequest: internal,
      schema: { params: IdParams, querystring: NoQuery, response: { 200: FileAnswer("The author's signature", ['image/png']), ...errors } },
    },
    async (request, reply) => {
      const head = await findSourceHead(deps.db, request.params.id);
      if (!head) throw notFound('Book not found');
      if (!head.authorSignatureKey) throw notFound("This book has no author's signature");
      const file = await deps.storage.get(head.authorSignatureKey);
      if (!file) throw notFound("The author's signature file is missing");
      return reply.type('image/png').header('content-length', file.size).send(file.stream);
    },
  );
}

async function streamBytes(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}
