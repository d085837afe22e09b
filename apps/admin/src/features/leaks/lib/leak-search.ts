// What the leak page checks before sending a copy (the server checks again), and what a search
// ends in: a refused file, the finding, or the server's reason.
import { MAX_LEAK_UPLOAD_BYTES, type LeakFinding } from '@persona/contracts';
import { errorMessage } from '@persona/web-kit/api-client';
import { findLeakedCopy } from '../api/leaks';

/** The file input's accept list: a Persona comes as a PDF or an EPUB. */
export const LEAK_FILE_ACCEPT = '.pdf,.epub,application/pdf,application/epub+zip';

const TYPES = ['application/pdf', 'application/epub+zip'];
const EXTENSION = /\.(pdf|epub)$/i;
const MB = 1024 * 1024;

/** "40 MB", "52.3 MB". */
export function formatMegabytes(bytes: number): string {
  const mb = bytes / MB;
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

export const MAX_LEAK_UPLOAD_LABEL = formatMegabytes(MAX_LEAK_UPLOAD_BYTES);

/**
 * Why a picked file cannot be searched, or null. A browser may give an EPUB no type (or a
 * generic one), so its name's extension counts as much as its type.
 */
export function checkLeakFile(file: Pick<File, 'name' | 'size' | 'type'>): string | null {
  if (!TYPES.includes(file.type) && !EXTENSION.test(file.name)) {
    return `“${file.name}” is not a PDF or an EPUB. Choose the .pdf or .epub file of the copy.`;
  }
  if (file.size === 0) return `“${file.name}” is empty. Choose the .pdf or .epub file of the copy.`;
  if (file.size > MAX_LEAK_UPLOAD_BYTES) {
    return `“${file.name}” is ${formatMegabytes(file.size)}; a copy can be at most ${MAX_LEAK_UPLOAD_LABEL}.`;
  }
  return null;
}

export type LeakOutcome = { kind: 'refused'; message: string } | { kind: 'found'; finding: LeakFinding } | { kind: 'failed'; message: string };

export const NO_FILE_CHOSEN = 'Choose the PDF or EPUB file of the copy first.';

/** Checks the file, then asks the server; never throws (a 401 has already sent the person to the login page). */
export async function searchLeak(file: File | null, signal?: AbortSignal): Promise<LeakOutcome> {
  if (!file) return { kind: 'refused', message: NO_FILE_CHOSEN };
  const problem = checkLeakFile(file);
  if (problem) return { kind: 'refused', message: problem };
  try {
    return { kind: 'found', finding: await findLeakedCopy(file, signal) };
  } catch (error) {
    return { kind: 'failed', message: errorMessage(error) };
  }
}
