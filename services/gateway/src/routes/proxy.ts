// /api/*: checks the admin policy and body size, then streams the request to
// the owning service over a keep-alive pool and streams the answer back.
import { Readable, Transform } from 'node:stream';
import { isAdminRoute, type ServiceName } from '@persona/contracts';
import { HttpError, payloadTooLarge, requireAdmin, type AdminVerifier, type ServiceApp } from '@persona/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches, negotiateCoding, type SharedCache, sharedMaxAge } from '../modules/proxy/shared-cache';
import { CutShortError, SMALL_BODY_BYTES, type UpstreamAnswer, type UpstreamClient } from '../modules/proxy/upstream-client';
import { bodyLimitFor, ownerOf, prefixesOf } from '../modules/proxy/upstreams';

export interface ProxyOptions {
  upstreams: Partial<Record<ServiceName, string>>;
  /** The keep-alive pools to the services. */
  client: UpstreamClient;
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

// `expect: 100-continue` is answered here (Node sends the 100); passed on, undici refuses the request (a 503).
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'expect', 'host']);
/** The upstream connection's own headers, not the answer's: the client's connection has its own. */
const HOP_BY_HOP_ANSWER = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'trailer']);

/** The names a Connection header lists (RFC 9110 §7.6.1): hop-by-hop too, never passed on. */
function connectionListed(connection: string | string[] | undefined): string[] {
  if (typeof connection !== 'string') return [];
  return connection
    .toLowerCase()
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/**
 * The headers the service gets: the client's, less the hop-by-hop ones (and any its Connection
 * header names), with the request's ids, the client's address and scheme, and the service's host.
 */
function upstreamHeaders(request: FastifyRequest, base: string, useCache: boolean): Record<string, string | string[] | undefined> {
  const incoming = request.headers;
  const listed = connectionListed(incoming.connection);
  const out: Record<string, string | string[] | undefined> = {};
  for (const name in incoming) {
    if (!HOP_BY_HOP.has(name) && (listed.length === 0 || !listed.includes(name))) out[name] = incoming[name];
  }
  out.host = hostOf(base);
  out['x-request-id'] = request.id;
  out['x-correlation-id'] = request.correlationId;
  out['x-forwarded-for'] = request.ip;
  out['x-forwarded-proto'] = request.protocol;
  // What the cache keeps (and a HEAD is measured against) is the identity body: the gateway
  // codes its own copies for each client, so the service is asked for none.
  if (useCache) out['accept-encoding'] = 'identity';
  return out;
}

/** Bodies the requests flagged here overran their limit while streaming (no or a false content-length). */
const overran = new WeakSet<FastifyRequest>();

const hosts = new Map<string, string>();
/** The host (and port) of a base URL, parsed once per upstream. */
function hostOf(base: string): string {
  let host = hosts.get(base);
  if (host === undefined) {
    host = new URL(base).host;
    hosts.set(base, host);
  }
  return host;
}

/** No answer from the service: a 413 when the body overran its limit on the way, a 504 when it was too slow, else a 503. */
function upstreamFailed(request: FastifyRequest, reply: FastifyReply, owner: ServiceName, error: Error) {
  if (overran.has(request)) {
    return reply.status(413).send({
      statusCode: 413,
      error: 'Payload Too Large',
      message: 'The request body is too large',
      code: 'PAYLOAD_TOO_LARGE',
      requestId: request.id,
    });
  }
  if (error instanceof CutShortError) {
    // An answer cut short (the upstream's socket closed mid-body) is refused, never passed on as if whole.
    request.log.warn({ err: error, owner }, 'upstream answer cut short');
    throw new HttpError(502, `The ${owner} service's answer was cut short, please try again`, 'BAD_GATEWAY');
  }
  const timedOut = /timeout/i.test(error.message) || (error as { code?: string }).code === 'UND_ERR_HEADERS_TIMEOUT';
  const status = timedOut ? 504 : 503;
  request.log.warn({ err: error, owner }, 'upstream failed');
  return reply.status(status).send({
    statusCode: status,
    error: timedOut ? 'Gateway Timeout' : 'Service Unavailable',
    message: timedOut ? `The ${owner} service took too long to answer, please try again` : `The ${owner} service is unavailable, please try again shortly`,
    requestId: request.id,
  });
}

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
      let answer: UpstreamAnswer;
      try {
        answer = await options.client.send(base, {
          method: request.method,
          path: request.url,
          headers: upstreamHeaders(request, base, useCache),
          body: request.body instanceof Readable ? request.body : undefined,
          // An answer the cache may keep arrives whole (of unknown length too: it is kept only when whole);
          // one longer than the cache keeps streams, as any other large answer does.
          bufferUpTo: fills && cache ? cache.maxBodyBytes : SMALL_BODY_BYTES,
          bufferUnknownLength: fills,
        });
      } catch (err) {
        forgetOwnersAnswers();
        return upstreamFailed(request, reply, owner, err as Error);
      }
      forgetOwnersAnswers();
      const { statusCode, headers, body } = answer;
      for (const name in headers) if (!HOP_BY_HOP_ANSWER.has(name)) reply.header(name, headers[name]);
      // An HTTP/1 connection cannot be reused until its request body has been read: it closes after this answer.
      if (!request.raw.complete) reply.header('connection', 'close');
      reply.status(statusCode);
      // Conditional requests and HEADs are passed on as they came; only full answers to a GET are stored.
      if (!fills || statusCode !== 200 || !Buffer.isBuffer(body) || sharedMaxAge(headers['cache-control']) === 0) {
        // A stream's failure midway ends the client's answer there (its length tells it that it is cut short).
        return reply.send(body);
      }
      // Kept only when whole (length, coding, JSON that parses): see SharedCache.store.
      cache.store(request.url, statusCode, headers, body, { generation, request: request.headers });
      return reply.header('x-cache', 'MISS').send(body);
    },
  });
}
