// /api/log for anyone (issue 27): the public log of Personas as the static files of the C2SP
// tlog-tiles layout — its signed checkpoint, hash tiles and entry bundles — read from the file store
// where the writer put them. A full tile or bundle never changes (a year, immutable); a partial one and
// the checkpoint are replaced as the log grows (seconds). Any tlog-tiles client, the verify page and
// `npm run log:audit` read the log from here.
import { ErrorBody, FileAnswer, NoQuery } from '@persona/contracts';
import { notFound, type ServiceApp } from '@persona/service-kit';
import { Type } from '@sinclair/typebox';
import type { PersonalizationDeps } from '../deps';
import { logCacheControl } from '../modules/public-log/log-files';

export default async function publicLogRoutes(app: ServiceApp, deps: PersonalizationDeps) {
  const { files } = deps.publicLog;

  app.get(
    '/api/log/*',
    {
      schema: {
        params: Type.Object({ '*': Type.String({ maxLength: 64 }) }),
        querystring: NoQuery,
        response: {
          200: FileAnswer('A file of the public log: its checkpoint (a signed note), a hash tile or an entry bundle', [
            'text/plain',
            'application/octet-stream',
          ]),
          400: ErrorBody,
          404: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const path = request.params['*'];
      const file = await files.open(path);
      if (!file) throw notFound(`The public log has no file ${path}`);
      return reply
        .header('content-type', path === 'checkpoint' ? 'text/plain; charset=utf-8' : 'application/octet-stream')
        .header('content-length', file.size)
        .header('cache-control', logCacheControl(path))
        .header('access-control-allow-origin', '*')
        .send(file.stream);
    },
  );
}
