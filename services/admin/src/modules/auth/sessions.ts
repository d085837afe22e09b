// Administrator sessions. A token is a signed JWT whose `jti` names a session
// row; logout revokes the row, and every verifier (this service, the gateway,
// the other services through /internal/sessions/:jti) refuses a token whose
// session is revoked or gone, from that moment on.
import { randomUUID } from 'node:crypto';
import { createSigner } from 'fast-jwt';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { AdminDB } from '../../db';

export const SESSION_TTL_MS = 12 * 3600_000;

export function tokenSigner(secret: string) {
  const sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn: SESSION_TTL_MS });
  return (claims: { sub: string; email: string; jti: string }) => sign({ ...claims, role: 'admin' });
}

export async function openSession(db: Kysely<AdminDB>, adminId: string): Promise<string> {
  const jti = randomUUID();
  await db
    .insertInto('sessions')
    .values({ jti, admin_id: adminId, expires_at: new Date(Date.now() + SESSION_TTL_MS) })
    .execute();
  return jti;
}

export async function revokeSession(db: Kysely<AdminDB>, jti: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: sql`now()` })
    .where('jti', '=', jti)
    .where('revoked_at', 'is', null)
    .execute();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function isSessionActive(db: Kysely<AdminDB>, jti: string): Promise<boolean> {
  if (!UUID.test(jti)) return false;
  const row = await db
    .selectFrom('sessions')
    .select('jti')
    .where('jti', '=', jti)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  return row !== undefined;
}
