// Money is integer paise inside; the wire carries rupees (349.5). These are
// the only two conversions, so rounding happens in exactly one place.
export const PAISE_PER_RUPEE = 100;

export function rupeesToPaise(rupees: number): number {
  if (!Number.isFinite(rupees)) throw new RangeError('amount must be a finite number');
  // Number.EPSILON nudges values such as 1.005 that binary floats store as 1.00499…
  return Math.round((rupees + Math.sign(rupees) * Number.EPSILON) * PAISE_PER_RUPEE);
}

export function paiseToRupees(paise: number): number {
  if (!Number.isSafeInteger(paise)) throw new RangeError('paise must be a safe integer');
  return paise / PAISE_PER_RUPEE;
}

/** "Rs 349.50": the public pages' format (spec §2). */
export function formatRs(rupees: number): string {
  return `Rs ${rupees.toFixed(2)}`;
}

/** "₹349.50": admin and checkout (spec §9). */
export function formatInr(rupees: number): string {
  return `₹${rupees.toFixed(2)}`;
}

/** True when a rupee amount has at most two decimals (whole paise). */
export function isWholePaise(rupees: number): boolean {
  return Number.isFinite(rupees) && Math.abs(rupeesToPaise(rupees) - rupees * PAISE_PER_RUPEE) < 1e-6;
}
