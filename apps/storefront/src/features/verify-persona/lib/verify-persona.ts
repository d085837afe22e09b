// Verification page helpers: the checks made before a PDF is sent.

/** The server's upload limit (DESIGN §6, spec §9). */
export const MAX_PDF_BYTES = 10 * 1024 * 1024;

/** Why a chosen file cannot be checked, or null when it may be sent. */
export function pdfFileProblem(file: { name: string; type: string; size: number } | null | undefined): string | null {
  if (!file) return 'Choose a PDF file to check';
  const looksLikePdf = file.type === 'application/pdf' || (!file.type && /\.pdf$/i.test(file.name));
  if (!looksLikePdf) return 'Choose a PDF file (.pdf)';
  if (file.size === 0) return 'This file is empty';
  if (file.size > MAX_PDF_BYTES) return 'The PDF must be under 10MB';
  return null;
}
