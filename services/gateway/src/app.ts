// Builds the gateway: security headers, CORS, rate limits, then the API proxy,
// the admin app under /admin and the storefront.
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { OpenApiDocument, ServiceName } from '@persona/contracts';
import {
  createAdminVerifier,
  createServiceApp,
  redisBroadcast,
  sharedLimitOptions,
  sharedLimits,
  type LoadSheddingOptions,
  type ServiceApp,
  tooManyBody,
} from '@persona/service-kit';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { PublicDocument } from './modules/openapi/public-document';
import { ApiReader } from './modules/pages/api-reader';
import { loadStorefrontRenderer, type StorefrontRenderer } from './modules/pages/storefront-bundle';
import { SharedCache } from './modules/proxy/shared-cache';
import { UpstreamClient } from './modules/proxy/upstream-client';
import { computeApiSecurityHeaders, computeSecurityHeaders } from './modules/security-headers';
import adminAppRoutes from './routes/admin-app';
import apiReferenceRoutes, { API_DOCS_PREFIX } from './routes/api-reference';
import proxyRoutes from './routes/proxy';
import seoRoutes from './routes/seo';
import storefrontRoutes, { loadIndexTemplate, storefrontNotFound } from './routes/storefront';

export interface GatewayOptions {
  upstreams: Partial<Record<ServiceName, string>> & { catalogue: string };
  jwtSecret: string;
  isRevoked?: (jti: string) => boolean | Promise<boolean>;
  storefrontDir: string;
  /** The admin app's build, served under /admin. */
  adminAppDir: string;
  publicUrl: string;
  corsOrigins?: string[];
  /** Requests per minute per client; 0 = no limit. */
  rateLimitMax?: number;
  /** REDIS_URL: the limit counts there, one count per client across every gateway. */
  redisUrl?: string;
  trustProxy?: boolean;
  logger?: FastifyBaseLogger | false;
  /** Keep public reads the services mark `s-maxage` for that long (default on). */
  sharedCache?: boolean;
  /** The ad network's origins the pages may load from (CSP_AD_ORIGINS); none by default. */
  adOrigins?: readonly string[];
  /** When set, the gateway's own /metrics demands `Authorization: Bearer <token>`. */
  metricsToken?: string;
  /** When the gateway, saturated, answers 503 with Retry-After (SHED_*); without it, never. */
  loadShedding?: LoadSheddingOptions;
  /** Renders the storefront's pages; by default its server bundle in `storefrontDir` (none: pages render in the browser). */
  renderer?: StorefrontRenderer | null;
}

/** Razorpay Checkout (live payments) loads its script from, frames and calls these origins. */
const RAZORPAY = ['https://checkout.razorpay.com', 'https://api.razorpay.com'];
const CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", ...RAZORPAY],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'https://cdn.razorpay.com'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'", ...RAZORPAY, 'https://lumberjack.razorpay.com'],
  frameSrc: ["'self'", ...RAZORPAY],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

/** The gateway's own routes besides its API and pages: its document describes them too. */
const OPERATIONAL_ROUTES = ['/healthz', '/readyz', '/metrics'];

/**
 * The API reference page's policy (/api/docs, Swagger UI): its scripts and styles are files from
 * this gateway (no inline script), it reads the document from here, and its pictures are its own
 * or data: URLs. Nothing else the pages may load (Razorpay, ads) is allowed on it.
 */
export const API_DOCS_CSP = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** The pages' policy: the storefront's inline scripts by hash, and the ad network's origins when one is configured. */
export function pageCsp(inlineScriptHashes: readonly string[], adOrigins: readonly string[]) {
  return {
    ...CSP,
    scriptSrc: [...CSP.scriptSrc, ...inlineScriptHashes, ...adOrigins],
    imgSrc: [...CSP.imgSrc, ...adOrigins],
    connectSrc: [...CSP.connectSrc, ...adOrigins],
    frameSrc: [...CSP.frameSrc, ...adOrigins],
  };
}

