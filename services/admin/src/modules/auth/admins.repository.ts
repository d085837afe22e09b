// The administrators' accounts: found by e-mail (any case), created, and their failed logins counted.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { AdminDB } from '../../db';

type Db = Kysely<AdminDB> | Transaction<AdminDB>;
export type AdminRow = Selectable<AdminDB['admins']>;

export function findAdminByEmail(db: Db, email: string): Promise<AdminRow | undefined> {
  return db
    .selectFrom('admins')
    .selectAll()
    .where(sql`lower(email)`, '=', email.trim().toLowerCase())
    .executeTakeFirst();
}

export function findAdminProfile(db: Db, id: string): Promise<{ name: string; email: string } | undefined> {
  return db.selectFrom('admins').select(['name', 'email']).where('id', '=', id).executeTakeFirst();
}

export async function countAdmins(db: Db): Promise<number> {
  const { n } = await db
    .selectFrom('admins')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function insertAdmin(db: Db, admin: { name: string; email: string; passwordHash: string }): Promise<void> {
  await db.insertInto('admins').values({ name: admin.name, email: admin.email, password_hash: admin.passwordHash }).execute();
}

export async function recordFailedLogin(db: Db, id: string): Promise<void> {
  await db
    .updateTable('admins')
    .set({ failed_logins: sql`failed_logins + 1`, last_failed_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

export async function clearFailedLogins(db: Db, id: string): Promise<void> {
  await db.updateTable('admins').set({ failed_logins: 0, last_failed_at: null }).where('id', '=', id).execute();
}
