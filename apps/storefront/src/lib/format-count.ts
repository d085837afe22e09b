// Counts as an Indian reader writes them ("1,00,016 books": the last three digits, then groups
// of two). Written out rather than `new Intl.NumberFormat('en-IN')`: the first Intl formatter a
// page makes loads the locale's data, 40-60 ms of main thread on a fresh visit for a comma
// rule of four lines; the server's render and the browser's give the same text either way.

/** A count (a whole number; a fraction is rounded) with Indian digit grouping. */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const whole = Math.round(Math.abs(n));
  // Plain digits up to 10^21; a count never comes near.
  const digits = String(whole);
  const sign = n < 0 && whole !== 0 ? '-' : '';
  if (digits.length <= 3) return sign + digits;
  const head = digits.slice(0, -3);
  const groups = head.replace(/\B(?=(\d{2})+$)/g, ',');
  return `${sign}${groups},${digits.slice(-3)}`;
}
