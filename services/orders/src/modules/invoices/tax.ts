// The GST of an order (India, B2C): each supply's taxable value, rate and CGST + SGST (or UTGST)
// or IGST, from tax-inclusive prices in integer paise, with no paisa lost or made; the states and
// union territories with their GST codes; totals per rate and the HSN/SAC summary.

import { INDIAN_STATES, type IndianState } from '@persona/contracts';

export { INDIAN_STATES, type IndianState };

export type SupplyKind = 'ebook' | 'printed-book' | 'printing' | 'delivery';
type BookKind = Extract<SupplyKind, 'ebook' | 'printed-book'>;

/** One supply of an order as sold: its price includes GST; the discount comes off before tax. */
export interface SupplyLine {
  kind: SupplyKind;
  description: string;
  /** Absent: the code of the line's treatment (the book's own, for printing and delivery). */
  hsnSac?: string;
  grossPaise: number;
  discountPaise?: number;
  /** For printing and delivery: the index of the book line they belong to; absent: the order's book. */
  belongsTo?: number;
}

/** How a kind of book is taxed. A rate is in basis points (500 = 5%) so money never meets a float. */
export interface TaxTreatment {
  hsnSac: string;
  rateBp: number;
  /** Exempt supplies are shown as exempt, not as 0% (CGST Rule 46A: the bill-of-supply part). */
  exempt: boolean;
}

export type TaxConfig = Record<BookKind, TaxTreatment>;

/**
 * To be confirmed by the shop's accountant (DESIGN §4). E-books: 5% under SAC heading 9984
 * (online content). Printed books: HSN 4901, exempt. Printing and delivery have no row of their
 * own: they are part of a composite supply whose principal supply is the book (CGST Act s. 8(a)),
 * so a printed copy's printing and delivery are exempt with it, and would be taxed at the e-book's
 * rate if an e-book ever carried such a charge.
 */
export const DEFAULT_TAX_CONFIG: TaxConfig = {
  ebook: { hsnSac: '9984', rateBp: 500, exempt: false },
  'printed-book': { hsnSac: '4901', rateBp: 0, exempt: true },
};

export type SupplyType = 'intra-state' | 'inter-state';

export interface TaxLine {
  kind: SupplyKind;
  description: string;
  hsnSac: string;
  grossPaise: number;
  discountPaise: number;
  /** gross − discount: what the buyer pays for the line, GST included. */
  netPaise: number;
  /** For an exempt line, its whole value (no tax in it). */
  taxablePaise: number;
  rateBp: number;
  exempt: boolean;
  cgstPaise: number;
  /** SGST, or UTGST in a union territory without a legislature (see stateTaxName). */
  sgstPaise: number;
  igstPaise: number;
}

export interface TaxTotals {
  grossPaise: number;
  discountPaise: number;
  /** The taxable values of the taxed lines. */
  taxablePaise: number;
  /** The values of the exempt lines. */
  exemptPaise: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  /** What the buyer pays: taxable + exempt + every tax, to the paisa. */
  totalPaise: number;
}

export interface TaxedSupply {
  sellerStateCode: string;
  placeOfSupply: string;
  supplyType: SupplyType;
  lines: TaxLine[];
  totals: TaxTotals;
}

export interface OrderSupplies {
  lines: SupplyLine[];
  /** The seller's GST state code (the first two characters of its GSTIN). */
  sellerStateCode: string;
  /** The buyer's state: where the printed copy is delivered, or the buyer's address for an e-book. */
  placeOfSupply: string;
}

const STATES_BY_CODE = new Map(INDIAN_STATES.map((state) => [state.code, state]));

/** Union territories with a legislature of their own levy SGST, like the states. */
const UT_WITH_LEGISLATURE = new Set(['01', '07', '34']);

/** The state or union territory of a GST state code; throws for a code nobody lives under. */
export function indianState(code: string): IndianState {
  const state = STATES_BY_CODE.get(code);
  if (!state) throw new RangeError(`"${code}" is not the GST code of an Indian state or union territory`);
  return state;
}

/** The name of the second half of an intra-state GST where the seller is: UTGST in a union territory without a legislature. */
export function stateTaxName(sellerStateCode: string): 'SGST' | 'UTGST' {
  const state = indianState(sellerStateCode);
  return state.kind === 'union-territory' && !UT_WITH_LEGISLATURE.has(state.code) ? 'UTGST' : 'SGST';
}

const GSTIN_SHAPE = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const GSTIN_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A GSTIN of an Indian state, its shape (state, PAN, entity, Z) and its check character right: config catches a typo, not the tax office. */
export function isValidGstin(gstin: string): boolean {
  if (!GSTIN_SHAPE.test(gstin) || !STATES_BY_CODE.has(gstin.slice(0, 2))) return false;
  return gstin[14] === gstinCheckCharacter(gstin.slice(0, 14));
}

