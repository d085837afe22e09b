// /api/library: a buyer's Personas without a password (DESIGN §12). Asking for a sign-in link
// answers 202 whatever the address (rate limited per client); the library opens with the link's
// token, or the session it opened, in the X-Library-Token header (never in an address a log keeps).
import { Type } from '@sinclair/typebox';
import { DataEnvelope, ErrorBody, Library, LIBRARY_TOKEN_HEADER, LibraryLinkBody, NoQuery } from '@persona/contracts';
import { clientAddress, type ServiceApp } from '@persona/service-kit';
import type { OrdersDeps } from '../deps';
import { openLibrary, requestLibraryLink } from '../modules/library/library.service';

const TokenHeaders = Type.Object({ [LIBRARY_TOKEN_HEADER]: Type.String({ minLength: 20, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' }) });

export default async function libraryRoutes(app: ServiceApp, deps: OrdersDeps) {
  app.post(
    '/api/library/link',
    {
      config: { rateLimit: { ...deps.libraryLinkRateLimit, keyGenerator: clientAddress } },
      schema: { querystring: NoQuery, body: LibraryLinkBody, response: { 202: Type.Object({ message: Type.String() }), 400: ErrorBody, 429: ErrorBody } },
    },
    async (request, reply) => {
      await requestLibraryLink({ db: deps.db, shop: deps.mail.shop, correlationId: request.correlationId }, request.body.email);
      deps.mail.nudge();
      return reply.status(202).send({ message: 'If this address has Personas, a sign-in link is on its way.' });
    },
  );

  app.get(
    '/api/library',
    {
      config: { rateLimit: { ...deps.lookupRateLimit, keyGenerator: clientAddress } },
      schema: { querystring: NoQuery, headers: TokenHeaders, response: { 200: DataEnvelope(Library), 400: ErrorBody, 401: ErrorBody, 429: ErrorBody } },
    },
    async (request, reply) => {
      const data = await openLibrary(deps.db, request.headers[LIBRARY_TOKEN_HEADER] as string);
      // Buyers' names and downloads: no cache anywhere may keep it.
      reply.header('cache-control', 'no-store');
      return { data };
    },
  );
}
