// Admin authentication: verifies the HS256 JWTs the admin service issues.
// Only HS256 is accepted (so `alg: none` and other-key tokens fail), `exp`,
// `jti` and `sub` are required, and a revocation check runs on every request.
import { cachedSessionCheck, redisSessionCache } from './session-cache';
import type { EventActor } from '@persona/contracts';
import { INTERNAL_TOKEN_HEADER } from './secrets';
import { createVerifier } from 'fast-jwt';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { serviceUnavailable, unauthorized } from './http-errors';

export interface AdminClaims {
  sub: string;
  email: string;
  role: 'admin';
  jti: string;
  exp: number;
  iat?: number;
}

export interface AdminAuthOptions {
  secret: string;
  /** True when the token id was revoked (logout); wired by the admin service's revocation list. */
  isRevoked?: (jti: string) => boolean | Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyRequest {
    admin?: AdminClaims;
  }
}

export type AdminVerifier = (authorization: string | undefined) => Promise<AdminClaims>;

export function createAdminVerifier(options: AdminAuthOptions): AdminVerifier {
  const verify = createVerifier({
    key: options.secret,
    algorithms: ['HS256'],
    requiredClaims: ['exp', 'jti', 'sub'],
    cache: 1000,
  });
  return async (authorization) => {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    if (!match) throw unauthorized('Authentication required: send an admin token as "Authorization: Bearer <token>"');
    let claims: AdminClaims;
    try {
      claims = verify(match[1]) as AdminClaims;
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw unauthorized(code === 'FAST_JWT_EXPIRED' ? 'Your session has expired, please log in again' : 'Invalid admin token');
    }
    if (claims.role !== 'admin') throw unauthorized('Invalid admin token');
    if (options.isRevoked && (await options.isRevoked(claims.jti))) throw unauthorized('This session has been logged out, please log in again');
    return claims;
  };
}

/** An onRequest hook that lets only a valid, unrevoked admin token through (before any body is read). */
export function requireAdmin(verifier: AdminVerifier): onRequestAsyncHookHandler {
  return async function requireAdminHook(request: FastifyRequest, _reply: FastifyReply) {
    request.admin = await verifier(request.headers.authorization);
  };
}

/**
 * Where the events a request causes come from: its correlation id and, behind a verified admin
 * token, the administrator (the audit log says who did what).
 */
export function requestOrigin(request: FastifyRequest): { correlationId: string; actor?: EventActor } {
  const admin = request.admin;
  return admin ? { correlationId: request.correlationId, actor: { id: admin.sub, email: admin.email } } : { correlationId: request.correlationId };
}

/**
 * The revocation check every verifier outside the admin service uses: asks the
 * admin service whether the token's session is still active (DESIGN §7: a
 * logged-out token stops working everywhere at once). Without Redis there is
 * no cache to go stale; with it (cachedSessionCheck) logging out overwrites the
 * shared answer at once. When the admin service cannot be reached
 * the request fails with 503 rather than letting an unchecked token through.
 */
export function sessionRevocationCheck(adminUrl: string, internalToken: string, timeoutMs = 2000): (jti: string) => Promise<boolean> {
  return async (jti) => {
    let res: Response;
    try {
      res = await fetch(`${adminUrl}/internal/sessions/${encodeURIComponent(jti)}`, {
        headers: { [INTERNAL_TOKEN_HEADER]: internalToken },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw serviceUnavailable('Sign-in cannot be checked right now; please try again shortly');
    }
    if (res.status === 200) return false;
    if (res.status === 404) return true;
    throw serviceUnavailable('Sign-in cannot be checked right now; please try again shortly');
  };
}

/**
 * How a service verifies administrators' tokens: the JWT secret, and the session check when the
 * admin service and the internal token are known, through the Redis cache every replica shares
 * when REDIS_URL is set (session-cache.ts).
 */
export function adminTokenOptions(settings: { JWT_SECRET: string; ADMIN_URL?: string; INTERNAL_TOKEN?: string; REDIS_URL?: string }) {
  const { JWT_SECRET: jwtSecret, ADMIN_URL: adminUrl, INTERNAL_TOKEN: internalToken } = settings;
  const check = adminUrl && internalToken ? sessionRevocationCheck(adminUrl, internalToken) : undefined;
  return { jwtSecret, isRevoked: check && cachedSessionCheck(check, settings.REDIS_URL ? redisSessionCache(settings.REDIS_URL) : undefined) };
}