export async function buildGateway(options: GatewayOptions): Promise<ServiceApp> {
  const template = loadIndexTemplate(options.storefrontDir);
  const renderer = options.renderer !== undefined ? options.renderer : await loadStorefrontRenderer(options.storefrontDir);
  const upstreams = Object.entries(options.upstreams).filter((e): e is [ServiceName, string] => Boolean(e[1]));
  const app = createServiceApp({
    name: 'gateway',
    logger: options.logger ?? false,
    trustProxy: options.trustProxy ?? false,
    notFoundHandler: storefrontNotFound,
    metricsToken: options.metricsToken,
    loadShedding: options.loadShedding,
    // Its document holds its own API routes; the services' (through the proxy) come from them, and pages are not API.
    describes: (url) => url.startsWith('/api/') || OPERATIONAL_ROUTES.includes(url),
    readiness: Object.fromEntries(
      upstreams.map(([name, url]) => [
        name,
        async () => {
          const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1500) });
          if (!res.ok) throw new Error(`${name} is not ready (${res.status})`);
        },
      ]),
    ),
  });

  // The storefront's inline paint-first loader runs by its hash; no other inline script does.
  const pageHeaders = computeSecurityHeaders({
    contentSecurityPolicy: { directives: pageCsp(template.inlineScriptHashes, options.adOrigins ?? []) },
    crossOriginEmbedderPolicy: false,
  });
  const apiHeaders = computeApiSecurityHeaders();
  const docsHeaders = computeSecurityHeaders({ contentSecurityPolicy: { useDefaults: false, directives: API_DOCS_CSP }, crossOriginEmbedderPolicy: false });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith(API_DOCS_PREFIX) ? docsHeaders : request.url.startsWith('/api/') ? apiHeaders : pageHeaders);
    done();
  });
  // Same-origin only unless origins are configured: then no CORS code runs on any request at all.
  if (options.corsOrigins && options.corsOrigins.length > 0) {
    await app.register(cors, { origin: options.corsOrigins, credentials: false });
  }
  if ((options.rateLimitMax ?? 0) > 0) {
    await app.register(rateLimit, {
      max: options.rateLimitMax,
      timeWindow: '1 minute',
      allowList: (request) => request.url === '/healthz' || request.url === '/readyz' || request.url === '/metrics',
      // The limit is a flood guard, not a quota clients plan around: its headers go with the 429 (and
      // Retry-After), not with every answer. The services' own limits (persona lookups) still send theirs.
      addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
      errorResponseBuilder: (_request, context) => tooManyBody('requests', context.ttl),
      ...sharedLimitOptions(sharedLimits(app, options.redisUrl, 'gateway')),
    });
  }
  const client = new UpstreamClient();
  app.addHook('onClose', () => client.close());

  if (!renderer) app.log.warn({ dir: options.storefrontDir }, 'the storefront has no server bundle: pages are sent to render in the browser');

  const verifier = createAdminVerifier({ secret: options.jwtSecret, isRevoked: options.isRevoked });
  // One cache for the proxy and the pages: a write through the gateway empties both views of it.
  const cache = options.sharedCache === false ? undefined : new SharedCache();
  const peers = cache && options.redisUrl ? forgetWithPeers(app, cache, options.redisUrl) : undefined;
  const reader = new ApiReader({ upstreams: options.upstreams, cache });
  await app.register(async (scope) => proxyRoutes(scope as ServiceApp, { upstreams: options.upstreams, client, verifier, cache, announce: peers }));
  const document = new PublicDocument({ upstreams: options.upstreams, own: () => app.swagger() as OpenApiDocument });
  await app.register(async (scope) => apiReferenceRoutes(scope as ServiceApp, { document }));
  await app.register(async (scope) => adminAppRoutes(scope as ServiceApp, { dir: options.adminAppDir }));
  await app.register(async (scope) => seoRoutes(scope as ServiceApp, { publicUrl: options.publicUrl, reader }));
  await app.register(async (scope) =>
    storefrontRoutes(scope as ServiceApp, { dir: options.storefrontDir, publicUrl: options.publicUrl, template, renderer, reader }),
  );
  return app;
}

/** The channel the gateways tell each other on which cached answers a write made stale. */
export const FORGET_CHANNEL = 'persona:gateway:forget';

/**
 * With REDIS_URL, a write through one gateway makes every gateway forget its owner's cached answers
 * (Redis pub/sub; the writing gateway forgets its own before answering): the writer's next read,
 * through whichever gateway, shows the change once the message has crossed Redis (well under a
 * millisecond on one network), where it would otherwise wait out the answer's s-maxage. A gateway
 * whose subscription was cut (Redis restarted) forgets everything, since messages may have been lost.
 */
function forgetWithPeers(app: FastifyInstance, cache: SharedCache, redisUrl: string): (prefixes: string[]) => void {
  const channel = redisBroadcast<unknown>(redisUrl, FORGET_CHANNEL, {
    receive: (prefixes) => {
      if (Array.isArray(prefixes) && prefixes.length <= 32 && prefixes.every((p) => typeof p === 'string' && p.startsWith('/api/'))) {
        cache.invalidate(prefixes as string[]);
      }
    },
    resync: () => cache.clear(),
  });
  // Listening waits for the subscription (a write's message missed at start would leave answers stale), at most 2 s.
  app.addHook('onReady', () => Promise.race([channel.subscribed, new Promise<void>((resolve) => setTimeout(resolve, 2000).unref())]));
  app.addHook('onClose', () => channel.close());
  return (prefixes) => void channel.publish(prefixes);
}
