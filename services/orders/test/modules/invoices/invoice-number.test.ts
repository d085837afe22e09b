// Invoice numbers: the Indian financial year of a moment on India's calendar (31 March 23:00 UTC is
// already 1 April in IST), the number's shape, and series whose numbers could pass 16 characters
// refused before any is issued.
import {
  assertNumberSeries,
  DEFAULT_SERIES,
  documentNumber,
  financialYearLabel,
  financialYearOf,
  istDate,
  istMonthRange,
} from '../../../src/modules/invoices/invoice-number';

describe('the financial year', () => {
  it('starts on 1 April in India, five and a half hours before 1 April in UTC', () => {
    expect(financialYearOf(new Date('2027-03-31T18:29:59.999Z'))).toBe(2026); // 31 March, 23:59:59.999 IST
    expect(financialYearOf(new Date('2027-03-31T18:30:00.000Z'))).toBe(2027); // 1 April, 00:00 IST
    expect(financialYearOf(new Date('2027-03-31T23:00:00.000Z'))).toBe(2027); // still 31 March in UTC
    expect(financialYearOf(new Date('2027-01-01T00:00:00.000Z'))).toBe(2026);
    expect(financialYearOf(new Date('2026-04-01T00:00:00.000Z'))).toBe(2026);
    expect(financialYearOf(new Date('2026-03-31T18:29:59.999Z'))).toBe(2025);
  });

  it('reads as two two-digit years, across a century too', () => {
    expect(financialYearLabel(2026)).toBe('26-27');
    expect(financialYearLabel(2099)).toBe('99-00');
    expect(financialYearLabel(2000)).toBe('00-01');
  });

  it('dates a moment and bounds a month on India’s calendar', () => {
    expect(istDate(new Date('2027-01-31T19:00:00Z'))).toEqual({ year: 2027, month: 2, day: 1 });
    expect(istMonthRange(2027, 2)).toEqual({ from: new Date('2027-01-31T18:30:00Z'), to: new Date('2027-02-28T18:30:00Z') });
    expect(istMonthRange(2026, 12)).toEqual({ from: new Date('2026-11-30T18:30:00Z'), to: new Date('2026-12-31T18:30:00Z') });
    expect(() => istMonthRange(2027, 13)).toThrow(RangeError);
  });
});

describe('document numbers', () => {
  it('reads PB/26-27/000123 for an invoice and PBCN/26-27/00012 for a credit note, 16 characters at most', () => {
    expect(documentNumber(DEFAULT_SERIES.invoice, 2026, 123)).toBe('PB/26-27/000123');
    expect(documentNumber(DEFAULT_SERIES['credit-note'], 2026, 12)).toBe('PBCN/26-27/00012');
    expect(documentNumber(DEFAULT_SERIES.invoice, 2026, 999_999)).toHaveLength(15);
    expect(documentNumber(DEFAULT_SERIES['credit-note'], 2026, 99_999)).toHaveLength(16);
  });

  it('refuses a prefix that would make a number longer than 16 characters, or that GST does not allow', () => {
    expect(() => assertNumberSeries({ prefix: 'PB/CN', digits: 5 })).toThrow(/17 characters; GST allows 16/);
    expect(() => assertNumberSeries({ prefix: 'PERSONA', digits: 2 })).not.toThrow();
    expect(() => assertNumberSeries({ prefix: 'PERSONA', digits: 3 })).toThrow(/17 characters/);
    expect(() => assertNumberSeries({ prefix: 'PERSONAB', digits: 2 })).toThrow(/17 characters/);
    expect(() => assertNumberSeries({ prefix: 'PB CN', digits: 4 })).toThrow(/letters and digits/);
    expect(() => assertNumberSeries({ prefix: 'PB_', digits: 4 })).toThrow(/letters and digits/);
    expect(() => assertNumberSeries({ prefix: '', digits: 4 })).toThrow(/letters and digits/);
    expect(() => assertNumberSeries({ prefix: 'PB', digits: 0 })).toThrow(/at least one digit/);
  });

  it('refuses a number the series has no room for rather than print a longer one', () => {
    expect(() => documentNumber({ prefix: 'PB', digits: 2 }, 2026, 100)).toThrow(/holds numbers 1 to 99 a year/);
    expect(() => documentNumber(DEFAULT_SERIES.invoice, 2026, 0)).toThrow(RangeError);
  });
});
