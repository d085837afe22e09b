// The shop's rate limits, on @fastify/rate-limit: one answer for every 429 (what was limited,
// and when to try again), and the per-route limits a service's routes opt into. With REDIS_URL the
// counts live in Redis (issue 25), so every replica of a service (and every gateway) counts
// together: two gateways no longer double a limit. Without it they are the process's own. A Redis
// that stops answering lets requests through (skipOnError) rather than refusing buyers: the limits
// are a guard against floods, and the log says Redis is away.
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import Redis from 'ioredis';

/** The body of a 429: `Too many <what>; please try again in N seconds`. */
export function tooManyBody(what: string, ttlMs: number) {
  return { statusCode: 429, error: 'Too Many Requests', message: `Too many ${what}; please try again in ${Math.ceil(ttlMs / 1000)} seconds` };
}

/** Where the limits count: nowhere shared (in memory), or the Redis of REDIS_URL under the limiter's own prefix. */
export interface SharedLimits {
  redis: Redis;
  /** The keys' prefix, one per limiter ("persona:rl:orders:"), so the services' counts never mix. */
  nameSpace: string;
}

/**
 * The Redis connection a process's limits share, or undefined without REDIS_URL. Commands fail at
 * once while it is away (no offline queue, one try), and it reconnects by itself; closed with the app.
 */
export function sharedLimits(app: FastifyInstance, redisUrl: string | undefined, name: string): SharedLimits | undefined {
  if (!redisUrl) return undefined;
  const redis = new Redis(redisUrl, {
    connectTimeout: 2000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let away = false;
  redis.on('error', (err) => {
    if (away) return;
    away = true;
    app.log.warn({ err }, 'Redis is not answering: rate limits let requests through until it is back');
  });
  redis.on('ready', () => {
    if (away) app.log.info('Redis answers again: rate limits count there');
    away = false;
  });
  // The service listens once Redis answers, or has said it will not (a refused connection), or 2 s
  // have passed: its first requests are counted, and a Redis that is away never holds the start.
  app.addHook('onReady', async () => {
    if (redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, 2000);
      function done() {
        clearTimeout(timer);
        redis.off('ready', done);
        redis.off('error', done);
        resolve();
      }
      redis.once('ready', done);
      redis.once('error', done);
    });
  });
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return { redis, nameSpace: `persona:rl:${name}:` };
}

/** The options that make a limiter count in Redis (and let requests through while it is away), or none. */
export function sharedLimitOptions(shared: SharedLimits | undefined): Partial<RateLimitPluginOptions> {
  return shared ? { redis: shared.redis, nameSpace: shared.nameSpace, skipOnError: true } : {};
}

/** Per-route limits: a route opts in with `config: { rateLimit: { max, timeWindow } }`; the answer names `what`. */
export async function registerRouteRateLimits(app: FastifyInstance, what: string, shared?: SharedLimits): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => tooManyBody(what, context.ttl),
    ...sharedLimitOptions(shared),
  });
}
