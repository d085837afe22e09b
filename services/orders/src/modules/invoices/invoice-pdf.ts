// The PDF of an invoice or credit note (CGST Rules 46, 46A and 53): an A4 page with the seller,
// the document's number and date, the buyer and place of supply, a row per supply (price,
// discount, taxable value, rate, the taxes, total) and the totals, in DejaVu Sans from npm so that
// ₹ and names in Latin letters with their accents print (DejaVu has no Indian scripts: a name
// written in Devanagari prints as empty boxes). The same document always gives the same bytes: its
// dates are the document's own, and pdf-lib's font-name suffix comes from a seeded generator.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { istDate } from './invoice-number';
import type { Invoice } from './invoices.repository';
import { indianState, stateTaxName, type TaxLine } from './tax';

const PAGE = { width: 595.28, height: 841.89, margin: 40 };
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
/** Where the body stops: below it, the footer. */
const BODY_BOTTOM = PAGE.margin + 36;
const GREY = rgb(0.38, 0.38, 0.38);
const RULE = rgb(0.7, 0.7, 0.7);
const HEADER_FILL = rgb(0.93, 0.93, 0.93);
const TABLE_SIZE = 7.5;
const BODY_SIZE = 9;
const FOOTER_TEXT = 'This is a computer-generated document and needs no signature.';

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** A page being written top to bottom: `y` is the baseline of the next line. */
interface Sheet {
  doc: PDFDocument;
  fonts: Fonts;
  page: PDFPage;
  y: number;
}

interface Column {
  header: string;
  width: number;
  align: 'left' | 'right';
  cell(line: TaxLine, index: number): string[];
}

/** What a document calls itself: a credit note; a tax invoice, a bill of supply (all exempt, Rule 49) or both in one (Rule 46A). */
export function documentTitle(invoice: Pick<Invoice, 'kind' | 'lines'>): string {
  if (invoice.kind === 'credit-note') return 'Credit Note';
  const exempt = invoice.lines.filter((line) => line.exempt).length;
  if (exempt === 0) return 'Tax Invoice';
  return exempt === invoice.lines.length ? 'Bill of Supply' : 'Invoice-cum-Bill of Supply';
}

export async function renderInvoicePdf(invoice: Invoice): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(PARSE_ONCE_FONTKIT);
  const fonts = { regular: await embedFace(doc, 'DejaVuSans.ttf'), bold: await embedFace(doc, 'DejaVuSans-Bold.ttf') };
  setMetadata(doc, invoice);
  const sheet: Sheet = { doc, fonts, page: doc.addPage([PAGE.width, PAGE.height]), y: PAGE.height - PAGE.margin };
  drawHeading(sheet, invoice);
  drawParties(sheet, invoice);
  drawLines(sheet, invoice);
  drawTotals(sheet, invoice);
  drawNotes(sheet, invoice);
  drawFooters(doc, fonts);
  return doc.save();
}

const fontFiles = new Map<string, Uint8Array>();

