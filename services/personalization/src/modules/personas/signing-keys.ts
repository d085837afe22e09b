// The shop's signing key (DESIGN §5): from configuration, else the active one
// in the database, else generated on first start and kept there. Older keys
// stay, so Personas signed before a key change still verify.
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '@persona/db';
import type { PersonalizationDB } from '../../db';
import { generateSigningKey, signingKeyFromPem, signingKeyToPem, type SigningKey } from '../signing/persona-signature';

export async function loadSigningKey(db: Kysely<PersonalizationDB>, configuredPem?: string): Promise<SigningKey> {
  if (configuredPem) {
    const key = signingKeyFromPem(configuredPem);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('signing_keys').set({ active: false }).where('key_id', '<>', key.keyId).execute();
      await trx
        .insertInto('signing_keys')
        .values({ key_id: key.keyId, private_pem: signingKeyToPem(key) })
        .onConflict((oc) => oc.column('key_id').doUpdateSet({ active: true }))
        .execute();
    });
    return key;
  }
  const active = await db.selectFrom('signing_keys').select('private_pem').where('active', '=', true).executeTakeFirst();
  if (active) return signingKeyFromPem(active.private_pem);
  const key = generateSigningKey();
  try {
    await db
      .insertInto('signing_keys')
      .values({ key_id: key.keyId, private_pem: signingKeyToPem(key) })
      .execute();
    return key;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Another instance generated one first; use theirs.
    const theirs = await db.selectFrom('signing_keys').select('private_pem').where('active', '=', true).executeTakeFirstOrThrow();
    return signingKeyFromPem(theirs.private_pem);
  }
}

/** Public keys by id, for verifying any Persona this shop ever signed. */
export async function publicKeyPems(db: Kysely<PersonalizationDB>): Promise<Map<string, string>> {
  const rows = await db.selectFrom('signing_keys').select(['key_id', 'private_pem']).execute();
  return new Map(rows.map((r) => [r.key_id, signingKeyFromPem(r.private_pem).publicKeyPem]));
}
