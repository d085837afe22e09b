// A finished Persona's dedication page as a picture, for its gift recipient's e-mail (the orders
// service names it there): the page the Persona engine's preview draws for the printed name and
// the gift's message. The address carries a token only the shop's services can make
// (personaImageToken, from INTERNAL_TOKEN), so nobody holding a Persona ID alone sees a name or
// a message; every refusal is the same 404, a wrong token as a missing Persona.
import { ErrorBody, FileAnswer, normalizePersonaId } from '@persona/contracts';
import { clientAddress, notFound, personaImageToken, sameSecret, type ServiceApp } from '@persona/service-kit';
import { Type } from '@sinclair/typebox';
import type { PersonalizationDeps } from '../deps';
import * as repo from '../modules/personas/personas.repository';

const Params = Type.Object({ personaId: Type.String({ maxLength: 40 }) });
const Query = Type.Object({ token: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

export default async function dedicationImageRoutes(app: ServiceApp, deps: PersonalizationDeps) {
  app.get(
    '/api/personas/:personaId/dedication',
    {
      config: { rateLimit: { ...deps.lookupRateLimit, keyGenerator: clientAddress } },
      schema: {
        params: Params,
        querystring: Query,
        response: { 200: FileAnswer('The dedication page, drawn', ['image/png']), 400: ErrorBody, 404: ErrorBody, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      const personaId = normalizePersonaId(request.params.personaId);
      const secret = deps.internalToken;
      if (!personaId || !secret || !sameSecret(request.query.token, personaImageToken(secret, personaId))) throw notFound('Not found');
      const persona = await repo.findPersona(deps.db, personaId);
      // Only a Persona made and still licensed: a refunded or replaced one shows nothing.
      if (!persona || persona.status !== 'ready' || persona.licence_ended_at) throw notFound('Not found');
      const { image } = await deps.previews.draw(
        { bookId: persona.book_id, name: persona.recipient_name ?? persona.buyer_name, ...(persona.message ? { message: persona.message } : {}) },
        request.correlationId,
      );
      return (
        reply
          .type('image/png')
          .header('content-length', image.byteLength)
          // The recipient's mail program (or its image proxy) keeps it; no shared cache may.
          .header('cache-control', 'private, max-age=86400')
          .header('x-content-type-options', 'nosniff')
          .header('referrer-policy', 'no-referrer')
          .send(Buffer.from(image.buffer, image.byteOffset, image.byteLength) as never)
      );
    },
  );
}
