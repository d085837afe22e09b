// /api/personas: download (for the holder of the persona id, while its licence holds), verification of
// a record or an uploaded file, the shop's public key, the dedication page's
// preview, and (for administrators) the order a leaked copy came from.

import {
  DataEnvelope,
  ErrorBody,
  FileVerification,
  LeakFinding,
  MAX_LEAK_UPLOAD_BYTES,
  NoQuery,
  normalizePersonaId,
  PersonaIdParams,
  PersonaDownloadQuery,
  type PersonaFormat,
  PersonaPreviewBody,
  PersonaVerification,
  PublicKey,
  shopDate,
} from '@persona/contracts';
import {
  abandonedSignal,
  badRequest,
  clientAddress,
  HttpError,
  multipartFailure,
  multipartParts,
  notFound,
  payloadTooLarge,
  unsupportedMediaType,
  type ServiceApp,
} from '@persona/service-kit';
import { discardUploads, spoolUpload, type SpooledUpload } from '@persona/untrusted';
import type { FastifyRequest } from 'fastify';
import type { PersonalizationDeps } from '../app';
import { markHex } from '../modules/leak-mark/mark-code';
import { formatPurchaseDate } from '../modules/pdf-engine/format-date';
import { copyFormat, type CopyFormat } from '../modules/leak-mark/copy-format';
import type { MarkReading } from '../modules/leak-mark/read-mark';
import { PreviewAbandonedError } from '../modules/pdf-pool/pdf-pool';
import * as repo from '../modules/personas/personas.repository';
import { countDownload, downloadRefusal, readDownloads } from '../modules/downloads/downloads.service';
import { signatureHolds, signedRecord, verifyFile } from '../modules/personas/verify-file';
import { canonicalJson, signedFields } from '../modules/signing/persona-signature';

/** How a copy is named in what a refusal says. */
const COPY_NAME: Record<CopyFormat, string> = { pdf: 'This PDF', epub: 'This EPUB' };

const MAX_UPLOAD = 10 * 1024 * 1024;

/** A Persona's licence as its verify answer tells it (issue 23): it holds, or it ended and why. */
function licenceOf(row: repo.PersonaRow): PersonaVerification['licence'] {
  if (!row.licence_end || !row.licence_ended_at) return { status: 'active' };
  const endedAt = row.licence_ended_at.toISOString();
  if (row.licence_end === 'replaced' && row.replaced_by) return { status: 'replaced', endedAt, replacedBy: row.replaced_by };
  return { status: 'refunded', endedAt };
}

/** Why a Persona downloads no more, as a 410 its holder can act on; null while its licence holds. */
function licenceEnded(row: repo.PersonaRow): HttpError | null {
  const licence = licenceOf(row);
  if (licence.status === 'replaced')
    return new HttpError(410, `This Persona was replaced by Persona ${licence.replacedBy}, with the corrected details: download that one`, 'REPLACED');
  if (licence.status === 'refunded')
    return new HttpError(
      410,
      `This Persona's order was refunded in full on ${formatPurchaseDate(shopDate(new Date(licence.endedAt)))}: it can no longer be downloaded`,
      'REFUNDED',
    );
  return null;
}

/**
 * What anyone with a Persona's id (printed on every page) is told: what its copy shows everyone,
 * never a gift's buyer or message. Since issue 24 the signed record holds only that and salted
 * hashes, so it is answered whole and its signature can be checked by anyone; an older gift's
 * record named its buyer and message, and is checked here only.
 */
function publicVerification(row: repo.PersonaRow, publicKeys: Map<string, string>): Omit<PersonaVerification, 'licence'> {
  let record: string | null = null;
  try {
    const signed = signedRecord(row);
    if ('v' in signed || (!row.recipient_name && !row.message)) record = canonicalJson(signedFields(signed));
  } catch {
    // A version 2 row missing a salt: its record cannot be rebuilt (and signatureHolds says it does not verify).
  }
  return {
    personaId: row.persona_id,
    valid: signatureHolds(row, publicKeys),
    title: row.title,
    author: row.author,
    name: row.recipient_name ?? row.buyer_name,
    purchaseDate: row.purchase_date,
    gift: row.recipient_name !== null,
    record,
    sha256: row.sha256 as string,
    signature: row.signature as string,
    keyId: row.key_id as string,
  };
}

function personaIdOf(raw: string): string {
  const id = normalizePersonaId(raw);
  if (!id) throw badRequest('That is not a valid Persona ID');
  return id;
}

