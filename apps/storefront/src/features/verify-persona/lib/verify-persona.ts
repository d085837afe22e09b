// Verification page helpers: the checks made before a Persona file is sent, what is said of a
// Persona whose licence ended, and what the page says stays private.
import { shopDate, type PersonaVerification } from '@persona/contracts';
import { formatLongDate } from '../../../lib/format-date';

/** The server's upload limit (DESIGN §6, spec §9). */
export const MAX_PERSONA_FILE_BYTES = 10 * 1024 * 1024;

/** What the file input offers: a Persona is a PDF, and for a book typeset from its text an EPUB too. */
export const PERSONA_FILE_ACCEPT = 'application/pdf,application/epub+zip,.pdf,.epub';

/** Why a chosen file cannot be checked, or null when it may be sent. */
export function personaFileProblem(file: { name: string; type: string; size: number } | null | undefined): string | null {
  if (!file) return 'Choose a PDF or EPUB file to check';
  // Browsers often give an EPUB no type at all: its name says what it is.
  const looksRight = file.type === 'application/pdf' || file.type === 'application/epub+zip' || /\.(pdf|epub)$/i.test(file.name);
  if (!looksRight) return 'Choose a PDF or EPUB file (.pdf, .epub)';
  if (file.size === 0) return 'This file is empty';
  if (file.size > MAX_PERSONA_FILE_BYTES) return 'The file must be under 10MB';
  return null;
}

/**
 * What the verify page says of a Persona whose licence ended (issue 23), or null while it holds. The
 * Persona stays genuine either way; the day is the shop's (India's), as the refusal to download says it.
 */
export function licenceNotice(licence: PersonaVerification['licence']): { title: string; text: string; replacedBy: string | null } | null {
  if (licence.status === 'active') return null;
  const day = formatLongDate(shopDate(new Date(licence.endedAt)));
  if (licence.status === 'refunded') {
    return {
      title: 'Refunded',
      text: `This Persona’s order was refunded in full on ${day}. It is still a genuine Persona, but its licence has ended: it can no longer be downloaded.`,
      replacedBy: null,
    };
  }
  return {
    title: 'Replaced',
    text: `This Persona was replaced on ${day} by Persona ${licence.replacedBy}, made again with corrected details. It is still genuine, but it can no longer be downloaded.`,
    replacedBy: licence.replacedBy,
  };
}

/**
 * What the verify page says stays private (issue 24). Anyone with the Persona ID, printed on every
 * page, may look it up: only what the book itself shows everyone is answered. A gift's giver and
 * message are signed as salted hashes; the holder of the file checks them with the salts in its colophon.
 */
export function privacyNote(verification: Pick<PersonaVerification, 'gift' | 'record'>): string {
  const shown = 'Only what the book shows everyone is shown here: the name printed in it, the title, the author and the date.';
  if (!verification.gift) return `${shown} Nothing else about the buyer is shared.`;
  if (verification.record === null) return `${shown} This Persona was a gift: who gave it and their message stay private, and are not shown.`;
  return `${shown} This Persona was a gift: who gave it and their message stay private. The signed record holds only a salted fingerprint of each; whoever holds the file can check them with the salts printed on its last page.`;
}
