// The session rows behind administrators' tokens: opened at login, revoked at logout, and asked
// whether still active by every verifier.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { AdminDB } from '../../db';
import { SESSION_TTL_MS } from './sessions';

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
