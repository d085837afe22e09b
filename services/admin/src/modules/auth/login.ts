// Logging in (spec §8 "Login failed" / "Invalid credentials"). Unknown e-mails
// cost the same scrypt work as known ones; after repeated failures an account
// must wait before trying again (slow-down), on top of the per-client limit.
import { createEvent, type UnitOfWork } from '@persona/bus';
import type { LoginBody, LoginData } from '@persona/contracts';
import { HttpError, unauthorized } from '@persona/service-kit';
import type { Kysely } from 'kysely';
import type { AdminDB } from '../../db';
import { DUMMY_HASH_PROMISE, verifyPassword } from './passwords';
import { clearFailedLogins, findAdminByEmail, recordFailedLogin } from './admins.repository';
import { openSession } from './sessions.repository';

export const FREE_FAILURES = 5;
export const INVALID_CREDENTIALS = 'Invalid credentials';

/** Seconds an account must wait after `failures` failed logins (0 for the first few). */
export function waitAfterFailures(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(15 * 60, 2 ** (failures - FREE_FAILURES) * 30);
}

export async function login(
  ctx: { db: Kysely<AdminDB>; uow: UnitOfWork<AdminDB>; sign: (claims: { sub: string; email: string; jti: string }) => string; correlationId: string },
  body: LoginBody,
): Promise<LoginData> {
  const admin = await findAdminByEmail(ctx.db, body.email);
  if (!admin) {
    await verifyPassword(body.password, await DUMMY_HASH_PROMISE);
    throw unauthorized(INVALID_CREDENTIALS);
  }
  const wait = waitAfterFailures(admin.failed_logins);
  if (wait > 0 && admin.last_failed_at && Date.now() - admin.last_failed_at.getTime() < wait * 1000) {
    const seconds = Math.ceil(wait - (Date.now() - admin.last_failed_at.getTime()) / 1000);
    throw new HttpError(429, `Too many failed logins; please try again in ${seconds} seconds`, 'LOGIN_SLOWED_DOWN');
  }
  if (!(await verifyPassword(body.password, admin.password_hash))) {
    await recordFailedLogin(ctx.db, admin.id);
    throw unauthorized(INVALID_CREDENTIALS);
  }
  const jti = await ctx.uow.run(async ({ trx, emit }) => {
    await clearFailedLogins(trx, admin.id);
    const id = await openSession(trx, admin.id);
    await emit(createEvent('admin.logged_in', { adminId: admin.id, email: admin.email }, { correlationId: ctx.correlationId }));
    return id;
  });
  return { token: ctx.sign({ sub: admin.id, email: admin.email, jti }), admin: { name: admin.name, email: admin.email } };
}
