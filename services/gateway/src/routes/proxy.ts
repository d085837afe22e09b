// /api/*: checks the admin policy and body size, then streams the request to
// the owning service over a keep-alive pool and streams the answer back.
import { Transform } from 'node:stream';
import { isAdminRoute, type ServiceName } from '@persona/contracts';
import { HttpError, payloadTooLarge, requireAdmin, type AdminVerifier, type ServiceApp } from '@persona/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches, negotiateCoding, type SharedCache, sharedMaxAge } from '../modules/proxy/shared-cache';
import { bodyLimitFor, ownerOf, prefixesOf } from '../modules/proxy/upstreams';

export interface ProxyOptions {
  upstreams: Partial<Record<ServiceName, string>>;
  verifier: AdminVerifier;
  /** The shared cache for public reads (see shared-cache.ts); none when omitted. */
  cache?: SharedCache;
  /** Tells the other gateways which answers a write through this one made stale (with REDIS_URL). */
  announce?: (prefixes: string[]) => void;
}

/**
 * Only anonymous reads may be served from the shared cache (a HEAD gets a stored GET's status and
 * headers); only a GET's answer may fill it (see `fills`).
 */
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

/** Answers up to this size are buffered instead of streamed: one write instead of a stream's several. */
const SMALL_BODY_BYTES = 64 * 1024;

// `expect: 100-continue` is answered here (Node sends the 100); passed on, undici refuses the request (a 503).
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'expect'];

/**
 * Refuses addresses no service should see: bad percent-encoding (else a 500 where
 * the proxy decodes it), and `..` segments or `\` in the path, raw or encoded once
 * or twice (path traversal: a service would never match them, but none should see them).
 */
function checkAddress(url: string): void {
  // Nearly every address has nothing to decode and no dot pair or backslash: nothing to check.
  if (!url.includes('%') && !url.includes('..') && !url.includes('\\')) return;
  const [rawPath] = url.split('?');
  let path: string;
  try {
    decodeURIComponent(url);
    path = decodeURIComponent(rawPath!);
  } catch {
    throw new HttpError(400, 'The address is not valid: it has a broken %-escape', 'BAD_URL');
  }
  let twice = path;
  try {
    twice = decodeURIComponent(path);
  } catch {
    // Once-decoded text with a stray "%" is fine; only the second reading of it is impossible.
  }
  if ([path, twice].some((p) => /(^|[/\\])\.\.([/\\]|$)/.test(p) || p.includes('\\'))) {
    throw new HttpError(400, 'The address is not valid: its path may not contain ".." segments or "\\"', 'BAD_PATH');
  }
}

/** Bodies the requests flagged here overran their limit while streaming (no or a false content-length). */
const overran = new WeakSet<FastifyRequest>();

