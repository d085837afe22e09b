// A coupon's rules without a database (issue 23): what a code takes off (the book's price only,
// whole paise rounded down, at least ₹1 left to pay), why it may not apply, in the buyer's words;
// and a discounted order's invoice lines (the discount off the book's line, before tax).
import { computeOrderAmount } from '@persona/contracts';
import type { OrderRow } from '../../../src/modules/order-records/orders.repository';
import { orderSupplyLines } from '../../../src/modules/invoices/order-invoice';
import { computeOrderTax } from '../../../src/modules/invoices/tax';
import {
  couponDiscountPaise,
  couponErrorCode,
  couponRefusal,
  couponRefusalMessage,
  offerInWords,
  type CouponRule,
} from '../../../src/modules/coupons/coupon-pricing';

const BOOK = { pricePaise: 34950, printingCostPaise: 12000 };
const digital = computeOrderAmount(BOOK, 'digital');
const physical = computeOrderAmount(BOOK, 'physical');
const BOOK_ID = '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c';
const NOW = new Date('2026-11-27T10:00:00Z');

const rule = (over: Partial<CouponRule> = {}): CouponRule => ({
  percentOff: 20,
  amountOffPaise: null,
  minOrderPaise: 0,
  validFrom: null,
  validTo: null,
  bookIds: [],
  totalLimit: null,
  perEmailLimit: null,
  used: 0,
  active: true,
  ...over,
});

describe('what a code takes off', () => {
  it("takes a percent of the book's price, rounded down to whole paise, never of printing or delivery", () => {
    expect(couponDiscountPaise(rule(), digital)).toBe(6990);
    expect(couponDiscountPaise(rule(), physical)).toBe(6990);
    // 33% of ₹349.50 is 11533.5 paise: the shop keeps the half paisa.
    expect(couponDiscountPaise(rule({ percentOff: 33 }), digital)).toBe(11533);
  });

  it("takes an amount, at most the book's price, and always leaves ₹1 to pay", () => {
    expect(couponDiscountPaise(rule({ percentOff: null, amountOffPaise: 10_000 }), digital)).toBe(10_000);
    expect(couponDiscountPaise(rule({ percentOff: null, amountOffPaise: 99_999_00 }), physical)).toBe(34950);
    expect(couponDiscountPaise(rule({ percentOff: 100 }), digital)).toBe(34850);
    expect(digital.totalPaise - couponDiscountPaise(rule({ percentOff: 100 }), digital)).toBe(100);
  });

  it('says the offer in words', () => {
    expect(offerInWords(rule())).toBe('20% off');
    expect(offerInWords(rule({ percentOff: null, amountOffPaise: 15_000 }))).toBe('₹150.00 off');
  });
});

describe('why a code may not apply', () => {
  const at = (over: Partial<CouponRule>, checkout: Partial<Parameters<typeof couponRefusal>[1]> = {}) =>
    couponRefusal(rule(over), { bookId: BOOK_ID, amount: digital, now: NOW, ...checkout });

  it('applies when every rule holds', () => {
    expect(at({})).toBeNull();
    expect(at({ bookIds: [BOOK_ID], totalLimit: 5, used: 4, perEmailLimit: 1, minOrderPaise: 34950 }, { emailUses: 0 })).toBeNull();
    expect(at({ validFrom: new Date(NOW.getTime() - 1), validTo: NOW })).toBeNull();
  });

  it('refuses with the reason a buyer would want to hear', () => {
    expect(at({ active: false })).toBe('inactive');
    expect(at({ validFrom: new Date(NOW.getTime() + 1) })).toBe('not-yet-valid');
    expect(at({ validTo: new Date(NOW.getTime() - 1) })).toBe('expired');
    expect(at({ bookIds: ['7a1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5d'] })).toBe('not-for-this-book');
    expect(at({ minOrderPaise: 34951 })).toBe('below-minimum');
    expect(at({ minOrderPaise: 34951 }, { amount: physical })).toBeNull();
    expect(at({ totalLimit: 1, used: 1 })).toBe('used-up');
    expect(at({ perEmailLimit: 1 }, { emailUses: 1 })).toBe('used-by-you');
    // The e-mail's share is judged only when the e-mail is known.
    expect(at({ perEmailLimit: 1 })).toBeNull();
  });

  it('says each reason in plain words, with its error code', () => {
    expect(couponRefusalMessage('unknown')).toBe('There is no such code: check its spelling');
    expect(couponRefusalMessage('expired')).toBe('This code has expired');
    expect(couponRefusalMessage('below-minimum', rule({ minOrderPaise: 50_000 }))).toBe('This code needs an order of at least ₹500.00');
    expect(couponRefusalMessage('not-yet-valid', rule({ validFrom: new Date('2026-12-01T04:30:00Z') }))).toBe(
      'This code can be used from 1 December 2026 at 10:00 am',
    );
    expect(couponRefusalMessage('used-up')).toBe('This code has been used up');
    expect(couponRefusalMessage('used-by-you')).toBe('You have already used this code');
    expect(couponErrorCode('used-by-you')).toBe('COUPON_USED_BY_YOU');
  });
});

describe("a discounted order's invoice lines", () => {
  const order = (over: Partial<OrderRow>) =>
    ({
      book_title: 'Gitanjali',
      book_author: 'Rabindranath Tagore',
      persona_id: 'PRS-7K3M-9QXD-2HFA-J8TW',
      base_paise: 34950,
      printing_paise: 0,
      delivery_paise: 0,
      discount_paise: 6990,
      amount_paise: 27960,
      delivery_type: 'digital',
      ...over,
    }) as OrderRow;

  it("takes the discount off the book's line before tax, so the invoice's total is what was paid", () => {
    const lines = orderSupplyLines(order({}));
    expect(lines).toEqual([expect.objectContaining({ kind: 'ebook', grossPaise: 34950, discountPaise: 6990 })]);
    const tax = computeOrderTax({ lines, sellerStateCode: '29', placeOfSupply: '29' });
    expect(tax.totals.discountPaise).toBe(6990);
    expect(tax.totals.totalPaise).toBe(27960);
    // 5% GST inside ₹279.60: the taxable value and the two halves of the tax add up to it.
    expect(tax.totals.taxablePaise).toBe(26629);
    expect(tax.totals.taxablePaise + tax.totals.cgstPaise + tax.totals.sgstPaise).toBe(27960);
  });

  it('leaves printing and delivery whole on a printed copy', () => {
    const lines = orderSupplyLines(order({ delivery_type: 'physical', printing_paise: 12000, delivery_paise: 5000, amount_paise: 34950 - 6990 + 17000 }));
    expect(lines.map((l) => [l.kind, l.grossPaise, l.discountPaise ?? 0])).toEqual([
      ['printed-book', 34950, 6990],
      ['printing', 12000, 0],
      ['delivery', 5000, 0],
    ]);
    const tax = computeOrderTax({ lines, sellerStateCode: '29', placeOfSupply: '32' });
    expect(tax.totals.totalPaise).toBe(34950 - 6990 + 17000);
  });

  it('has no discount without a code', () => {
    expect(orderSupplyLines(order({ discount_paise: 0, amount_paise: 34950 }))[0]).not.toHaveProperty('discountPaise');
  });
});
