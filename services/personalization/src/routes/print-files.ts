// /api/personas/:personaId/print/{interior,cover}.pdf (issue 27): a printed Persona's print files,
// for the printer (the dispatch list links them) and a print house (its print job names them). The
// address carries a token only the shop's services can make (printFileToken, from INTERNAL_TOKEN):
// the files print the buyer's name, so a Persona ID alone shows nothing; a wrong token is the same
// 404 as a missing file. Files that did not pass the preflight are answered 409 with what it found.
import { ErrorBody, FileAnswer, normalizePersonaId } from '@persona/contracts';
import { conflict, notFound, printFileToken, sameSecret, type PrintFile, type ServiceApp } from '@persona/service-kit';
import { Type } from '@sinclair/typebox';
import type { PersonalizationDeps } from '../deps';
import * as repo from '../modules/personas/personas.repository';

const Params = Type.Object({ personaId: Type.String({ maxLength: 40 }), file: Type.Union([Type.Literal('interior.pdf'), Type.Literal('cover.pdf')]) });
const Query = Type.Object({ token: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

export default async function printFileRoutes(app: ServiceApp, deps: PersonalizationDeps) {
  app.get(
    '/api/personas/:personaId/print/:file',
    {
      config: { rateLimit: deps.lookupRateLimit },
      schema: {
        params: Params,
        querystring: Query,
        response: {
          200: FileAnswer("A printed Persona's interior or cover spread, ready to print", ['application/pdf']),
          400: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const personaId = normalizePersonaId(request.params.personaId);
      const file = request.params.file.replace(/\.pdf$/, '') as PrintFile;
      const secret = deps.internalToken;
      if (!personaId || !secret || !sameSecret(request.query.token, printFileToken(secret, personaId, file))) throw notFound('Not found');
      const persona = await repo.findPersona(deps.db, personaId);
      if (!persona || persona.status !== 'ready' || persona.print_problems === null) throw notFound('Not found');
      const problems = JSON.parse(persona.print_problems) as string[];
      if (problems.length > 0) throw conflict(`These print files did not pass the preflight: ${problems.join('; ')}`, 'PREFLIGHT_FAILED');
      const stored = await deps.files.openPrint(personaId, file);
      if (!stored) throw notFound('Not found');
      return (
        reply
          .type('application/pdf')
          .header('content-length', stored.size)
          .header('content-disposition', `inline; filename="${personaId} ${file}.pdf"`)
          // It prints a buyer's name: no shared cache keeps it.
          .header('cache-control', 'private, no-store')
          .header('referrer-policy', 'no-referrer')
          .send(stored.stream)
      );
    },
  );
}
