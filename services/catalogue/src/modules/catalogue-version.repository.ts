// The catalogue's version: bumped in every write transaction, read by the
// list cache and used in ETags, so every instance notices every change.
import { sql, type Kysely } from 'kysely';
import type { CatalogueDB } from '../db';

export async function bumpCatalogueVersion(trx: Kysely<CatalogueDB>): Promise<number> {
  const row = await trx
    .updateTable('catalogue_meta')
    .set({ version: sql`version + 1` })
    .where('id', '=', 1)
    .returning('version')
    .executeTakeFirstOrThrow();
  return row.version;
}

export async function readCatalogueVersion(db: Kysely<CatalogueDB>): Promise<number> {
  const row = await db.selectFrom('catalogue_meta').select('version').where('id', '=', 1).executeTakeFirstOrThrow();
  return row.version;
}

/** The version and the primary's WAL insert position, in one round trip: every write of that version is at or before it. */
export async function readCatalogueVersionAndLsn(db: Kysely<CatalogueDB>): Promise<{ version: number; lsn: string }> {
  const row = await db
    .selectFrom('catalogue_meta')
    .select(['version', sql<string>`pg_current_wal_insert_lsn()::text`.as('lsn')])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return row;
}
