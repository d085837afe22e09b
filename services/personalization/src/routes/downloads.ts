// A Persona's downloads (issue 24): what its id may still download, asking for more (a link
// e-mailed to the buyer), opening that link, and the owner's fresh allowance or stop. The download
// itself is personas-buyer.ts's, which counts it.
import { Type } from '@sinclair/typebox';
import { DataEnvelope, DownloadChangeBody, DownloadRenewBody, ErrorBody, NoBody, NoQuery, PersonaDownloads, PersonaIdParams } from '@persona/contracts';
import { clientAddress, HttpError, notFound, requestOrigin, type ServiceApp } from '@persona/service-kit';
import type { FastifyRequest } from 'fastify';
import type { PersonalizationDeps } from '../deps';
import { askForMoreDownloads, changeDownloads, readDownloads, renewDownloads } from '../modules/downloads/downloads.service';
import { personaIdOf } from '../modules/personas/persona-id';
import * as repo from '../modules/personas/personas.repository';

export default async function downloadRoutes(app: ServiceApp, deps: PersonalizationDeps) {
  const { db, downloadLimits: limits } = deps;
  const limited = { rateLimit: { ...deps.lookupRateLimit, keyGenerator: clientAddress } };

  /** The ready Persona the path names (400 for an id that is not one, 404 for none). */
  async function readyPersona(raw: string) {
    const row = await repo.findPersona(db, personaIdOf(raw));
    if (!row || row.status !== 'ready') throw notFound('This Persona is not ready, or does not exist');
    return row;
  }
  /** Asking for more, or opening the link, means nothing once the licence ended (refund or re-issue). */
  const ended = () => new HttpError(410, "This Persona's licence has ended: it can no longer be downloaded", 'LICENCE_ENDED');

  /** The owner's fresh allowance or stop, with why (the audit log reads it); mounted for administrators only, below. */
  const ownerChange = (change: 'reset' | 'revoke') =>
    ({
      schema: {
        params: PersonaIdParams,
        querystring: NoQuery,
        body: DownloadChangeBody,
        response: { 200: DataEnvelope(PersonaDownloads), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
      handler: async (request: FastifyRequest<{ Params: PersonaIdParams; Body: DownloadChangeBody }>) => {
        const row = await readyPersona(request.params.personaId);
        return {
          data: await changeDownloads(deps.uow, row, change, request.body.reason, limits, requestOrigin(request)),
          message: change === 'reset' ? 'Downloads reset: a fresh allowance' : 'Downloads stopped',
        };
      },
    }) as const;

  app.get(
    '/api/personas/:personaId/downloads',
    {
      config: limited,
      schema: {
        params: PersonaIdParams,
        querystring: NoQuery,
        response: { 200: DataEnvelope(PersonaDownloads), 400: ErrorBody, 404: ErrorBody, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      const row = await readyPersona(request.params.personaId);
      // Counts change with every download: no cache may keep them.
      reply.header('cache-control', 'no-store');
      return { data: await readDownloads(db, row, limits) };
    },
  );

  app.post(
    '/api/personas/:personaId/downloads/renewal',
    {
      config: limited,
      schema: {
        params: PersonaIdParams,
        querystring: NoQuery,
        body: NoBody,
        response: {
          202: Type.Object({ message: Type.String() }),
          400: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          410: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const row = await readyPersona(request.params.personaId);
      if (row.licence_end) throw ended();
      await askForMoreDownloads(deps.uow, row, limits, request.correlationId);
      // Never the address: whoever holds the id learns only that the buyer was written to.
      return reply.status(202).send({ message: "We've e-mailed the buyer a link for more downloads." });
    },
  );

  app.post(
    '/api/personas/:personaId/downloads/renew',
    {
      config: limited,
      schema: {
        params: PersonaIdParams,
        querystring: NoQuery,
        body: DownloadRenewBody,
        response: { 200: DataEnvelope(PersonaDownloads), 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 410: ErrorBody, 429: ErrorBody },
      },
    },
    async (request) => {
      const row = await readyPersona(request.params.personaId);
      if (row.licence_end) throw ended();
      return { data: await renewDownloads(db, row, request.body.token, limits), message: 'A fresh allowance of downloads' };
    },
  );

  app.post('/api/personas/:personaId/downloads/reset', { onRequest: deps.adminOnly, ...ownerChange('reset') });
  app.post('/api/personas/:personaId/downloads/revoke', { onRequest: deps.adminOnly, ...ownerChange('revoke') });
}