/** An ASCII fallback and an RFC 5987 UTF-8 name, so "Zoë" survives in every browser. */
function attachment(title: string, personaId: string, format: PersonaFormat): string {
  const name = `${title} - Persona ${personaId}.${format}`.replace(/[\r\n"\\/]/g, ' ');
  const ascii = name.normalize('NFKD').replace(/[^\x20-\x7e]/g, '');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Errors that say the copy itself cannot be read (pdf.js's, the ZIP reader's), as their names come back from a worker. */
const UNREADABLE_COPY: Record<string, string> = {
  InvalidPDFException: 'This PDF cannot be read: its structure is broken',
  FormatError: 'This PDF cannot be read: it is not well formed',
  PasswordException: 'This PDF is protected by a password: remove it and upload the copy again',
  UnreadableArchiveError: 'This EPUB cannot be read',
};

/** One sentence for the administrator: where the mark was found, or why none was. */
function leakEvidence(reading: MarkReading, personaId: string | null): string {
  const where =
    reading.format === 'pdf'
      ? `${reading.agreeing === reading.read ? (reading.read === 1 ? 'the one' : `each of the ${reading.read}`) : `${reading.agreeing} of the ${reading.read}`} page${reading.read === 1 ? '' : 's'} read${reading.total > reading.read ? ` (of ${reading.total})` : ''}`
      : `${reading.agreeing} of the ${reading.read} whole frame${reading.read === 1 ? '' : 's'} in its text`;
  if (reading.mark === null) {
    return reading.format === 'pdf'
      ? `No mark on the ${reading.read} page${reading.read === 1 ? '' : 's'} read: this copy was not made by this shop, or its pages were redrawn as pictures (a photo or a scan).`
      : `No mark in its text (${reading.total} document${reading.total === 1 ? '' : 's'} read): this copy was not made by this shop, or its text was retyped or stripped of the characters that print nothing.`;
  }
  const found =
    reading.agreeing > 0
      ? `The mark ${markHex(reading.mark)} was read on ${where}`
      : `The mark ${markHex(reading.mark)} was pieced together from damaged frames (${where})`;
  return personaId ? `${found}; it is the mark of Persona ${personaId}.` : `${found}, but no Persona made by this shop carries it.`;
}

export default async function personaRoutes(app: ServiceApp, deps: PersonalizationDeps) {
  /**
   * The one file of a multipart body (field "file"), written to the spool folder as it arrives
   * (never gathered in memory: spool-upload.ts); a file over `limit` is a 413 with `tooLarge`.
   */
  const receiveFile = async (request: FastifyRequest, limit: number, tooLarge: string): Promise<SpooledUpload> => {
    let upload: SpooledUpload | undefined;
    try {
      for await (const part of multipartParts(request.parts({ limits: { fileSize: limit, files: 1, fields: 0, parts: 1, headerPairs: 20 } }))) {
        if (part.type !== 'file' || part.fieldname !== 'file') throw badRequest(`body field "${part.fieldname}" is not allowed`);
        try {
          upload = await spoolUpload(part.file, deps.uploadsDir);
        } catch (err) {
          throw multipartFailure(err);
        }
        if (part.file.truncated) throw payloadTooLarge(tooLarge);
      }
    } catch (err) {
      await discardUploads([upload]);
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw payloadTooLarge(tooLarge);
      throw err;
    }
    if (!upload || upload.size === 0) {
      await discardUploads([upload]);
      throw badRequest('body field "file" is required');
    }
    return upload;
  };

  const { db } = deps;
  // Per client (the address the gateway forwards), so one guesser cannot use up every buyer's lookups.
  const limited = { rateLimit: { ...deps.lookupRateLimit, keyGenerator: clientAddress } };

  app.get('/api/personas/public-key', { schema: { querystring: NoQuery, response: { 200: DataEnvelope(PublicKey), 400: ErrorBody } } }, async () => ({
    data: { algorithm: 'Ed25519' as const, keyId: deps.key.keyId, publicKeyPem: deps.key.publicKeyPem },
  }));

  app.get(
    '/api/personas/:personaId/verify',
    {
      config: limited,
      schema: {
        params: PersonaIdParams,
        querystring: NoQuery,
        response: { 200: DataEnvelope(PersonaVerification), 400: ErrorBody, 404: ErrorBody, 429: ErrorBody },
      },
    },
    async (request) => {
      const row = await repo.findPersona(db, personaIdOf(request.params.personaId));
      if (!row || row.status !== 'ready' || !row.signature || !row.key_id || !row.sha256) throw notFound('No finished Persona has this ID');
      return { data: { ...publicVerification(row, await deps.publicKeys()), licence: licenceOf(row) } };
    },
  );

  app.post(
    '/api/personas/verify',
    {
      config: limited,
      schema: {
        querystring: NoQuery,
        response: { 200: DataEnvelope(FileVerification), 400: ErrorBody, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw unsupportedMediaType('Send the Persona as multipart/form-data in the field "file"');
      const upload = await receiveFile(request, MAX_UPLOAD, 'The file must be under 10MB');
      try {
        const format = copyFormat(upload.head);
        if (!format) throw unsupportedMediaType('The file must be a PDF or an EPUB');
        // Read on an untrusted-file thread within its budget; over it, a 413 or 422 naming the limit.
        const inspected = await deps.copyChecks.run('inspectCopy', upload.path, { file: COPY_NAME[format], signal: abandonedSignal(reply) });
        return { data: await verifyFile(db, await deps.publicKeys(), inspected) };
      } finally {
        await discardUploads([upload]);
      }
    },
  );

  app.post(
    '/api/personas/leaks',
    {
      onRequest: deps.adminOnly,
      schema: {
        querystring: NoQuery,
        response: { 200: DataEnvelope(LeakFinding), 400: ErrorBody, 401: ErrorBody, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw unsupportedMediaType('Send the copy as multipart/form-data in the field "file"');
      const upload = await receiveFile(request, MAX_LEAK_UPLOAD_BYTES, 'The copy must be under 40 MB');
      let reading: MarkReading;
      try {
        const format = copyFormat(upload.head);
        if (!format) throw unsupportedMediaType('The copy must be a PDF or an EPUB');
        reading = await deps.copyChecks.run('readMark', upload.path, { file: COPY_NAME[format], signal: abandonedSignal(reply) });
      } catch (err) {
        const unreadable = UNREADABLE_COPY[(err as Error).name];
        if (unreadable) throw badRequest(unreadable);
        throw err;
      } finally {
        await discardUploads([upload]);
      }
      const persona = reading.mark === null ? undefined : await repo.findPersonaByMark(db, reading.mark);
      request.log.info(
        { format: reading.format, mark: reading.mark === null ? null : markHex(reading.mark), personaId: persona?.persona_id ?? null },
        'leak lookup',
      );
      return {
        data: {
          format: reading.format,
          mark: reading.mark === null ? null : markHex(reading.mark),
          match: persona
            ? {
                personaId: persona.persona_id,
                orderId: persona.order_id,
                bookTitle: persona.title,
                buyerName: persona.buyer_name,
                recipientName: persona.recipient_name,
                paidAt: persona.purchase_date,
              }
            : null,
          evidence: leakEvidence(reading, persona?.persona_id ?? null),
        },
      };
    },
  );

  app.post(
    '/api/personas/preview',
    {
      config: { rateLimit: { ...deps.previewRateLimit, keyGenerator: clientAddress } },
      schema: { body: PersonaPreviewBody, querystring: NoQuery, response: { 400: ErrorBody, 404: ErrorBody, 429: ErrorBody, 503: ErrorBody } },
    },
    async (request, reply) => {
      let drawn;
      try {
        // A buyer typing on closes the request: a preview not yet drawn is then dropped.
        drawn = await deps.previews.draw(request.body, request.correlationId, abandonedSignal(reply));
      } catch (err) {
        // Nobody is there to answer: nginx's "client closed request", logged as such rather than as a failure.
        if (err instanceof PreviewAbandonedError) return reply.code(499 as never).send(undefined as never);
        throw err;
      }
      const { image, cached } = drawn;
      return (
        reply
          .type('image/png')
          .header('content-length', image.byteLength)
          .header('cache-control', 'private, max-age=300')
          .header('x-preview-cache', cached ? 'hit' : 'miss')
          .header('x-content-type-options', 'nosniff')
          // The image's bytes, sent as they are (the route's schemas describe only its errors).
          .send(Buffer.from(image.buffer, image.byteOffset, image.byteLength) as never)
      );
    },
  );

  app.get(
    '/api/personas/:personaId/download',
    { config: limited, schema: { params: PersonaIdParams, querystring: PersonaDownloadQuery } },
    async (request, reply) => {
      const personaId = personaIdOf(request.params.personaId);
      const format = request.query.format ?? 'pdf';
      const row = await repo.findPersona(db, personaId);
      if (!row || row.status !== 'ready') throw notFound('This Persona is not ready, or does not exist');
      const ended = licenceEnded(row);
      if (ended) throw ended;
      if (format === 'epub' && !row.epub_sha256) throw notFound("This Persona is a PDF only: its book is printed from the publisher's own PDF");
      // Refused before the file is opened when the allowance is used up, over, or stopped (a 403 whose code says which).
      const refused = downloadRefusal(await readDownloads(db, row, deps.downloadLimits), format);
      if (refused) throw refused;
      reply
        .type(format === 'epub' ? 'application/epub+zip' : 'application/pdf')
        .header('content-disposition', attachment(row.title, personaId, format))
        .header('cache-control', 'private, max-age=0')
        .header('x-content-type-options', 'nosniff')
        // Every GET is a whole, counted download: a range would let a copy be fetched in pieces past the limit.
        .header('accept-ranges', 'none');
      // A HEAD (a link checker, a download manager looking first) sends no file, so counts nothing.
      if (request.method === 'HEAD') return reply.send();
      const file = await deps.files.open(personaId, format);
      if (!file) throw notFound("This Persona's file is missing");
      try {
        // Counted as the file starts streaming; checked and counted in one statement, so parallel requests cannot pass the limit.
        await countDownload(db, row, format, deps.downloadLimits);
      } catch (err) {
        (file.stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
        throw err;
      }
      return reply.header('content-length', file.size).send(file.stream);
    },
  );
}
