// A coupon's rules (issue 23), apart from the database: whether a code applies to a checkout, and
// what it takes off. A code takes its percent or its amount off the book's price only (never the
// printing or the delivery), in whole paise rounded down, and never so much that less than ₹1 is
// left to pay: Razorpay takes no smaller payment, and a free order has no payment to start.
import { formatInr, type CouponRefusalReason, type OrderAmount } from '@persona/contracts';

/** Razorpay's smallest payment, in paise. */
export const MIN_CHARGE_PAISE = 100;

/** What the rules read of a code. */
export interface CouponRule {
  percentOff: number | null;
  amountOffPaise: number | null;
  minOrderPaise: number;
  validFrom: Date | null;
  validTo: Date | null;
  /** Empty: every book. */
  bookIds: readonly string[];
  totalLimit: number | null;
  perEmailLimit: number | null;
  /** Redemptions held now (reserved or final). */
  used: number;
  active: boolean;
}

/** One checkout as a code is judged for it: the book, its amounts before the code, when, and how many of the code's redemptions the buyer's e-mail holds (unknown: not judged). */
export interface CouponCheckout {
  bookId: string;
  amount: OrderAmount;
  now: Date;
  emailUses?: number;
}

/** What the code takes off, in paise: off the book's price, leaving at least ₹1 to pay. */
export function couponDiscountPaise(rule: Pick<CouponRule, 'percentOff' | 'amountOffPaise'>, amount: OrderAmount): number {
  const off = rule.percentOff !== null ? Math.floor((amount.basePaise * rule.percentOff) / 100) : (rule.amountOffPaise ?? 0);
  return Math.max(0, Math.min(off, amount.basePaise, amount.totalPaise - MIN_CHARGE_PAISE));
}

/** Why the code does not apply to the checkout, or null when it does. Checked in the order a buyer would want to hear it. */
export function couponRefusal(rule: CouponRule, checkout: CouponCheckout): CouponRefusalReason | null {
  if (!rule.active) return 'inactive';
  if (rule.validFrom && checkout.now < rule.validFrom) return 'not-yet-valid';
  if (rule.validTo && checkout.now > rule.validTo) return 'expired';
  if (rule.bookIds.length > 0 && !rule.bookIds.includes(checkout.bookId)) return 'not-for-this-book';
  if (checkout.amount.totalPaise < rule.minOrderPaise) return 'below-minimum';
  if (rule.totalLimit !== null && rule.used >= rule.totalLimit) return 'used-up';
  if (rule.perEmailLimit !== null && checkout.emailUses !== undefined && checkout.emailUses >= rule.perEmailLimit) return 'used-by-you';
  return null;
}

const inr = (paise: number) => formatInr(paise / 100);

/** "20% off", "₹100.00 off". */
export function offerInWords(rule: Pick<CouponRule, 'percentOff' | 'amountOffPaise'>): string {
  return rule.percentOff !== null ? `${rule.percentOff}% off` : `${inr(rule.amountOffPaise ?? 0)} off`;
}

/** A moment as the shop's buyers read it (India's clock). */
function shopMoment(at: Date): string {
  return at.toLocaleString('en-IN', { timeZone: 'Asia/Kolkata', day: 'numeric', month: 'long', year: 'numeric', hour: 'numeric', minute: '2-digit' });
}

/** The buyer's sentence for a refusal (`rule` absent for an unknown code). */
export function couponRefusalMessage(reason: CouponRefusalReason, rule?: CouponRule): string {
  switch (reason) {
    case 'unknown':
      return 'There is no such code: check its spelling';
    case 'inactive':
      return 'This code is no longer in use';
    case 'not-yet-valid':
      return rule?.validFrom ? `This code can be used from ${shopMoment(rule.validFrom)}` : 'This code cannot be used yet';
    case 'expired':
      return 'This code has expired';
    case 'below-minimum':
      return `This code needs an order of at least ${inr(rule?.minOrderPaise ?? 0)}`;
    case 'not-for-this-book':
      return 'This code is not for this book';
    case 'used-up':
      return 'This code has been used up';
    case 'used-by-you':
      return 'You have already used this code';
  }
}

/** The error code a refused checkout answers with: COUPON_USED_UP, COUPON_EXPIRED… */
export function couponErrorCode(reason: CouponRefusalReason): string {
  return `COUPON_${reason.toUpperCase().replace(/-/g, '_')}`;
}
