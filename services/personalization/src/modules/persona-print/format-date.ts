// Purchase dates as printed in the book and written to the PDF's metadata.
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** 'YYYY-MM-DD' as a UTC midnight Date; throws on anything else, including 2026-02-30. */
export function parsePurchaseDate(purchaseDate: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(purchaseDate);
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    if (date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day) return date;
  }
  throw new RangeError(`purchaseDate must be a calendar date YYYY-MM-DD, got ${JSON.stringify(purchaseDate)}`);
}

/** '2026-11-22' → '22 November 2026' (fixed English, independent of the machine's locale). */
export function formatPurchaseDate(purchaseDate: string): string {
  const date = parsePurchaseDate(purchaseDate);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}
