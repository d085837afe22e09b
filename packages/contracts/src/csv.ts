// CSV for downloads an administrator opens in a spreadsheet: RFC 4180 records
// (CRLF line ends, quoting only where needed), with spreadsheet formula
// injection defused (OWASP "CSV Injection").
import { FileAnswer } from './common';

export type CsvCell = string | number | null | undefined;

/** First characters that make Excel, LibreOffice or Sheets read a cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;
/** A negative amount written as text ("-12.50", two decimals kept): a number to a spreadsheet, no formula. */
const PLAIN_DECIMAL = /^-?[0-9]+(?:\.[0-9]+)?$/;

/**
 * One field as CSV text. Text that a spreadsheet would run as a formula gets a
 * leading apostrophe, so it shows as text. Numbers are written as they are (a
 * negative number is not a formula, and no text can hide inside one).
 */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value !== 'number' && FORMULA_START.test(text) && !PLAIN_DECIMAL.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Records without a header, each ending in CRLF: for the batches after the first of a streamed file. */
export function toCsvRows(rows: ReadonlyArray<ReadonlyArray<CsvCell>>): string {
  let out = '';
  for (const row of rows) out += `${row.map(csvField).join(',')}\r\n`;
  return out;
}

/** A header record and the rows, RFC 4180, every record (the last too) ending in CRLF. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<CsvCell>>): string {
  return toCsvRows([header, ...rows]);
}

/** The response schema of a route answering a CSV download. */
export const CsvAnswer = FileAnswer('A CSV file (RFC 4180, UTF-8) for a spreadsheet', ['text/csv']);
