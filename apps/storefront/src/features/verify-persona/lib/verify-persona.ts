// Verification page helpers: the printed purchase date, and the checks made before a PDF is sent.

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2025-03-07" (or an ISO timestamp) → "7 March 2025"; anything else is shown as given. */
export function formatPurchaseDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return value;
  const month = MONTHS[Number(match[2]) - 1];
  const day = Number(match[3]);
  if (!month || day < 1 || day > 31) return value;
  return `${day} ${month} ${match[1]}`;
}

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
