// /api/files/<area>/<uuid>.<ext>: serves public uploads (covers, images,
// sample PDFs) with safe headers. Full PDFs live in the private area and are
// never served here.
import { Type } from '@sinclair/typebox';
import { ErrorBody, FileAnswer, IMAGE_WIDTHS } from '@persona/contracts';
import { notFound, type ServiceApp } from '@persona/service-kit';
import type { FastifyReply } from 'fastify';
import type { CatalogueDeps } from '../deps';
import { PUBLIC_FILE_KEY_PATTERN } from '../modules/files/file-storage';

const MIME: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', pdf: 'application/pdf' };

export default async function fileRoutes(app: ServiceApp, deps: CatalogueDeps) {
  app.get(
    '/api/files/:area/:name',
    {
      schema: {
        params: Type.Object({ area: Type.String({ maxLength: 20 }), name: Type.String({ maxLength: 60 }) }),
        // w: one of the sized WebP copies of a cover or image (IMAGE_WIDTHS).
        querystring: Type.Object({ w: Type.Optional(Type.Union(IMAGE_WIDTHS.map((w) => Type.Literal(w)))) }, { additionalProperties: false }),
        response: {
          200: FileAnswer('The file (a sized copy: WebP)', [...new Set(Object.values(MIME)), 'application/octet-stream']),
          400: ErrorBody,
          404: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const key = `${request.params.area}/${request.params.name}`;
      if (!PUBLIC_FILE_KEY_PATTERN.test(key)) throw notFound('File not found');
      if (request.query.w !== undefined) {
        const copy = await deps.storage.variant(key, request.query.w);
        if (!copy) throw notFound('File not found');
        return safeHeaders(reply).type('image/webp').header('content-length', copy.length).send(copy);
      }
      const file = await deps.storage.get(key);
      if (!file) throw notFound('File not found');
      const ext = key.slice(key.lastIndexOf('.') + 1);
      return safeHeaders(reply)
        .type(MIME[ext] ?? 'application/octet-stream')
        .header('content-length', file.size)
        .send(file.stream);
    },
  );
}

function safeHeaders(reply: FastifyReply): FastifyReply {
  return (
    reply
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      .header('content-disposition', 'inline')
      // Keys are never reused, so a file (or a copy of it) at a key never changes.
      .header('cache-control', 'public, max-age=31536000, immutable')
  );
}
