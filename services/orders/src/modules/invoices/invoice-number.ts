// Invoice and credit-note numbers (CGST Rule 46(b)): the Indian financial year a moment falls in
// (1 April to 31 March, on the calendar of India Standard Time), and the number of the n-th
// document of a series in that year, at most 16 characters of letters, digits, "-" and "/".
// The counter itself is a table row (invoices.repository.ts).

export type DocumentKind = 'invoice' | 'credit-note';

/** A series' numbers read `${prefix}/${yy-yy}/${sequence padded to digits}`. */
export interface NumberSeries {
  prefix: string;
  digits: number;
}

export const MAX_DOCUMENT_NUMBER_LENGTH = 16;

/**
 * Invoices `PB/26-27/000123` (15 characters, 999,999 a year); credit notes `PBCN/26-27/00012`
 * (16 characters, 99,999 a year): a series of their own, as Rule 46(b) allows, whose prefix tells
 * them apart at a glance. `PB/CN/26-27/…` would leave four digits, too few to be safe.
 */
export const DEFAULT_SERIES: Readonly<Record<DocumentKind, NumberSeries>> = {
  invoice: { prefix: 'PB', digits: 6 },
  'credit-note': { prefix: 'PBCN', digits: 5 },
};

/** India has one time zone and no daylight saving: IST is UTC+05:30 all year. */
const IST_OFFSET_MS = 330 * 60_000;

/** A moment's date on India's calendar. */
export function istDate(at: Date): { year: number; month: number; day: number } {
  const ist = new Date(at.getTime() + IST_OFFSET_MS);
  return { year: ist.getUTCFullYear(), month: ist.getUTCMonth() + 1, day: ist.getUTCDate() };
}

/** The financial year a moment falls in, as the year it starts (2026: 1 April 2026 to 31 March 2027, IST). */
export function financialYearOf(at: Date): number {
  const { year, month } = istDate(at);
  return month >= 4 ? year : year - 1;
}

/** How a financial year appears in a number: 2026 → "26-27". */
export function financialYearLabel(startYear: number): string {
  const yy = (year: number) => String(year % 100).padStart(2, '0');
  return `${yy(startYear)}-${yy(startYear + 1)}`;
}

/** The first moment of a day of India's calendar (month 1–12; day 0 or 32 roll over as Date.UTC does). */
export function istMidnight(year: number, month: number, day: number): Date {
  return new Date(Date.UTC(year, month - 1, day) - IST_OFFSET_MS);
}

/** A calendar month in IST as [from, to): what a monthly GST return counts. */
export function istMonthRange(year: number, month: number): { from: Date; to: Date } {
  if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12) throw new RangeError(`no month ${year}-${month}`);
  return { from: istMidnight(year, month, 1), to: istMidnight(year, month + 1, 1) };
}

const PREFIX_SHAPE = /^[A-Za-z0-9]+(?:[-/][A-Za-z0-9]+)*$/;

/** Throws unless every number of the series fits in 16 characters of the allowed alphabet. */
export function assertNumberSeries(series: NumberSeries): void {
  if (!PREFIX_SHAPE.test(series.prefix)) {
    throw new RangeError(`invoice number prefix "${series.prefix}": letters and digits, parts joined by "-" or "/"`);
  }
  if (!Number.isInteger(series.digits) || series.digits < 1) throw new RangeError(`an invoice number has at least one digit, not ${series.digits}`);
  const longest = series.prefix.length + '/26-27/'.length + series.digits;
  if (longest > MAX_DOCUMENT_NUMBER_LENGTH) {
    throw new RangeError(
      `invoice numbers "${series.prefix}/yy-yy/" with ${series.digits} digits are ${longest} characters; GST allows ${MAX_DOCUMENT_NUMBER_LENGTH}`,
    );
  }
}

/** The number of the `sequence`-th document of a series in a financial year: PB/26-27/000123. */
export function documentNumber(series: NumberSeries, financialYear: number, sequence: number): string {
  assertNumberSeries(series);
  const last = 10 ** series.digits - 1;
  if (!Number.isInteger(sequence) || sequence < 1 || sequence > last) {
    throw new RangeError(`the ${series.prefix} series holds numbers 1 to ${last} a year; ${sequence} is past it`);
  }
  return `${series.prefix}/${financialYearLabel(financialYear)}/${String(sequence).padStart(series.digits, '0')}`;
}
