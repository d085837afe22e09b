// All kysely code for a Persona's downloads (issue 24): the counts per format, the allowance's
// start and revocation, and the renewal links. It answers rows; downloads.service decides.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { PersonaFormat } from '@persona/contracts';
import type { DownloadAllowancesTable, PersonaDownloadsTable, PersonalizationDB } from '../../db';

type Db = Kysely<PersonalizationDB> | Transaction<PersonalizationDB>;
export type DownloadCountRow = Selectable<PersonaDownloadsTable>;
export type AllowanceRow = Selectable<DownloadAllowancesTable>;

export const countsOf = (db: Db, personaId: string): Promise<DownloadCountRow[]> =>
  db.selectFrom('persona_downloads').selectAll().where('persona_id', '=', personaId).execute();

export const allowanceOf = (db: Db, personaId: string): Promise<AllowanceRow | undefined> =>
  db.selectFrom('download_allowances').selectAll().where('persona_id', '=', personaId).executeTakeFirst();

/**
 * Counts one download of `format` unless the allowance's `limit` is reached, in one statement: the
 * row is locked by the upsert, so of twenty requests racing for the last download exactly one is
 * counted (and answered); the others find `used` at the limit and get nothing back.
 */
export async function countDownload(db: Db, personaId: string, format: PersonaFormat, limit: number): Promise<{ used: number; total: number } | undefined> {
  const row = await db
    .insertInto('persona_downloads')
    .values({ persona_id: personaId, format, used: 1, total: 1, last_at: sql`now()` })
    .onConflict((oc) =>
      oc
        .columns(['persona_id', 'format'])
        .doUpdateSet({ used: sql`persona_downloads.used + 1`, total: sql`persona_downloads.total + 1`, last_at: sql`now()` })
        .where('persona_downloads.used', '<', limit),
    )
    .returning(['used', 'total'])
    .executeTakeFirst();
  return row;
}

/** A fresh allowance from `now`: each format's count in it back to nought (the totals stay), and not revoked. */
export async function startAllowance(db: Db, personaId: string, now: Date): Promise<void> {
  await db.updateTable('persona_downloads').set({ used: 0 }).where('persona_id', '=', personaId).execute();
  await db
    .insertInto('download_allowances')
    .values({ persona_id: personaId, starts_at: now, revoked_at: null, updated_at: now })
    .onConflict((oc) => oc.column('persona_id').doUpdateSet({ starts_at: now, revoked_at: null, updated_at: now }))
    .execute();
}

/** Stops the Persona's downloads (its allowance's start is kept, for a reset to replace). */
export async function revokeAllowance(db: Db, personaId: string, now: Date): Promise<void> {
  await db
    .insertInto('download_allowances')
    .values({ persona_id: personaId, starts_at: null, revoked_at: now, updated_at: now })
    .onConflict((oc) => oc.column('persona_id').doUpdateSet({ revoked_at: now, updated_at: now }))
    .execute();
}

/** How many renewal links the Persona was sent since `since`. */
export async function renewalsSince(db: Db, personaId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('download_renewals')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('persona_id', '=', personaId)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return row.n;
}

export async function insertRenewal(db: Db, renewal: { id: string; hash: string; personaId: string; createdAt: Date; expiresAt: Date }): Promise<void> {
  await db
    .insertInto('download_renewals')
    .values({ id: renewal.id, token_hash: renewal.hash, persona_id: renewal.personaId, created_at: renewal.createdAt, expires_at: renewal.expiresAt })
    .execute();
}

/**
 * Uses a renewal link once: true when it was this Persona's, unused and unexpired (marked used in
 * the same statement, so two tabs racing open it once).
 */
export async function useRenewal(db: Db, personaId: string, hash: string): Promise<boolean> {
  const row = await db
    .updateTable('download_renewals')
    .set({ used_at: sql`now()` })
    .where('token_hash', '=', hash)
    .where('persona_id', '=', personaId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
