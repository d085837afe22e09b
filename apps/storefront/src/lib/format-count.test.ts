import { formatCount } from './format-count';

describe('formatCount', () => {
  it('groups the last three digits, then pairs, as an Indian reader writes counts', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(7)).toBe('7');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1,000');
    expect(formatCount(14)).toBe('14');
    expect(formatCount(100016)).toBe('1,00,016');
    expect(formatCount(1000000)).toBe('10,00,000');
    expect(formatCount(123456789)).toBe('12,34,56,789');
  });

  it('writes what Intl en-IN writes for every size of whole number', () => {
    const intl = new Intl.NumberFormat('en-IN');
    const values = [1, 12, 123, 1234, 12345, 123456, 1234567, 12345678, 987654321, 1e12 + 7, Number.MAX_SAFE_INTEGER];
    for (let i = 0; i < 500; i += 1) values.push(Math.floor(Math.random() * 10 ** (1 + (i % 15))));
    for (const n of values) {
      expect(formatCount(n)).toBe(intl.format(n));
      if (n !== 0) expect(formatCount(-n)).toBe(intl.format(-n));
    }
  });

  it('rounds a fraction to a whole count and leaves what is not a number readable', () => {
    expect(formatCount(1234.6)).toBe('1,235');
    expect(formatCount(-0.2)).toBe('0');
    expect(formatCount(Number.NaN)).toBe('NaN');
    expect(formatCount(Number.POSITIVE_INFINITY)).toBe('Infinity');
  });
});
