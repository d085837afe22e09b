import { formatPurchaseDate, parsePurchaseDate } from '../../../src/modules/persona-print/format-date';

describe('purchase dates', () => {
  it('prints the date as "22 November 2026"', () => {
    expect(formatPurchaseDate('2026-11-22')).toBe('22 November 2026');
    expect(formatPurchaseDate('2027-01-05')).toBe('5 January 2027');
  });

  it('is midnight UTC of that day', () => {
    expect(parsePurchaseDate('2026-11-22').toISOString()).toBe('2026-11-22T00:00:00.000Z');
  });

  it('refuses what is not a calendar date', () => {
    for (const bad of ['2026-02-30', '22/11/2026', '2026-11-22T10:00:00Z', '']) expect(() => parsePurchaseDate(bad)).toThrow(RangeError);
  });
});
