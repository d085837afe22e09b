// /api/personas for a buyer: the dedication page previewed as they type the name, and the
// download of their Persona (for the holder of its ID, while its licence holds).
import { ErrorBody, FileAnswer, NoQuery, PersonaIdParams, PersonaDownloadQuery, type PersonaFormat, PersonaPreviewBody } from '@persona/contracts';
import { abandonedSignal, clientAddress, notFound, type ServiceApp } from '@persona/service-kit';
import type { PersonalizationDeps } from '../deps';
import { countDownload, downloadRefusal, readDownloads } from '../modules/downloads/downloads.service';
import { PreviewAbandonedError } from '../modules/build-pool/build-pool';
import { licenceEnded } from '../modules/personas/licence-status';
import { personaIdOf } from '../modules/personas/persona-id';
import * as repo from '../modules/personas/personas.repository';

/** An ASCII fallback and an RFC 5987 UTF-8 name, so "Zoë" survives in every browser. */
function attachment(title: string, personaId: string, format: PersonaFormat): string {
  const name = `${title} - Persona ${personaId}.${format}`.replace(/[\r\n"\\/]/g, ' ');
  const ascii = name.normalize('NFKD').replace(/[^\x20-\x7e]/g, '');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export default async function personaBuyerRoutes(app: ServiceApp, deps: PersonalizationDeps) {
  const { db } = deps;
  // Per client (the address the gateway forwards), so one guesser cannot use up every buyer's lookups.
  const limited = { rateLimit: { ...deps.lookupRateLimit, keyGenerator: clientAddress } };

  app.post(
    '/api/personas/preview',
    {
      config: { rateLimit: { ...deps.previewRateLimit, keyGenerator: clientAddress } },
      schema: {
        body: PersonaPreviewBody,
        querystring: NoQuery,
        response: {
          200: FileAnswer('The dedication page as it will print', ['image/png']),
          400: ErrorBody,
          404: ErrorBody,
          429: ErrorBody,
          503: ErrorBody,
        },
      },
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
      return reply
        .type('image/png')
        .header('content-length', image.byteLength)
        .header('cache-control', 'private, max-age=300')
        .header('x-preview-cache', cached ? 'hit' : 'miss')
        .header('x-content-type-options', 'nosniff')
        .send(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
    },
  );

  app.get(
    '/api/personas/:personaId/download',
    {
      config: limited,
      schema: {
        params: PersonaIdParams,
        querystring: PersonaDownloadQuery,
        response: {
          200: FileAnswer('The Persona, counted as a download', ['application/pdf', 'application/epub+zip']),
          400: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          410: ErrorBody,
          429: ErrorBody,
        },
      },
    },
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
