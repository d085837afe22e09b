// /api/*: checks the admin policy and body size, then streams the request to
// the owning service over a keep-alive pool and streams the answer back.
import { isAdminRoute, type ServiceName } from '@persona/contracts';
import { HttpError, payloadTooLarge, requireAdmin, type AdminVerifier, type ServiceApp } from '@persona/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SharedCache, sharedMaxAge } from '../modules/proxy/shared-cache';
import { bodyLimitFor, ownerOf } from '../modules/proxy/upstreams';

export interface ProxyOptions {
  upstreams: Partial<Record<ServiceName, string>>;
  verifier: AdminVerifier;
  /** The shared cache for public reads (see shared-cache.ts); none when omitted. */
  cache?: SharedCache;
}

/** Only anonymous reads may be served from or stored into the shared cache. */
function cacheable(request: FastifyRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && !request.headers.authorization && !request.headers.cookie;
}

function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', reject);
  });
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

export default async function proxyRoutes(app: ServiceApp, options: ProxyOptions) {
  const checkAdmin = requireAdmin(options.verifier);
  const { cache } = options;

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
      const useCache = cache !== undefined && cacheable(request);
      if (useCache) {
        const hit = cache.get(request.url);
        if (hit) {
          reply.headers(hit.headers).header('x-cache', 'HIT');
          if (hit.etag && request.headers['if-none-match'] === hit.etag) return reply.status(304).send();
          return reply.status(hit.status).send(hit.body);
        }
      }
      return reply.from(`${base}${request.url}`, {
        onResponse: (_req, fromReply, raw) => {
          // reply-from hands over the upstream's status, headers and body stream (its types say otherwise).
          const res = raw as unknown as { statusCode: number; headers: Record<string, string | string[] | undefined>; stream: NodeJS.ReadableStream };
          const headers = res.headers;
          // Conditional requests are passed on as they came; only full answers are stored.
          if (!useCache || res.statusCode !== 200 || request.headers['if-none-match'] || sharedMaxAge(headers['cache-control'] as string) === 0) {
            return fromReply.send(res.stream);
          }
          readAll(res.stream).then(
            (body) => {
              cache.store(request.url, res.statusCode, headers, body);
              fromReply.header('x-cache', 'MISS').send(body);
            },
            (err: Error) => fromReply.send(err),
          );
        },
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
