// Comparing a secret someone sent with the one we hold, and the guard of the
// services' internal routes: written once, so every check is constant-time.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { unauthorized } from './http-errors';

/** Whether `given` equals `expected`, in time that does not depend on where they differ. */
export function sameSecret(given: string | Buffer, expected: string | Buffer): boolean {
  const a = Buffer.isBuffer(given) ? given : Buffer.from(given);
  const b = Buffer.isBuffer(expected) ? expected : Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The header a service sends to another's `/internal` routes (the shared INTERNAL_TOKEN). */
export const INTERNAL_TOKEN_HEADER = 'x-internal-token';

/** An onRequest hook: only a request carrying the shared INTERNAL_TOKEN passes (401 otherwise). */
export function internalOnly(internalToken: string) {
  const expected = Buffer.from(internalToken);
  return async (request: FastifyRequest): Promise<void> => {
    if (!sameSecret(String(request.headers[INTERNAL_TOKEN_HEADER] ?? ''), expected)) throw unauthorized("This route is for the shop's own services");
  };
}
