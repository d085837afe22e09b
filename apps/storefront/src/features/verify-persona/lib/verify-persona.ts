// Verification page helpers: the checks made before a Persona file is sent.

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
