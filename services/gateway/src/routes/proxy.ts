// /api/*: checks the admin policy and body size, then streams the request to
// the owning service over a keep-alive pool and streams the answer back.
import { isAdminRoute, type ServiceName } from '@persona/contracts';
import { HttpError, payloadTooLarge, requireAdmin, type AdminVerifier, type ServiceApp } from '@persona/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bodyLimitFor, ownerOf } from '../modules/proxy/upstreams';

export interface ProxyOptions {
  upstreams: Partial<Record<ServiceName, string>>;
  verifier: AdminVerifier;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

export default async function proxyRoutes(app: ServiceApp, options: ProxyOptions) {
  const checkAdmin = requireAdmin(options.verifier);

  // Bodies pass through untouched: the owning service parses and validates them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.all('/api/*', {
    onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?')[0];
      const length = Number(request.headers['content-length'] ?? 0);
      if (length > bodyLimitFor(request.method, path)) throw payloadTooLarge('The request body is too large');
      if (isAdminRoute(request.method, path)) await checkAdmin.call(app, request, reply);
    },
    handler: async (request, reply) => {
      const path = request.url.split('?')[0];
      const owner = ownerOf(path);
      if (!owner) throw new HttpError(404, `Route ${request.method} ${path} not found`, 'NOT_FOUND');
      const base = options.upstreams[owner];
      if (!base) throw new HttpError(503, 'This part of the shop is not available yet', 'SERVICE_NOT_CONFIGURED');
      return reply.from(`${base}${request.url}`, {
        rewriteRequestHeaders: (_req, headers) => {
          const out: Record<string, unknown> = { ...headers };
          for (const h of HOP_BY_HOP) delete out[h];
          out['x-request-id'] = request.id;
          out['x-correlation-id'] = request.correlationId;
          out['x-forwarded-for'] = request.ip;
          out['x-forwarded-proto'] = request.protocol;
          return out as typeof headers;
        },
        onError: (errReply, { error }) => {
          const timedOut = /timeout/i.test(error.message) || (error as { code?: string }).code === 'UND_ERR_HEADERS_TIMEOUT';
          const status = timedOut ? 504 : 503;
          request.log.warn({ err: error, owner }, 'upstream failed');
          errReply.status(status).send({
            statusCode: status,
            error: timedOut ? 'Gateway Timeout' : 'Service Unavailable',
            message: timedOut ? `The ${owner} service took too long to answer, please try again` : `The ${owner} service is unavailable, please try again shortly`,
            requestId: request.id,
          });
        },
      });
    },
  });
}