/** A DejaVu face from its npm package (never the machine's fonts: every host renders the same). */
function fontBytes(file: string): Uint8Array {
  let bytes = fontFiles.get(file);
  if (!bytes) {
    bytes = new Uint8Array(readFileSync(join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', file)));
    fontFiles.set(file, bytes);
  }
  return bytes;
}

/** The face file each embedded font is of: what its characters' widths are cached under. */
const faceOfFont = new WeakMap<PDFFont, string>();

async function embedFace(doc: PDFDocument, file: string): Promise<PDFFont> {
  const font = await doc.embedFont(fontBytes(file), { subset: true });
  faceOfFont.set(font, file);
  return font;
}

const parsedFaces = new Map<Uint8Array, fontkit.Font>();

/**
 * fontkit as pdf-lib calls it, but one face object per file for every document: fontkit reads a
 * face's tables when first used, and a fresh face per document made a warm invoice take 110–190 ms
 * instead of 45–70 ms (2 shared cores, 2026-11-27). pdf-lib only reads the face (each document
 * makes a subset of its own, encoded synchronously), so documents never see each other's glyphs.
 */
const PARSE_ONCE_FONTKIT = {
  create(bytes: Uint8Array, postscriptName?: string): fontkit.Font {
    let face = parsedFaces.get(bytes);
    if (!face) {
      face = fontkit.create(bytes, postscriptName);
      parsedFaces.set(bytes, face);
    }
    return face;
  },
};

function setMetadata(doc: PDFDocument, invoice: Invoice): void {
  doc.setTitle(`${documentTitle(invoice)} ${invoice.number}`);
  doc.setAuthor(invoice.seller.name);
  doc.setSubject(`${documentTitle(invoice)} ${invoice.number} of ${formatIstDate(invoice.issuedAt)}`);
  doc.setCreator(invoice.seller.name);
  doc.setProducer('pdf-lib');
  doc.setCreationDate(invoice.issuedAt);
  doc.setModificationDate(invoice.issuedAt);
}

/** Seller on the left; the document's title, number and date on the right. */
function drawHeading(sheet: Sheet, invoice: Invoice): void {
  const { regular, bold } = sheet.fonts;
  const { seller } = invoice;
  const sellerState = indianState(seller.gstin.slice(0, 2));
  const left = [
    { text: seller.name, font: bold, size: 14 },
    ...seller.addressLines.map((text) => ({ text, font: regular, size: BODY_SIZE })),
    { text: `GSTIN: ${seller.gstin}`, font: bold, size: BODY_SIZE },
    { text: `State: ${sellerState.name} (${sellerState.code})`, font: regular, size: BODY_SIZE },
  ];
  const right = [{ text: documentTitle(invoice), font: bold, size: 16 }, ...documentFacts(invoice).map((text) => ({ text, font: regular, size: BODY_SIZE }))];
  drawSideBySide(sheet, sheet.y, left, right);
  sheet.y -= 6;
  rule(sheet);
}

function documentFacts(invoice: Invoice): string[] {
  const facts = [`${invoice.kind === 'credit-note' ? 'Credit note' : 'Invoice'} no.: ${invoice.number}`, `Date: ${formatIstDate(invoice.issuedAt)}`];
  if (invoice.credits) facts.push(`Against invoice ${invoice.credits.number}`, `of ${formatIstDate(invoice.credits.issuedAt)}`);
  return facts;
}

/** Buyer on the left; place of supply and the tax's kind on the right. */
function drawParties(sheet: Sheet, invoice: Invoice): void {
  const { regular, bold } = sheet.fonts;
  const place = indianState(invoice.placeOfSupply);
  const left = [
    { text: invoice.kind === 'credit-note' ? 'Credited to' : 'Billed to', font: regular, size: 8, color: GREY },
    { text: invoice.buyer.name, font: bold, size: 10 },
    ...invoice.buyer.addressLines.map((text) => ({ text, font: regular, size: BODY_SIZE })),
    // A gift's printed copy: where it went, and to whom (issue 24).
    ...(invoice.buyer.shipTo
      ? [
          { text: 'Shipped to', font: regular, size: 8, color: GREY },
          { text: invoice.buyer.shipTo.name, font: bold, size: 10 },
          ...invoice.buyer.shipTo.addressLines.map((text) => ({ text, font: regular, size: BODY_SIZE })),
        ]
      : []),
  ];
  const taxKind = invoice.supplyType === 'intra-state' ? `CGST + ${stateTaxName(invoice.seller.gstin.slice(0, 2))}` : 'IGST';
  const right = [
    { text: `Place of supply: ${place.name} (${place.code})`, font: regular, size: BODY_SIZE },
    { text: `Supply: ${invoice.supplyType} (${taxKind})`, font: regular, size: BODY_SIZE },
    { text: 'Tax payable on reverse charge: No', font: regular, size: BODY_SIZE },
    { text: `Order: ${invoice.orderId}`, font: regular, size: 8, color: GREY },
    ...(invoice.refundId ? [{ text: `Refund: ${invoice.refundId}`, font: regular, size: 8, color: GREY }] : []),
  ];
  drawSideBySide(sheet, sheet.y - 4, left, right);
  sheet.y -= 10;
}

/**
 * Two blocks from `top`: `right` flush right, one line each; `left` wrapped into the width the
 * right block leaves (a long name or address never runs under it). Leaves `y` under the longer.
 */
function drawSideBySide(sheet: Sheet, top: number, left: StackLine[], right: StackLine[]): void {
  const rightWidth = Math.max(...right.map((line) => textWidth(line.font, line.text, line.size)));
  const leftWidth = Math.max(CONTENT_WIDTH - rightWidth - 24, CONTENT_WIDTH / 3);
  const wrapped = left.flatMap((line) => wrap(line.font, line.size, line.text, leftWidth).map((text) => ({ ...line, text })));
  const leftBottom = drawStack(sheet, wrapped, PAGE.margin, top, 'left');
  const rightBottom = drawStack(sheet, right, PAGE.width - PAGE.margin, top, 'right');
  sheet.y = Math.min(leftBottom, rightBottom);
}

/** The table of supplies; its header row is repeated on a new page. */
function drawLines(sheet: Sheet, invoice: Invoice): void {
  const columns = tableColumns(invoice);
  drawRow(
    sheet,
    columns,
    columns.map((c) => wrap(sheet.fonts.bold, TABLE_SIZE, c.header, c.width - 6)),
    { header: true },
  );
  invoice.lines.forEach((line, index) => {
    const cells = columns.map((c) => c.cell(line, index).flatMap((text) => wrap(sheet.fonts.regular, TABLE_SIZE, text, c.width - 6)));
    if (sheet.y - rowHeight(cells) < BODY_BOTTOM) {
      newPage(sheet);
      drawRow(
        sheet,
        columns,
        columns.map((c) => wrap(sheet.fonts.bold, TABLE_SIZE, c.header, c.width - 6)),
        { header: true },
      );
    }
    drawRow(sheet, columns, cells, { header: false });
  });
}

/**
 * #, description, HSN/SAC, the price, the discount taken off it, the taxable value, the GST rate,
 * the taxes (each with its own rate under it) and the line's total, in rupees. The description
 * takes the width the others leave.
 */
function tableColumns(invoice: Invoice): Column[] {
  const money = (paise: (line: TaxLine) => number) => (line: TaxLine) => [formatRupees(paise(line))];
  // An intra-state tax's own rate (half the GST rate) under its amount; IGST's is the GST rate.
  const tax = (paise: (line: TaxLine) => number, share: number) => (line: TaxLine) =>
    line.exempt ? ['–'] : [formatRupees(paise(line)), ...(share > 1 ? [`@ ${formatRate(line.rateBp / share)}`] : [])];
  const taxes: Column[] =
    invoice.supplyType === 'intra-state'
      ? [
          { header: 'CGST', width: 48, align: 'right', cell: tax((l) => l.cgstPaise, 2) },
          { header: stateTaxName(invoice.seller.gstin.slice(0, 2)), width: 48, align: 'right', cell: tax((l) => l.sgstPaise, 2) },
        ]
      : [{ header: 'IGST', width: 56, align: 'right', cell: tax((l) => l.igstPaise, 1) }];
  const fixed: Column[] = [
    { header: 'HSN/SAC', width: 46, align: 'left', cell: (line) => [line.hsnSac] },
    { header: 'Price (₹)', width: 48, align: 'right', cell: money((l) => l.grossPaise) },
    { header: 'Discount (₹)', width: 46, align: 'right', cell: (line) => [line.discountPaise ? `−${formatRupees(line.discountPaise)}` : '–'] },
    { header: 'Taxable value (₹)', width: 52, align: 'right', cell: money((l) => l.taxablePaise) },
    { header: 'GST rate', width: 36, align: 'right', cell: (line) => [line.exempt ? 'Exempt' : formatRate(line.rateBp)] },
    ...taxes,
    { header: 'Total (₹)', width: 52, align: 'right', cell: money((l) => l.netPaise) },
  ];
  const number: Column = { header: '#', width: 16, align: 'left', cell: (_line, index) => [String(index + 1)] };
  const used = number.width + fixed.reduce((sum, c) => sum + c.width, 0);
  const description: Column = { header: 'Description', width: CONTENT_WIDTH - used, align: 'left', cell: (line) => [line.description] };
  return [number, description, ...fixed];
}

const TABLE_LEADING = TABLE_SIZE * 1.3;
const CELL_PADDING = 4;

function rowHeight(cells: string[][]): number {
  return Math.max(...cells.map((lines) => lines.length)) * TABLE_LEADING + 2 * CELL_PADDING;
}

function drawRow(sheet: Sheet, columns: Column[], cells: string[][], { header }: { header: boolean }): void {
  const height = rowHeight(cells);
  const top = sheet.y;
  if (header) sheet.page.drawRectangle({ x: PAGE.margin, y: top - height, width: CONTENT_WIDTH, height, color: HEADER_FILL });
  const font = header ? sheet.fonts.bold : sheet.fonts.regular;
  let x = PAGE.margin;
  columns.forEach((column, i) => {
    cells[i]!.forEach((text, lineIndex) => {
      const baseline = top - CELL_PADDING - TABLE_SIZE - lineIndex * TABLE_LEADING + 1.5;
      // A rate under a tax amount is a footnote to it: smaller and grey.
      const aside = !header && lineIndex > 0 && text.startsWith('@');
      const size = aside ? TABLE_SIZE - 1 : TABLE_SIZE;
      const width = textWidth(font, text, size);
      const left = column.align === 'right' ? x + column.width - 3 - width : x + 3;
      sheet.page.drawText(text, { x: left, y: baseline, size, font, color: aside ? GREY : rgb(0, 0, 0) });
    });
    x += column.width;
  });
  sheet.page.drawLine({ start: { x: PAGE.margin, y: top - height }, end: { x: PAGE.width - PAGE.margin, y: top - height }, thickness: 0.5, color: RULE });
  sheet.y = top - height;
}

type TotalRow = [label: string, amount: string];

/**
 * The totals, right-aligned under the table, in three groups with a rule between: the price less
 * the discount; what the total is made of (taxable value, exempt value, each tax); the total.
 */
function drawTotals(sheet: Sheet, invoice: Invoice): void {
  const groups = totalRows(invoice);
  const rows = groups.reduce((n, group) => n + group.length, 0);
  if (sheet.y - rows * 14 - groups.length * 6 - 12 < BODY_BOTTOM) newPage(sheet);
  const left = PAGE.width - PAGE.margin - 220;
  let y = sheet.y - 16;
  groups.forEach((group, index) => {
    const strong = index === groups.length - 1;
    const font = strong ? sheet.fonts.bold : sheet.fonts.regular;
    const size = strong ? 10.5 : BODY_SIZE;
    if (index > 0) {
      sheet.page.drawLine({ start: { x: left, y: y + 10 }, end: { x: PAGE.width - PAGE.margin, y: y + 10 }, thickness: 0.5, color: RULE });
      y -= 4;
    }
    for (const [label, amount] of group) {
      sheet.page.drawText(label, { x: left, y, size, font });
      sheet.page.drawText(amount, { x: PAGE.width - PAGE.margin - 3 - textWidth(font, amount, size), y, size, font });
      y -= 14;
    }
  });
  sheet.y = y - 2;
}

function totalRows(invoice: Invoice): TotalRow[][] {
  const t = invoice.totals;
  const price: TotalRow[] = t.discountPaise
    ? [
        ['Price', rupees(t.grossPaise)],
        ['Less discount', `−${rupees(t.discountPaise)}`],
      ]
    : [];
  const parts: TotalRow[] = [];
  if (t.taxablePaise || !t.exemptPaise) parts.push(['Taxable value', rupees(t.taxablePaise)]);
  if (t.exemptPaise) parts.push(['Exempt value', rupees(t.exemptPaise)]);
  if (invoice.supplyType === 'intra-state') parts.push(['CGST', rupees(t.cgstPaise)], [stateTaxName(invoice.seller.gstin.slice(0, 2)), rupees(t.sgstPaise)]);
  else parts.push(['IGST', rupees(t.igstPaise)]);
  const total: TotalRow[] = [[invoice.kind === 'credit-note' ? 'Total credited' : 'Total (GST included)', rupees(t.totalPaise)]];
  return [price, parts, total].filter((group) => group.length > 0);
}

/** The amount in words, that prices include GST, and what "Exempt" means here. */
function drawNotes(sheet: Sheet, invoice: Invoice): void {
  const { regular } = sheet.fonts;
  const notes = [
    `${invoice.kind === 'credit-note' ? 'Amount credited' : 'Amount'} in words: ${amountInWords(invoice.totals.totalPaise)}.`,
    'Prices include GST. Discounts are deducted before tax.',
    ...(invoice.lines.some((line) => line.exempt)
      ? ['Supplies marked "Exempt" are exempt from GST; the printing and delivery of a printed book are part of its supply.']
      : []),
  ];
  const lines = notes.flatMap((note) => wrap(regular, 8, note, CONTENT_WIDTH));
  if (sheet.y - lines.length * 11 - 8 < BODY_BOTTOM) newPage(sheet);
  sheet.y -= 8;
  for (const text of lines) {
    sheet.page.drawText(text, { x: PAGE.margin, y: sheet.y, size: 8, font: regular, color: GREY });
    sheet.y -= 11;
  }
}

function drawFooters(doc: PDFDocument, fonts: Fonts): void {
  const pages = doc.getPages();
  pages.forEach((page, index) => {
    page.drawLine({ start: { x: PAGE.margin, y: PAGE.margin + 14 }, end: { x: PAGE.width - PAGE.margin, y: PAGE.margin + 14 }, thickness: 0.5, color: RULE });
    page.drawText(FOOTER_TEXT, { x: PAGE.margin, y: PAGE.margin, size: 7.5, font: fonts.regular, color: GREY });
    const count = `Page ${index + 1} of ${pages.length}`;
    page.drawText(count, { x: PAGE.width - PAGE.margin - textWidth(fonts.regular, count, 7.5), y: PAGE.margin, size: 7.5, font: fonts.regular, color: GREY });
  });
}

function newPage(sheet: Sheet): void {
  sheet.page = sheet.doc.addPage([PAGE.width, PAGE.height]);
  sheet.y = PAGE.height - PAGE.margin;
}

function rule(sheet: Sheet): void {
  sheet.page.drawLine({ start: { x: PAGE.margin, y: sheet.y }, end: { x: PAGE.width - PAGE.margin, y: sheet.y }, thickness: 0.75, color: RULE });
}

interface StackLine {
  text: string;
  font: PDFFont;
  size: number;
  color?: ReturnType<typeof rgb>;
}

/** Lines one under the other from `top`, aligned at `x`; returns the baseline under the last. */
function drawStack(sheet: Sheet, lines: StackLine[], x: number, top: number, align: 'left' | 'right'): number {
  let y = top;
  for (const line of lines) {
    y -= line.size * 1.3;
    const left = align === 'right' ? x - textWidth(line.font, line.text, line.size) : x;
    sheet.page.drawText(line.text, { x: left, y, size: line.size, font: line.font, color: line.color ?? rgb(0, 0, 0) });
  }
  return y - 4;
}

const charWidths = new Map<string, Map<string, number>>();

/**
 * A text's width as the sum of its characters' (cached): pdf-lib lays the whole string out with
 * fontkit on every measurement, half of an invoice's rendering time with the wrapping's many
 * measurements. It is also the width drawn: pdf-lib draws glyphs at their advances, unkerned.
 */
function textWidth(font: PDFFont, text: string, size: number): number {
  const face = faceOfFont.get(font)!;
  let widths = charWidths.get(face);
  if (!widths) charWidths.set(face, (widths = new Map()));
  let sum = 0;
  for (const char of text) {
    let width = widths.get(char);
    if (width === undefined) {
      width = font.widthOfTextAtSize(char, 1000);
      widths.set(char, width);
    }
    sum += width;
  }
  return (sum * size) / 1000;
}

/** Words into lines no wider than `width`; a word wider than a line is cut where it must be. */
function wrap(font: PDFFont, size: number, text: string, width: number): string[] {
  const fits = (s: string) => textWidth(font, s, size) <= width;
  const lines: string[] = [];
  let current = '';
  for (const word of printable(text).split(' ').filter(Boolean)) {
    const candidate = current ? `${current} ${word}` : word;
    if (fits(candidate)) {
      current = candidate;
      continue;
    }
    if (current) lines.push(current);
    current = word;
    while (!fits(current)) {
      const [head, rest] = cutWord(current, fits);
      lines.push(head);
      current = rest;
    }
  }
  if (current) lines.push(current);
  return lines.length ? lines : [''];
}

/** The longest head of a word that fits, ending after a hyphen or slash if it has one (a Persona id breaks between its groups), never inside a character. */
function cutWord(word: string, fits: (s: string) => boolean): [string, string] {
  const chars = Array.from(word);
  let end = chars.length - 1;
  while (end > 1 && !fits(chars.slice(0, end).join(''))) end -= 1;
  const breakAfter = Math.max(chars.lastIndexOf('-', end - 1), chars.lastIndexOf('/', end - 1));
  if (breakAfter > 0) end = breakAfter + 1;
  return [chars.slice(0, end).join(''), chars.slice(end).join('')];
}

/** Control characters (a pasted newline or tab in a name) become spaces: one line of text stays one. */
function printable(text: string): string {
  return Array.from(text.normalize('NFC'), (char) => (isControl(char.codePointAt(0)!) ? ' ' : char)).join('');
}

function isControl(codePoint: number): boolean {
  return codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f);
}

/** Paise as rupees with Indian digit grouping: 123456789 → "12,34,567.89". */
export function formatRupees(paise: number): string {
  if (!Number.isSafeInteger(paise)) throw new RangeError(`${paise} is not a whole number of paise`);
  const sign = paise < 0 ? '−' : '';
  const abs = Math.abs(paise);
  const rupeesPart = String(Math.floor(abs / 100));
  const lastThree = rupeesPart.slice(-3);
  const rest = rupeesPart.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',');
  return `${sign}${rest ? `${rest},` : ''}${lastThree}.${String(abs % 100).padStart(2, '0')}`;
}