export default async function proxyRoutes(app: ServiceApp, options: ProxyOptions) {
  const checkAdmin = requireAdmin(options.verifier);
  const { cache } = options;

  // Bodies pass through untouched: the owning service parses and validates them.
  app.removeAllContentTypeParsers();
  // Counted as they stream, so a chunked body cannot slip past the limit the content-length check applies.
  app.addContentTypeParser('*', (request, payload, done) => {
    const limit = bodyLimitFor(request.method, request.url.split('?')[0]!, request.headers['content-type']);
    let seen = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        seen += chunk.length;
        if (seen <= limit) return callback(null, chunk);
        overran.add(request);
        // The rest is read and dropped, so the client can finish sending and read the 413.
        payload.unpipe(counted);
        payload.resume();
        callback(payloadTooLarge('The request body is too large'));
      },
    });
    payload.once('error', (err: Error) => counted.destroy(err));
    done(null, payload.pipe(counted));
  });
  // A body nobody read to the end (a 404, an early answer upstream) is drained, so the connection stays usable.
  app.addHook('onResponse', (request, _reply, done) => {
    if (!request.raw.complete) {
      request.raw.unpipe();
      request.raw.resume();
    }
    done();
  });

  app.all('/api/*', {
    // Its operations are the services': the public document has them from each (api-reference.ts).
    schema: { hide: true },
    // Synchronous for the public reads (most requests); only an admin route awaits the token check.
    onRequest: (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
      const path = request.url.split('?')[0]!;
      try {
        checkAddress(request.url);
        const length = Number(request.headers['content-length'] ?? 0);
        if (length > bodyLimitFor(request.method, path, request.headers['content-type'])) throw payloadTooLarge('The request body is too large');
      } catch (err) {
        return done(err as Error);
      }
      if (!isAdminRoute(request.method, path)) return done();
      checkAdmin.call(app, request, reply).then(() => done(), done);
    },
    handler: async (request, reply) => {
      const path = request.url.split('?')[0];
      const owner = ownerOf(path);
      if (!owner) throw new HttpError(404, `Route ${request.method} ${path} not found`, 'NOT_FOUND');
      const base = options.upstreams[owner];
      if (!base) throw new HttpError(503, 'This part of the shop is not available yet', 'SERVICE_NOT_CONFIGURED');
      // Hits are answered here, after the route's checks and the rate limit (which @fastify/rate-limit
      // appends to this route's own onRequest hooks): a cached read still counts against the limit.
      const useCache = cache !== undefined && cacheable(request);
      const hit = useCache ? cache.get(request.url, request.headers) : undefined;
      // A HEAD's answer has no body, and a conditional GET's may be a 304: neither is the answer a GET gets.
      const fills = useCache && request.method === 'GET' && !request.headers['if-none-match'];
      const generation = cache?.generation ?? 0;
      // A write (whatever its outcome: a timed-out one may still have committed) makes its owner's cached
      // answers stale: they are forgotten before the writer hears back, so its next read shows the change.
      const write = request.method !== 'GET' && request.method !== 'HEAD';
      const forgetOwnersAnswers = () => {
        if (!write || !cache) return;
        const prefixes = prefixesOf(owner);
        cache.invalidate(prefixes);
        options.announce?.(prefixes);
      };
      if (hit) {
        // The stored headers carry the Vary every hit is sent with. To a HEAD, Node sends the same
        // status and headers (the content-length of the body it would have sent) and no body.
        reply.headers(hit.headers).header('x-cache', 'HIT');
        const coding = negotiateCoding(request.headers['accept-encoding'], hit.encoded);
        // A compressed copy is not byte-identical to the upstream's entity: its tag turns weak.
        if (coding && hit.etag) reply.header('etag', hit.etag.startsWith('W/') ? hit.etag : `W/${hit.etag}`);
        if (etagMatches(request.headers['if-none-match'], hit.etag)) return reply.status(304).send();
        if (!coding) return reply.status(hit.status).send(hit.body);
        return reply.status(hit.status).header('content-encoding', coding).send(hit.encoded[coding]);
      }
      return reply.from(`${base}${request.url}`, {
        onResponse: (_req, fromReply, raw) => {
          forgetOwnersAnswers();
          // reply-from hands over the upstream's status, headers and body stream (its types say otherwise).
          const res = raw as unknown as { statusCode: number; headers: Record<string, string | string[] | undefined>; stream: NodeJS.ReadableStream };
          const headers = res.headers;
          // An answer cut short (the upstream's socket closed mid-body) is refused, never passed on as if whole.
          const cutShort = (err: Error) => {
            request.log.warn({ err, owner }, 'upstream answer cut short');
            void fromReply.send(new HttpError(502, `The ${owner} service's answer was cut short, please try again`, 'BAD_GATEWAY'));
          };
          // Conditional requests and HEADs are passed on as they came; only full answers to a GET are stored.
          if (!fills || res.statusCode !== 200 || sharedMaxAge(headers['cache-control']) === 0) {
            // A small answer of known length is read whole and written once (headers and body in one write);
            // large ones and unknown lengths (files, CSV exports, PDFs) stream through.
            if (Number(headers['content-length']) <= SMALL_BODY_BYTES) {
              void readAll(res.stream).then((body) => void fromReply.send(body), cutShort);
              return;
            }
            void fromReply.send(res.stream);
            return;
          }
          void readAll(res.stream).then((body) => {
            // Kept only when whole (length, coding, JSON that parses): see SharedCache.store.
            cache.store(request.url, res.statusCode, headers, body, { generation, request: request.headers });
            void fromReply.header('x-cache', 'MISS').send(body);
          }, cutShort);
        },
        rewriteRequestHeaders: (_req, headers) => {
          const out: Record<string, unknown> = { ...headers };
          for (const h of HOP_BY_HOP) delete out[h];
          out['x-request-id'] = request.id;
          out['x-correlation-id'] = request.correlationId;
          out['x-forwarded-for'] = request.ip;
          out['x-forwarded-proto'] = request.protocol;
          // What the cache keeps (and a HEAD is measured against) is the identity body: the gateway
          // codes its own copies for each client, so the service is asked for none.
          if (useCache) out['accept-encoding'] = 'identity';
          return out as typeof headers;
        },
        onError: (errReply, { error }) => {
          forgetOwnersAnswers();
          if (overran.has(request)) {
            void errReply.status(413).send({
              statusCode: 413,
              error: 'Payload Too Large',
              message: 'The request body is too large',
              code: 'PAYLOAD_TOO_LARGE',
              requestId: request.id,
            });
            return;
          }
          const timedOut = /timeout/i.test(error.message) || (error as { code?: string }).code === 'UND_ERR_HEADERS_TIMEOUT';
          const status = timedOut ? 504 : 503;
          request.log.warn({ err: error, owner }, 'upstream failed');
          void errReply.status(status).send({
            statusCode: status,
            error: timedOut ? 'Gateway Timeout' : 'Service Unavailable',
            message: timedOut
              ? `The ${owner} service took too long to answer, please try again`
              : `The ${owner} service is unavailable, please try again shortly`,
            requestId: request.id,
          });
        },
      });
    },
  });
}
