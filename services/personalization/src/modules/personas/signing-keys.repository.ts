// The signing keys the shop has used: one active, the older ones kept for verifying.
import type { Kysely } from 'kysely';
import type { PersonalizationDB } from '../../db';

type Db = Kysely<PersonalizationDB>;

/** Makes the given key the active one (added if new). */
export async function activateKey(db: Db, keyId: string, privatePem: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('signing_keys').set({ active: false }).where('key_id', '<>', keyId).execute();
    await trx
      .insertInto('signing_keys')
      .values({ key_id: keyId, private_pem: privatePem })
      .onConflict((oc) => oc.column('key_id').doUpdateSet({ active: true }))
      .execute();
  });
}

export async function activeKeyPem(db: Db): Promise<string | undefined> {
  return (await db.selectFrom('signing_keys').select('private_pem').where('active', '=', true).executeTakeFirst())?.private_pem;
}

/** Adds a first key; a unique violation when another instance added one at the same moment. */
export async function insertKey(db: Db, keyId: string, privatePem: string): Promise<void> {
  await db.insertInto('signing_keys').values({ key_id: keyId, private_pem: privatePem }).execute();
}

export function allKeys(db: Db): Promise<Array<{ key_id: string; private_pem: string }>> {
  return db.selectFrom('signing_keys').select(['key_id', 'private_pem']).execute();
}