/** The GSTN's mod-36 check: odd positions weigh 1, even ones 2, each product's base-36 digits summed. */
function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < first14.length; i += 1) {
    const product = GSTIN_ALPHABET.indexOf(first14[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return GSTIN_ALPHABET[(36 - (sum % 36)) % 36]!;
}

/** The GST of an order's supplies: one tax line per supply line, in order, and the totals. */
export function computeOrderTax(order: OrderSupplies, config: TaxConfig = DEFAULT_TAX_CONFIG): TaxedSupply {
  assertTaxConfig(config);
  indianState(order.sellerStateCode);
  indianState(order.placeOfSupply);
  if (order.lines.length === 0) throw new RangeError('an order has at least one supply');
  const supplyType: SupplyType = order.sellerStateCode === order.placeOfSupply ? 'intra-state' : 'inter-state';
  const lines = order.lines.map((line, index) => {
    assertSupplyLine(line, index);
    const treatment = config[bookKindOf(order.lines, index)];
    return taxLine({ ...line, hsnSac: line.hsnSac ?? treatment.hsnSac, discountPaise: line.discountPaise ?? 0 }, treatment, supplyType);
  });
  return { sellerStateCode: order.sellerStateCode, placeOfSupply: order.placeOfSupply, supplyType, lines, totals: sumTaxLines(lines) };
}

/** Which book's treatment a line takes: its own, or for printing and delivery the book it belongs to. */
function bookKindOf(lines: readonly SupplyLine[], index: number): BookKind {
  const line = lines[index]!;
  if (line.kind === 'ebook' || line.kind === 'printed-book') return line.kind;
  if (line.belongsTo !== undefined) {
    const book = lines[line.belongsTo];
    if (!book || (book.kind !== 'ebook' && book.kind !== 'printed-book')) {
      throw new RangeError(`line ${index} (${line.kind}) belongs to line ${line.belongsTo}, which is not a book`);
    }
    return book.kind;
  }
  const kinds = new Set(lines.flatMap((l) => (l.kind === 'ebook' || l.kind === 'printed-book' ? [l.kind] : [])));
  if (kinds.size !== 1) {
    throw new RangeError(
      `line ${index} (${line.kind}) must name the book it belongs to: the order has ${kinds.size === 0 ? 'no book' : 'e-books and printed books'}`,
    );
  }
  return [...kinds][0]!;
}

/**
 * A line's tax, from its tax-inclusive net: taxable = net ÷ (1 + rate), rounded half up to the
 * paisa, and the tax is what is left, so taxable + tax is the net exactly. The odd paisa of an
 * intra-state tax goes to CGST, so CGST and SGST differ by a paisa at most and sum exactly; the
 * taxable value is the same wherever the buyer is.
 */
function taxLine(line: Required<Omit<SupplyLine, 'belongsTo'>>, treatment: TaxTreatment, supplyType: SupplyType): TaxLine {
  const netPaise = line.grossPaise - line.discountPaise;
  const rateBp = treatment.exempt ? 0 : treatment.rateBp;
  const taxablePaise = Number(roundHalfUp(BigInt(netPaise) * 10_000n, BigInt(10_000 + rateBp)));
  const tax = netPaise - taxablePaise;
  const sgstPaise = supplyType === 'intra-state' ? Math.floor(tax / 2) : 0;
  return {
    kind: line.kind,
    description: line.description,
    hsnSac: line.hsnSac,
    grossPaise: line.grossPaise,
    discountPaise: line.discountPaise,
    netPaise,
    taxablePaise,
    rateBp,
    exempt: treatment.exempt,
    cgstPaise: supplyType === 'intra-state' ? tax - sgstPaise : 0,
    sgstPaise,
    igstPaise: supplyType === 'inter-state' ? tax : 0,
  };
}

/** numerator ÷ denominator rounded half up, for non-negative integers. */
function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

export function sumTaxLines(lines: readonly TaxLine[]): TaxTotals {
  const totals: TaxTotals = { grossPaise: 0, discountPaise: 0, taxablePaise: 0, exemptPaise: 0, cgstPaise: 0, sgstPaise: 0, igstPaise: 0, totalPaise: 0 };
  for (const line of lines) {
    totals.grossPaise += line.grossPaise;
    totals.discountPaise += line.discountPaise;
    if (line.exempt) totals.exemptPaise += line.taxablePaise;
    else totals.taxablePaise += line.taxablePaise;
    totals.cgstPaise += line.cgstPaise;
    totals.sgstPaise += line.sgstPaise;
    totals.igstPaise += line.igstPaise;
    totals.totalPaise += line.netPaise;
  }
  return totals;
}

export interface TaxSummaryRow {
  /** Absent in the totals per rate. */
  hsnSac?: string;
  rateBp: number;
  exempt: boolean;
  taxablePaise: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  totalPaise: number;
}

/** The lines' totals per rate (exempt apart from 0%), lowest rate first, exempt last. */
export function totalsPerRate(lines: readonly TaxLine[]): TaxSummaryRow[] {
  return summarise(lines, (line) => `${line.exempt ? 1 : 0}:${String(line.rateBp).padStart(5, '0')}`, false);
}

/** The lines' totals per HSN/SAC code and rate (GSTR-1's HSN summary), by code then rate. */
export function hsnSummary(lines: readonly TaxLine[]): TaxSummaryRow[] {
  return summarise(lines, (line) => `${line.hsnSac}:${line.exempt ? 1 : 0}:${String(line.rateBp).padStart(5, '0')}`, true);
}

function summarise(lines: readonly TaxLine[], keyOf: (line: TaxLine) => string, withCode: boolean): TaxSummaryRow[] {
  const rows = new Map<string, TaxSummaryRow>();
  for (const line of lines) {
    const key = keyOf(line);
    const row = rows.get(key) ?? {
      ...(withCode ? { hsnSac: line.hsnSac } : {}),
      rateBp: line.rateBp,
      exempt: line.exempt,
      taxablePaise: 0,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 0,
      totalPaise: 0,
    };
    row.taxablePaise += line.taxablePaise;
    row.cgstPaise += line.cgstPaise;
    row.sgstPaise += line.sgstPaise;
    row.igstPaise += line.igstPaise;
    row.totalPaise += line.netPaise;
    rows.set(key, row);
  }
  return [...rows.keys()].sort().map((key) => rows.get(key)!);
}

/**
 * A refund as the supplies a credit note takes back: shared over the invoice's lines in proportion
 * to what each cost (largest remainder, so the shares sum to the refund exactly), each taxed as its
 * line was. A full refund gives back exactly the invoice's taxable values and taxes.
 */
export function apportionRefund(invoice: TaxedSupply, refundPaise: number): TaxedSupply {
  const total = invoice.totals.totalPaise;
  if (!Number.isSafeInteger(refundPaise) || refundPaise <= 0 || refundPaise > total) {
    throw new RangeError(`a refund is a whole number of paise from 1 to the invoice's ${total}, not ${refundPaise}`);
  }
  const shares = largestRemainderShares(
    invoice.lines.map((line) => line.netPaise),
    refundPaise,
  );
  const lines = invoice.lines.flatMap((line, index) => {
    const share = shares[index]!;
    if (share === 0) return [];
    const treatment = { hsnSac: line.hsnSac, rateBp: line.rateBp, exempt: line.exempt };
    return [
      taxLine({ kind: line.kind, description: line.description, hsnSac: line.hsnSac, grossPaise: share, discountPaise: 0 }, treatment, invoice.supplyType),
    ];
  });
  return { ...invoice, lines, totals: sumTaxLines(lines) };
}

/** `amount` shared in proportion to `weights`, in integers that sum to it (ties to the earlier weight). */
function largestRemainderShares(weights: readonly number[], amount: number): number[] {
  const whole = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((weight) => ({
    floor: (BigInt(amount) * BigInt(weight)) / BigInt(whole),
    rest: (BigInt(amount) * BigInt(weight)) % BigInt(whole),
  }));
  const shares = exact.map((e) => Number(e.floor));
  let left = amount - shares.reduce((a, b) => a + b, 0);
  const byRest = exact.map((e, index) => ({ index, rest: e.rest })).sort((a, b) => (a.rest === b.rest ? a.index - b.index : a.rest > b.rest ? -1 : 1));
  for (const { index } of byRest) {
    if (left === 0) break;
    shares[index]! += 1;
    left -= 1;
  }
  return shares;
}

function assertSupplyLine(line: SupplyLine, index: number): void {
  const discount = line.discountPaise ?? 0;
  if (!Number.isSafeInteger(line.grossPaise) || line.grossPaise < 0) throw new RangeError(`line ${index}: the price is whole paise, not ${line.grossPaise}`);
  if (!Number.isSafeInteger(discount) || discount < 0 || discount > line.grossPaise) {
    throw new RangeError(`line ${index}: a discount is whole paise from 0 to the price ${line.grossPaise}, not ${discount}`);
  }
  if (!line.description.trim()) throw new RangeError(`line ${index}: a supply has a description`);
  if (line.hsnSac !== undefined) assertHsnSac(line.hsnSac);
}

function assertTaxConfig(config: TaxConfig): void {
  for (const [kind, treatment] of Object.entries(config)) {
    assertHsnSac(treatment.hsnSac);
    if (!Number.isInteger(treatment.rateBp) || treatment.rateBp < 0 || treatment.rateBp > 10_000) {
      throw new RangeError(`the ${kind} rate is basis points from 0 to 10000, not ${treatment.rateBp}`);
    }
    if (treatment.exempt && treatment.rateBp !== 0) throw new RangeError(`an exempt ${kind} has no rate (${treatment.rateBp} basis points given)`);
  }
}

/** HSN (goods) and SAC (services) codes: 4, 6 or 8 digits (an invoice may show the 4-digit heading). */
function assertHsnSac(code: string): void {
  if (!/^[0-9]{4}(?:[0-9]{2}){0,2}$/.test(code)) throw new RangeError(`"${code}" is not an HSN or SAC code (4, 6 or 8 digits)`);
}
