// The shop's rate limits, on @fastify/rate-limit: one answer for every 429 (what was limited,
// and when to try again), and the per-route limits a service's routes opt into.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';

/** The body of a 429: `Too many <what>; please try again in N seconds`. */
export function tooManyBody(what: string, ttlMs: number) {
  return { statusCode: 429, error: 'Too Many Requests', message: `Too many ${what}; please try again in ${Math.ceil(ttlMs / 1000)} seconds` };
}

/** Per-route limits: a route opts in with `config: { rateLimit: { max, timeWindow } }`; the answer names `what`. */
export async function registerRouteRateLimits(app: FastifyInstance, what: string): Promise<void> {
  await app.register(rateLimit, { global: false, errorResponseBuilder: (_request, context) => tooManyBody(what, context.ttl) });
}