const rupees = (paise: number) => `₹${formatRupees(paise)}`;

/** Basis points as a percentage: 500 → "5%", 250 → "2.5%", 1250 → "12.5%", 9 → "0.09%". */
export function formatRate(bp: number): string {
  const whole = Math.floor(bp / 100);
  const fraction = String(Math.round(bp % 100))
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}%` : `${whole}%`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A moment as its date in India: "2 January 2027". */
export function formatIstDate(at: Date): string {
  const { year, month, day } = istDate(at);
  return `${day} ${MONTHS[month - 1]} ${year}`;
}

const ONES = [
  '',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

/** An amount in words, counted the Indian way (lakh, crore): 123456 paise → "Rupees One Thousand Two Hundred Thirty-Four and Fifty-Six Paise Only". */
export function amountInWords(paise: number): string {
  if (!Number.isSafeInteger(paise) || paise < 0) throw new RangeError(`${paise} is not a whole, non-negative number of paise`);
  const rupeesPart = Math.floor(paise / 100);
  const paisePart = paise % 100;
  const inRupees = `Rupees ${rupeesPart === 0 ? 'Zero' : wholeInWords(rupeesPart)}`;
  return `${inRupees}${paisePart ? ` and ${belowHundred(paisePart)} Paise` : ''} Only`;
}

/** 1 to any: crores of (recursively) anything, then lakhs, thousands, hundreds and the rest. */
function wholeInWords(n: number): string {
  const parts: string[] = [];
  const crores = Math.floor(n / 10_000_000);
  if (crores) parts.push(`${wholeInWords(crores)} Crore`);
  const groups: Array<[number, string]> = [
    [Math.floor((n % 10_000_000) / 100_000), 'Lakh'],
    [Math.floor((n % 100_000) / 1000), 'Thousand'],
    [Math.floor((n % 1000) / 100), 'Hundred'],
  ];
  for (const [count, name] of groups) if (count) parts.push(`${belowHundred(count)} ${name}`);
  if (n % 100) parts.push(belowHundred(n % 100));
  return parts.join(' ');
}

function belowHundred(n: number): string {
  if (n < 20) return ONES[n]!;
  const ones = n % 10;
  return `${TENS[Math.floor(n / 10)]}${ones ? `-${ONES[ones]}` : ''}`;
}
