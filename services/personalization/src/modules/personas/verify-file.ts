// Says whether an uploaded PDF or EPUB is a genuine, unmodified Persona: its
// SHA-256 must be that of a Persona this shop made (its PDF's or its EPUB's),
// and that Persona's signed record must verify. A changed copy is recognised
// by the persona id it still carries. The file itself was read on an
// untrusted-file thread (copy-checks/inspect-copy.ts); this is the database's part.
import type { FileVerification, PersonaDetails, PersonaSignedRecord } from '@persona/contracts';
import type { Kysely } from 'kysely';
import type { PersonalizationDB } from '../../db';
import type { InspectedCopy } from '../copy-checks/inspect-copy';
import { signedRecordOf, verifyPersonaSignature } from '../signing/persona-signature';
import * as repo from './personas.repository';

/** What a stored Persona was made of, as its order told it. */
export function detailsOf(row: repo.PersonaRow): PersonaDetails {
  return {
    personaId: row.persona_id,
    bookId: row.book_id,
    title: row.title,
    author: row.author,
    buyerName: row.buyer_name,
    purchaseDate: row.purchase_date,
    ...(row.recipient_name ? { recipientName: row.recipient_name } : {}),
    ...(row.message ? { message: row.message } : {}),
  };
}

/**
 * The record a stored Persona's signature covers: since issue 24 (version 2) the printed name and a
 * gift's buyer and message as salted hashes; before, the details themselves (a gift's recipient and
 * message only when it has them).
 */
export function signedRecord(row: repo.PersonaRow): PersonaSignedRecord {
  const details = detailsOf(row);
  if (row.record_version !== 2) return details;
  return signedRecordOf(details, {
    ...(row.buyer_name_salt ? { buyerName: row.buyer_name_salt } : {}),
    ...(row.message_salt ? { message: row.message_salt } : {}),
  });
}

/** Whether a stored Persona's signature holds over its record under one of the shop's keys; false, never an exception. */
export function signatureHolds(row: repo.PersonaRow, publicKeys: Map<string, string>): boolean {
  const key = row.key_id ? publicKeys.get(row.key_id) : undefined;
  if (!key || !row.signature) return false;
  try {
    return verifyPersonaSignature(signedRecord(row), row.signature, key);
  } catch {
    // A version 2 row missing a salt cannot be checked: its record is not what was signed.
    return false;
  }
}

/** A genuine copy whose licence ended says so (issue 23): it is still genuine, but no longer the holder's to download. */
function licenceEnded(row: repo.PersonaRow): string {
  if (row.licence_end === 'replaced' && row.replaced_by) return `; it was replaced by Persona ${row.replaced_by}, with corrected details`;
  if (row.licence_end === 'refunded') return '; its order was refunded in full, so its licence has ended';
  return '';
}

export async function verifyFile(db: Kysely<PersonalizationDB>, publicKeys: Map<string, string>, copy: InspectedCopy): Promise<FileVerification> {
  const match = copy.format === 'epub' ? await repo.findPersonaByEpubSha256(db, copy.sha256) : await repo.findPersonaBySha256(db, copy.sha256);
  if (match) {
    const valid = signatureHolds(match, publicKeys);
    return valid
      ? {
          genuine: true,
          personaId: match.persona_id,
          reason: `A genuine, unmodified Persona${copy.format === 'epub' ? ' EPUB' : ''} of "${match.title}" personalised for ${match.recipient_name ?? match.buyer_name}${licenceEnded(match)}`,
        }
      : { genuine: false, personaId: match.persona_id, reason: 'The record of this Persona does not carry a valid signature' };
  }
  const claimed = copy.claimedPersonaId;
  if (claimed && (await repo.findPersona(db, claimed))) {
    return { genuine: false, personaId: claimed, reason: `This file names Persona ${claimed} but differs from it: it has been changed since it was made` };
  }
  return { genuine: false, personaId: null, reason: 'This file is not a Persona made by Persona Books' };
}
