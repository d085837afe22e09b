// /api/personas for administrators: the order a leaked copy came from, read from the mark in it.
import { DataEnvelope, ErrorBody, LeakFinding, MAX_LEAK_UPLOAD_BYTES, NoQuery } from '@persona/contracts';
import { abandonedSignal, badRequest, unsupportedMediaType, type ServiceApp } from '@persona/service-kit';
import { discardUploads } from '@persona/untrusted';
import type { PersonalizationDeps } from '../deps';
import { COPY_NAME, receiveCopy } from '../modules/copy-checks/receive-copy';
import { copyFormat } from '../modules/leak-mark/copy-format';
import { markHex } from '../modules/leak-mark/mark-code';
import type { MarkReading } from '../modules/leak-mark/read-mark';
import * as repo from '../modules/personas/personas.repository';

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

export default async function personaAdminRoutes(app: ServiceApp, deps: PersonalizationDeps) {
  const { db } = deps;

  app.post(
    '/api/personas/leaks',
    {
      onRequest: deps.adminOnly,
      schema: {
        consumes: ['multipart/form-data'],
        querystring: NoQuery,
        response: { 200: DataEnvelope(LeakFinding), 400: ErrorBody, 401: ErrorBody, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw unsupportedMediaType('Send the copy as multipart/form-data in the field "file"');
      const upload = await receiveCopy(request, deps.uploadsDir, MAX_LEAK_UPLOAD_BYTES, 'The copy must be under 40 MB');
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
}
