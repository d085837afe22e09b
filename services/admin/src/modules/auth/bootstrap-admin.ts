// The first administrator: from ADMIN_EMAIL / ADMIN_PASSWORD, or (embedded
// mode) generated, with the password returned once so it can be printed.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '@persona/db';
import type { AdminDB } from '../../db';
import { countAdmins, findAdminByEmail, insertAdmin } from './admins.repository';
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
  const name = options.name ?? 'Administrator';
  if (options.email && options.password) {
    if (await findAdminByEmail(db, options.email)) return null;
    try {
      await insertAdmin(db, { name, email: options.email, passwordHash: await hashPassword(options.password) });
    } catch (err) {
      // Replicas starting together: another made this administrator between the read and the insert.
      if (!isUniqueViolation(err)) throw err;
    }
    return null;
  }
  if ((await countAdmins(db)) > 0 || !options.generate) return null;
  const email = options.email ?? 'admin@persona-books.local';
  const password = randomBytes(12).toString('base64url');
  await insertAdmin(db, { name, email, passwordHash: await hashPassword(password) });
  return { email, password };
}
