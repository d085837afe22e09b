// Mints admin JWTs for tests, shaped like the ones the admin service issues.
import { randomUUID } from 'node:crypto';
import { createSigner } from 'fast-jwt';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-000';

export interface MintOptions {
  secret?: string;
  subject?: string;
  email?: string;
  expiresInMs?: number;
  /** Seconds since epoch; lets a test mint an already-expired token. */
  expiresAt?: number;
  jti?: string;
}

export function mintAdminToken(options: MintOptions = {}): string {
  const sign = createSigner({
    key: options.secret ?? TEST_JWT_SECRET,
    algorithm: 'HS256',
    ...(options.expiresAt === undefined ? { expiresIn: options.expiresInMs ?? 3600_000 } : {}),
  });
  const claims: Record<string, unknown> = {
    sub: options.subject ?? randomUUID(),
    email: options.email ?? 'admin@example.com',
    role: 'admin',
    jti: options.jti ?? randomUUID(),
  };
  if (options.expiresAt !== undefined) claims.exp = options.expiresAt;
  return sign(claims);
}

/** A token with `alg: none`, which no verifier may accept. */
export function unsignedToken(): string {
  const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ sub: randomUUID(), role: 'admin', exp: Math.floor(Date.now() / 1000) + 3600 })}.`;
}
