import { formatInr, formatRs, isWholePaise, paiseToRupees, rupeesToPaise } from '../src';

describe('money conversions', () => {
  it('turns rupees into whole paise without float drift', () => {
    expect(rupeesToPaise(349.5)).toBe(34950);
    expect(rupeesToPaise(1.005)).toBe(101);
    expect(rupeesToPaise(0.1 + 0.2)).toBe(30);
    expect(rupeesToPaise(0)).toBe(0);
  });

  it('turns paise back into rupees', () => {
    expect(paiseToRupees(34950)).toBe(349.5);
    expect(paiseToRupees(5)).toBe(0.05);
    expect(() => paiseToRupees(1.5)).toThrow(RangeError);
  });

  it('refuses non-finite amounts', () => {
    expect(() => rupeesToPaise(Number.NaN)).toThrow(RangeError);
    expect(() => rupeesToPaise(Infinity)).toThrow(RangeError);
  });

  it('formats rupees for public pages and for checkout', () => {
    expect(formatRs(349.5)).toBe('Rs 349.50');
    expect(formatInr(50)).toBe('₹50.00');
  });

  it('knows whole-paise amounts', () => {
    expect(isWholePaise(10.25)).toBe(true);
    expect(isWholePaise(10.255)).toBe(false);
  });
});
