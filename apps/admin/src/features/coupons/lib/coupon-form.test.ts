import type { Coupon } from '@persona/contracts';
import {
  couponBodyFrom,
  EMPTY_COUPON_FORM,
  indiaTimeFromInstant,
  instantFromIndiaTime,
  offerText,
  valuesFromCoupon,
  type CouponFormValues,
} from './coupon-form';

const filled: CouponFormValues = { ...EMPTY_COUPON_FORM, code: ' diwali-20 ', percentOff: '20', minOrder: '299.50', totalLimit: '100' };

describe('the coupon form', () => {
  it('sends integer paise, ISO instants, capitals and nulls for no limit', () => {
    expect(couponBodyFrom({ ...filled, validFrom: '2026-12-01T10:00', validTo: '2026-12-31T23:59' })).toEqual({
      body: {
        code: 'DIWALI-20',
        percentOff: 20,
        amountOffPaise: null,
        minOrderPaise: 29950,
        validFrom: '2026-12-01T04:30:00.000Z',
        validTo: '2026-12-31T18:29:00.000Z',
        bookIds: [],
        totalLimit: 100,
        perEmailLimit: 1,
        active: true,
      },
    });
    const amount = couponBodyFrom({ ...filled, kind: 'amount', amountOff: '1,000.5', percentOff: '20', minOrder: '', perEmailLimit: '' });
    expect(amount).toEqual({ body: expect.objectContaining({ percentOff: null, amountOffPaise: 100050, minOrderPaise: 0, perEmailLimit: null }) });
  });

  it('says what is wrong before sending', () => {
    for (const over of [
      { code: 'has space' },
      { code: '-dash' },
      { code: '' },
      { percentOff: '0' },
      { percentOff: '101' },
      { percentOff: '12.5' },
      { kind: 'amount' as const, amountOff: '12.345' },
      { kind: 'amount' as const, amountOff: '' },
      { minOrder: 'lots' },
      { totalLimit: '0' },
      { perEmailLimit: '1.5' },
      { validFrom: '2026-12-02T10:00', validTo: '2026-12-01T10:00' },
    ]) {
      expect([over, 'problem' in couponBodyFrom({ ...filled, ...over })]).toEqual([over, true]);
    }
  });

  it("reads a code back into the form in India's time, and says its offer", () => {
    const coupon: Coupon = {
      _id: '0b5c1a52-6d8e-4f57-9a43-2f0f5a0c7a11',
      code: 'FLAT-100',
      percentOff: null,
      amountOffPaise: 10000,
      minOrderPaise: 0,
      validFrom: '2026-12-01T04:30:00.000Z',
      validTo: null,
      bookIds: [],
      totalLimit: null,
      perEmailLimit: 2,
      active: false,
      used: 3,
      createdAt: '2026-11-27T10:00:00.000Z',
      updatedAt: '2026-11-27T10:00:00.000Z',
    };
    const values = valuesFromCoupon(coupon);
    expect(values).toMatchObject({
      kind: 'amount',
      amountOff: '100.00',
      minOrder: '',
      validFrom: '2026-12-01T10:00',
      validTo: '',
      totalLimit: '',
      perEmailLimit: '2',
      active: false,
    });
    expect(couponBodyFrom(values)).toEqual({
      body: expect.objectContaining({ amountOffPaise: 10000, validFrom: coupon.validFrom, perEmailLimit: 2, active: false }),
    });
    expect(instantFromIndiaTime('not a time')).toBeNull();
    expect(indiaTimeFromInstant(null)).toBe('');
    expect(offerText(coupon)).toBe('₹100.00 off');
    expect(offerText({ percentOff: 15, amountOffPaise: null })).toBe('15% off');
  });
});
