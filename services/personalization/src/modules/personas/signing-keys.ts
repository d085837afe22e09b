// The shop's signing key (DESIGN §5): from configuration, else the active one
// in the database, else generated on first start and kept there. Older keys
// stay, so Personas signed before a key change still verify.
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '@persona/db';
import type { PersonalizationDB } from '../../db';
import { generateSigningKey, signingKeyFromPem, signingKeyToPem, type SigningKey } from '../signing/persona-signature';
import { activateKey, activeKeyPem, allKeys, insertKey } from './signing-keys.repository';

export async function loadSigningKey(db: Kysely<PersonalizationDB>, configuredPem?: string): Promise<SigningKey> {
  if (configuredPem) {
    const key = signingKeyFromPem(configuredPem);
    await activateKey(db, key.keyId, signingKeyToPem(key));
    return key;
  }
  const active = await activeKeyPem(db);
  if (active) return signingKeyFromPem(active);
  const key = generateSigningKey();
  try {
    await insertKey(db, key.keyId, signingKeyToPem(key));
    return key;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Another instance generated one first; use theirs.
    const theirs = await activeKeyPem(db);
    if (!theirs) throw err;
    return signingKeyFromPem(theirs);
  }
}

/** Public keys by id, for verifying any Persona this shop ever signed. */
export async function publicKeyPems(db: Kysely<PersonalizationDB>): Promise<Map<string, string>> {
  const rows = await allKeys(db);
  return new Map(rows.map((r) => [r.key_id, signingKeyFromPem(r.private_pem).publicKeyPem]));
}
