// How the admin shows money and dates: the rupee sign (spec §9) and India's calendar.
export { formatInr } from '@persona/contracts';

const RUPEES = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });

/** "₹1,23,456.50": large sums grouped as India reads them (the dashboard). */
export function formatRupees(rupees: number): string {
  return RUPEES.format(rupees);
}

const DATE_FORMAT = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Kolkata' });
const DATE_TIME_FORMAT = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Asia/Kolkata',
});

/** "22 Nov 2026"; an unreadable value shows as "—". */
export function formatDate(iso: string | null | undefined): string {
  const date = iso ? new Date(iso) : null;
  return date && !Number.isNaN(date.getTime()) ? DATE_FORMAT.format(date) : '—';
}

/** "22 Nov 2026, 09:15 am" in India time. */
export function formatDateTime(iso: string | null | undefined): string {
  const date = iso ? new Date(iso) : null;
  return date && !Number.isNaN(date.getTime()) ? DATE_TIME_FORMAT.format(date) : '—';
}

/** "pending" → "Pending". */
export function capitalize(word: string): string {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}

/** Rupees typed ("120", "120.5", "1,200.50") as whole paise; null for anything else. */
export function paiseFromTyped(typed: string): number | null {
  const text = typed.replace(/[,\s₹]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}
