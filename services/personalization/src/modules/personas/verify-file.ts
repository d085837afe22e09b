// Says whether an uploaded PDF or EPUB is a genuine, unmodified Persona: its
// SHA-256 must be that of a Persona this shop made (its PDF's or its EPUB's),
// and that Persona's signed record must verify. A changed copy is recognised
// by the persona id it still carries.
import { PDFDocument } from 'pdf-lib';
import type { FileVerification, PersonaSignedRecord } from '@persona/contracts';
import type { Kysely } from 'kysely';
import type { PersonalizationDB } from '../../db';
import { unzip } from '../epub/unzip';
import type { CopyFormat } from '../leak-mark/read-mark';
import { sha256Hex, verifyPersonaSignature } from '../signing/persona-signature';
import * as repo from './personas.repository';

const PERSONA_ID_IN_FILE = /PRS-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}/;

/** The record a stored Persona's signature covers (a gift's recipient and message only when it has them). */
export function signedRecord(row: repo.PersonaRow): PersonaSignedRecord {
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

/** The persona id a file claims: in its raw bytes, else in its (possibly compressed) metadata, or an EPUB's package and text. */
async function claimedPersonaId(bytes: Uint8Array, format: CopyFormat): Promise<string | null> {
  const raw = PERSONA_ID_IN_FILE.exec(Buffer.from(bytes).toString('latin1'))?.[0];
  if (raw) return raw;
  if (format === 'epub') {
    try {
      for (const entry of unzip(bytes, { maxBytes: 64 * 1024 * 1024, want: (name) => /\.(opf|x?html?)$/i.test(name) })) {
        const found = PERSONA_ID_IN_FILE.exec(entry.data.toString('utf8'))?.[0];
        if (found) return found;
      }
    } catch {
      // A broken archive claims nothing.
    }
    return null;
  }
  try {
    const doc = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: false });
    return PERSONA_ID_IN_FILE.exec(`${doc.getKeywords() ?? ''} ${doc.getSubject() ?? ''}`)?.[0] ?? null;
  } catch {
    return null;
  }
}

export async function verifyFile(
  db: Kysely<PersonalizationDB>,
  publicKeys: Map<string, string>,
  bytes: Uint8Array,
  format: CopyFormat = 'pdf',
): Promise<FileVerification> {
  const sha256 = sha256Hex(bytes);
  const match = format === 'epub' ? await repo.findPersonaByEpubSha256(db, sha256) : await repo.findPersonaBySha256(db, sha256);
  if (match) {
    const key = match.key_id ? publicKeys.get(match.key_id) : undefined;
    const valid = Boolean(key && match.signature && verifyPersonaSignature(signedRecord(match), match.signature, key));
    return valid
      ? {
          genuine: true,
          personaId: match.persona_id,
          reason: `A genuine, unmodified Persona${format === 'epub' ? ' EPUB' : ''} of "${match.title}" personalised for ${match.recipient_name ?? match.buyer_name}`,
        }
      : { genuine: false, personaId: match.persona_id, reason: 'The record of this Persona does not carry a valid signature' };
  }
  const claimed = await claimedPersonaId(bytes, format);
  if (claimed && (await repo.findPersona(db, claimed))) {
    return { genuine: false, personaId: claimed, reason: `This file names Persona ${claimed} but differs from it: it has been changed since it was made` };
  }
  return { genuine: false, personaId: null, reason: 'This file is not a Persona made by Persona Books' };
}
