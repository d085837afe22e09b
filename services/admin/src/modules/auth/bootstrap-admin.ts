// The first administrator: from ADMIN_EMAIL / ADMIN_PASSWORD, or (embedded
// mode) generated, with the password returned once so it can be printed.
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { AdminDB } from '../../db';
import { hashPassword } from './passwords';

export interface BootstrapOptions {
  email?: string;
  password?: string;
  name?: string;
  /** Make an administrator with a generated password when none exists and none is configured. */
  generate: boolean;
}

/** Answers the credentials when it created an administrator with a generated password. */
export async function bootstrapAdmin(db: Kysely<AdminDB>, options: BootstrapOptions): Promise<{ email: string; password: string } | null> {
  const existing = await db
    .selectFrom('admins')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (options.email && options.password) {
    const found = await db
      .selectFrom('admins')
      .select('id')
      .where(sql`lower(email)`, '=', options.email.toLowerCase())
      .executeTakeFirst();
    if (!found)
      await db
        .insertInto('admins')
        .values({ name: options.name ?? 'Administrator', email: options.email, password_hash: await hashPassword(options.password) })
        .execute();
    return null;
  }
  if (existing.n > 0 || !options.generate) return null;
  const email = options.email ?? 'admin@persona-books.local';
  const password = randomBytes(12).toString('base64url');
  await db
    .insertInto('admins')
    .values({ name: options.name ?? 'Administrator', email, password_hash: await hashPassword(password) })
    .execute();
  return { email, password };
}
