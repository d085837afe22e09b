// Dates as people write them ("7 March 2025"), by hand rather than Intl: the server's render and
// the browser's give the same text, and no locale data is loaded for it (as format-count).

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2025-03-07" (or an ISO timestamp: its date as written, in UTC) → "7 March 2025"; anything else is shown as given. */
export function formatLongDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return value;
  const month = MONTHS[Number(match[2]) - 1];
  const day = Number(match[3]);
  if (!month || day < 1 || day > 31) return value;
  return `${day} ${month} ${match[1]}`;
}
