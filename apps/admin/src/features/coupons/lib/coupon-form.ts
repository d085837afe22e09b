// The coupon form's values as typed (rupees, India's clock, empty for "no limit") and the body the
// server takes (integer paise, ISO instants, nulls). The server checks everything again; this
// says what is wrong before a round trip.
import { COUPON_CODE_PATTERN, normalizeCouponCode, type Coupon, type UpdateCouponBody } from '@persona/contracts';
import { paiseFromTyped } from '../../../lib/format';

export interface CouponFormValues {
  code: string;
  kind: 'percent' | 'amount';
  percentOff: string;
  /** Rupees. */
  amountOff: string;
  /** Rupees; empty: no minimum. */
  minOrder: string;
  /** datetime-local values in India's time; empty: no bound. */
  validFrom: string;
  validTo: string;
  /** Empty: every book. */
  bookIds: string[];
  /** Empty: no limit. */
  totalLimit: string;
  perEmailLimit: string;
  active: boolean;
}

export const EMPTY_COUPON_FORM: CouponFormValues = {
  code: '',
  kind: 'percent',
  percentOff: '',
  amountOff: '',
  minOrder: '',
  validFrom: '',
  validTo: '',
  bookIds: [],
  totalLimit: '',
  perEmailLimit: '1',
  active: true,
};

const IST_OFFSET_MS = 330 * 60_000;

/** "2026-12-01T10:00" (India's time) → an ISO instant. */
export function instantFromIndiaTime(local: string): string | null {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d$/.test(local)) return null;
  const at = new Date(`${local}:00+05:30`);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** An ISO instant → "2026-12-01T10:00" in India's time (a datetime-local input's value). */
export function indiaTimeFromInstant(iso: string | null): string {
  return iso ? new Date(new Date(iso).getTime() + IST_OFFSET_MS).toISOString().slice(0, 16) : '';
}

export function valuesFromCoupon(coupon: Coupon): CouponFormValues {
  return {
    code: coupon.code,
    kind: coupon.percentOff !== null ? 'percent' : 'amount',
    percentOff: coupon.percentOff !== null ? String(coupon.percentOff) : '',
    amountOff: coupon.amountOffPaise !== null ? (coupon.amountOffPaise / 100).toFixed(2) : '',
    minOrder: coupon.minOrderPaise > 0 ? (coupon.minOrderPaise / 100).toFixed(2) : '',
    validFrom: indiaTimeFromInstant(coupon.validFrom),
    validTo: indiaTimeFromInstant(coupon.validTo),
    bookIds: [...coupon.bookIds],
    totalLimit: coupon.totalLimit !== null ? String(coupon.totalLimit) : '',
    perEmailLimit: coupon.perEmailLimit !== null ? String(coupon.perEmailLimit) : '',
    active: coupon.active,
  };
}

function limitFrom(typed: string): number | null | undefined {
  const text = typed.trim();
  if (!text) return null;
  return /^\d{1,7}$/.test(text) && Number(text) >= 1 ? Number(text) : undefined;
}

/** The body for the server, or what is wrong in words. */
export function couponBodyFrom(values: CouponFormValues): { body: UpdateCouponBody } | { problem: string } {
  const code = normalizeCouponCode(values.code);
  if (!new RegExp(COUPON_CODE_PATTERN).test(code) || code.length > 32) {
    return { problem: 'A code is 1 to 32 letters, digits or dashes (not at either end), for example DIWALI-20.' };
  }
  let percentOff: number | null = null;
  let amountOffPaise: number | null = null;
  if (values.kind === 'percent') {
    const text = values.percentOff.trim();
    percentOff = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
    if (!(percentOff >= 1 && percentOff <= 100)) return { problem: 'The percent off is a whole number from 1 to 100.' };
  } else {
    amountOffPaise = paiseFromTyped(values.amountOff);
    if (amountOffPaise === null || amountOffPaise < 1) return { problem: 'Type the amount off in rupees, for example 100 or 99.50.' };
  }
  const minOrderPaise = values.minOrder.trim() ? paiseFromTyped(values.minOrder) : 0;
  if (minOrderPaise === null) return { problem: 'Type the minimum order in rupees, or leave it empty for none.' };
  const validFrom = values.validFrom ? instantFromIndiaTime(values.validFrom) : null;
  const validTo = values.validTo ? instantFromIndiaTime(values.validTo) : null;
  if ((values.validFrom && !validFrom) || (values.validTo && !validTo)) return { problem: 'Pick the dates and times from the calendar.' };
  if (validFrom && validTo && validTo <= validFrom) return { problem: 'A code must end after it starts.' };
  const totalLimit = limitFrom(values.totalLimit);
  const perEmailLimit = limitFrom(values.perEmailLimit);
  if (totalLimit === undefined || perEmailLimit === undefined) return { problem: 'A limit is a whole number of at least 1, or empty for none.' };
  return {
    body: { code, percentOff, amountOffPaise, minOrderPaise, validFrom, validTo, bookIds: values.bookIds, totalLimit, perEmailLimit, active: values.active },
  };
}

/** "20% off", "₹100.00 off". */
export function offerText(coupon: Pick<Coupon, 'percentOff' | 'amountOffPaise'>): string {
  return coupon.percentOff !== null ? `${coupon.percentOff}% off` : `₹${((coupon.amountOffPaise ?? 0) / 100).toFixed(2)} off`;
}
