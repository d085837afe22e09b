// GST invoices and credit notes in the database: issuing one (its number taken from the counter of
// its series and financial year in the caller's transaction, so a rollback gives the number back),
// once per order or refund, and reading them back per order, per month, and their PDFs.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { InvoicesTable, OrdersDB } from '../../db';
import { DEFAULT_SERIES, documentNumber, financialYearOf, istMonthRange, type DocumentKind, type NumberSeries } from './invoice-number';
import { isValidGstin, sumTaxLines, type SupplyType, type TaxedSupply, type TaxLine, type TaxTotals } from './tax';

type Db = Kysely<OrdersDB> | Transaction<OrdersDB>;

export interface Seller {
  name: string;
  addressLines: string[];
  /** Its first two digits are the seller's state: the tax's seller state code must match. */
  gstin: string;
}

export interface Buyer {
  name: string;
  /** Empty for an e-book bought without an address, and for a gift (the address is its recipient's). */
  addressLines: string[];
  /** A printed copy going to someone else (a gift): who and where; absent when it goes to the buyer billed. */
  shipTo?: { name: string; addressLines: string[] };
}

/** An invoice or a credit note, as issued. */
export interface Invoice {
  id: string;
  kind: DocumentKind;
  number: string;
  /** The year its financial year starts (2026: 2026-27). */
  financialYear: number;
  /** Its place in its series that financial year: 1, 2, 3… with no gap. */
  sequence: number;
  orderId: string;
  issuedAt: Date;
  placeOfSupply: string;
  supplyType: SupplyType;
  seller: Seller;
  buyer: Buyer;
  lines: TaxLine[];
  totals: TaxTotals;
  /** A credit note's invoice; null for an invoice. */
  credits: { id: string; number: string; issuedAt: Date } | null;
  refundId: string | null;
}

export interface IssueInvoiceInput {
  orderId: string;
  /** The moment of issue; its financial year (IST) is the number's. */
  issuedAt: Date;
  seller: Seller;
  buyer: Buyer;
  tax: TaxedSupply;
  series?: NumberSeries;
}

export interface IssueCreditNoteInput {
  /** The invoice it credits; the credit note keeps its seller, buyer and order. */
  invoiceId: string;
  refundId: string;
  issuedAt: Date;
  /** What is credited, taxed as the invoice was (tax.ts, apportionRefund). */
  tax: TaxedSupply;
  series?: NumberSeries;
}

/**
 * The order's invoice: the one it has, or a new one with the next number of the year. The order
 * row is locked first, so two payments' confirmations of one order issue one invoice and never
 * take a number they would not use. Every issuing transaction waits on the year's counter row
 * until it commits: keep the transaction short (render the PDF after it: saveInvoicePdf).
 */
export async function issueInvoice(trx: Transaction<OrdersDB>, input: IssueInvoiceInput): Promise<Invoice> {
  assertTransaction(trx);
  const order = await trx.selectFrom('orders').select('id').where('id', '=', input.orderId).forNoKeyUpdate().executeTakeFirst();
  if (!order) throw new Error(`no order ${input.orderId} to invoice`);
  const existing = await documents(trx).where('d.order_id', '=', input.orderId).where('d.kind', '=', 'invoice').executeTakeFirst();
  if (existing) return toInvoice(existing);

  assertSeller(input.seller, input.tax);
  const row = await insertDocument(trx, {
    kind: 'invoice',
    series: input.series ?? DEFAULT_SERIES.invoice,
    issuedAt: input.issuedAt,
    orderId: input.orderId,
    seller: input.seller,
    buyer: input.buyer,
    tax: input.tax,
    credits: null,
  });
  return toInvoice({ ...row, credits_number: null, credits_issued_at: null });
}

/**
 * The refund's credit note: the one it has, or a new one citing the invoice. The invoice row is
 * locked first, so credit notes of one invoice are issued one at a time and never credit more
 * than it charged.
 */
export async function issueCreditNote(trx: Transaction<OrdersDB>, input: IssueCreditNoteInput): Promise<Invoice> {
  assertTransaction(trx);
  const invoice = await documents(trx).where('d.id', '=', input.invoiceId).where('d.kind', '=', 'invoice').forNoKeyUpdate('d').executeTakeFirst();
  if (!invoice) throw new Error(`no invoice ${input.invoiceId} to credit`);
  const existing = await documents(trx).where('d.refund_id', '=', input.refundId).where('d.kind', '=', 'credit-note').executeTakeFirst();
  if (existing) {
    if (existing.credits_invoice_id !== input.invoiceId) throw new Error(`refund ${input.refundId} already has a credit note for another invoice`);
    return toInvoice(existing);
  }

  await assertCreditable(trx, invoice, input.tax);
  const row = await insertDocument(trx, {
    kind: 'credit-note',
    series: input.series ?? DEFAULT_SERIES['credit-note'],
    issuedAt: input.issuedAt,
    orderId: invoice.order_id,
    seller: invoice.seller as Seller,
    buyer: invoice.buyer as Buyer,
    tax: input.tax,
    credits: { invoiceId: invoice.id, refundId: input.refundId },
  });
  return toInvoice({ ...row, credits_number: invoice.number, credits_issued_at: invoice.issued_at });
}

/** An order's invoice and its credit notes, in the order they were issued. */
export async function findInvoicesOfOrder(db: Db, orderId: string): Promise<Invoice[]> {
  const rows = await documents(db).where('d.order_id', '=', orderId).orderBy('d.issued_at').orderBy('d.kind', 'desc').orderBy('d.sequence').execute();
  return rows.map(toInvoice);
}

export async function findInvoice(db: Db, id: string): Promise<Invoice | null> {
  const row = await documents(db).where('d.id', '=', id).executeTakeFirst();
  return row ? toInvoice(row) : null;
}

/** The invoices and credit notes issued in a calendar month in IST (a monthly GST return), each series in number order. */
export async function invoicesOfMonth(db: Db, year: number, month: number): Promise<Invoice[]> {
  const { from, to } = istMonthRange(year, month);
  const rows = await documents(db)
    .where('d.issued_at', '>=', from)
    .where('d.issued_at', '<', to)
    .orderBy('d.kind', 'desc')
    .orderBy('d.financial_year')
    .orderBy('d.sequence')
    .execute();
  return rows.map(toInvoice);
}

/** Stores a document's PDF unless it has one (the PDF is a function of the row: any render is the same). */
export async function saveInvoicePdf(db: Db, id: string, pdf: Uint8Array): Promise<void> {
  await db.updateTable('invoices').set({ pdf }).where('id', '=', id).where('pdf', 'is', null).execute();
}

export async function findInvoicePdf(db: Db, id: string): Promise<Uint8Array | null> {
  const row = await db.selectFrom('invoices').select('pdf').where('id', '=', id).executeTakeFirst();
  // pg gives a Buffer, PGlite a Uint8Array: callers get the same either way.
  return row?.pdf ? new Uint8Array(row.pdf.buffer, row.pdf.byteOffset, row.pdf.byteLength) : null;
}

/** Documents whose PDF was never stored (a process that stopped between issuing and rendering), oldest first. */
export async function findInvoicesWithoutPdf(db: Db, limit: number): Promise<Invoice[]> {
  const rows = await documents(db).where('d.pdf', 'is', null).orderBy('d.issued_at').limit(limit).execute();
  return rows.map(toInvoice);
}

interface NewDocument {
  kind: DocumentKind;
  series: NumberSeries;
  issuedAt: Date;
  orderId: string;
  seller: Seller;
  buyer: Buyer;
  tax: TaxedSupply;
  credits: { invoiceId: string; refundId: string } | null;
}

/** Takes the next number of the series' year and inserts the document with it, in the caller's transaction. */
async function insertDocument(trx: Transaction<OrdersDB>, doc: NewDocument) {
  if (doc.tax.lines.length === 0) throw new RangeError(`a ${doc.kind} has at least one line`);
  const financialYear = financialYearOf(doc.issuedAt);
  const sequence = await takeSequence(trx, doc.kind, financialYear);
  const totals = sumTaxLines(doc.tax.lines);
  return trx
    .insertInto('invoices')
    .values({
      kind: doc.kind,
      number: documentNumber(doc.series, financialYear, sequence),
      financial_year: financialYear,
      sequence,
      order_id: doc.orderId,
      issued_at: doc.issuedAt,
      place_of_supply: doc.tax.placeOfSupply,
      supply_type: doc.tax.supplyType,
      seller: JSON.stringify(doc.seller),
      buyer: JSON.stringify(doc.buyer),
      lines: JSON.stringify(doc.tax.lines),
      gross_paise: totals.grossPaise,
      discount_paise: totals.discountPaise,
      taxable_paise: totals.taxablePaise,
      exempt_paise: totals.exemptPaise,
      cgst_paise: totals.cgstPaise,
      sgst_paise: totals.sgstPaise,
      igst_paise: totals.igstPaise,
      total_paise: totals.totalPaise,
      credits_invoice_id: doc.credits?.invoiceId ?? null,
      refund_id: doc.credits?.refundId ?? null,
    })
    .returning(DOCUMENT_COLUMNS)
    .executeTakeFirstOrThrow();
}

/**
 * The next number of a series in a financial year: an upsert, the UPDATE … SET last_number =
 * last_number + 1 … RETURNING of a counter that may not exist yet (the year's first document).
 * The row stays locked until the caller's transaction ends, so the next issuer gets the number
 * after this one if it commits, and this one again if it rolls back: consecutive, no gap.
 */
async function takeSequence(trx: Transaction<OrdersDB>, series: DocumentKind, financialYear: number): Promise<number> {
  const row = await trx
    .insertInto('invoice_counters')
    .values({ series, financial_year: financialYear, last_number: 1 })
    .onConflict((oc) => oc.columns(['series', 'financial_year']).doUpdateSet({ last_number: sql<number>`invoice_counters.last_number + 1` }))
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return row.last_number;
}

const DOCUMENT_COLUMNS = [
  'id',
  'kind',
  'number',
  'financial_year',
  'sequence',
  'order_id',
  'issued_at',
  'place_of_supply',
  'supply_type',
  'seller',
  'buyer',
  'lines',
  'gross_paise',
  'discount_paise',
  'taxable_paise',
  'exempt_paise',
  'cgst_paise',
  'sgst_paise',
  'igst_paise',
  'total_paise',
  'credits_invoice_id',
  'refund_id',
] as const satisfies ReadonlyArray<keyof InvoicesTable>;

type DocumentRow = Pick<Selectable<InvoicesTable>, (typeof DOCUMENT_COLUMNS)[number]> & { credits_number: string | null; credits_issued_at: Date | null };

/** Documents without their PDFs, each with the number and date of the invoice it credits. */
function documents(db: Db) {
  return db
    .selectFrom('invoices as d')
    .leftJoin('invoices as c', 'c.id', 'd.credits_invoice_id')
    .select(DOCUMENT_COLUMNS.map((column) => `d.${column}` as const))
    .select(['c.number as credits_number', 'c.issued_at as credits_issued_at']);
}

function toInvoice(row: DocumentRow): Invoice {
  return {
    id: row.id,
    kind: row.kind,
    number: row.number,
    financialYear: row.financial_year,
    sequence: row.sequence,
    orderId: row.order_id,
    issuedAt: row.issued_at,
    placeOfSupply: row.place_of_supply,
    supplyType: row.supply_type,
    seller: row.seller as Seller,
    buyer: row.buyer as Buyer,
    lines: row.lines as TaxLine[],
    totals: {
      grossPaise: row.gross_paise,
      discountPaise: row.discount_paise,
      taxablePaise: row.taxable_paise,
      exemptPaise: row.exempt_paise,
      cgstPaise: row.cgst_paise,
      sgstPaise: row.sgst_paise,
      igstPaise: row.igst_paise,
      totalPaise: row.total_paise,
    },
    credits:
      row.credits_invoice_id && row.credits_number && row.credits_issued_at
        ? { id: row.credits_invoice_id, number: row.credits_number, issuedAt: row.credits_issued_at }
        : null,
    refundId: row.refund_id,
  };
}

/** A number taken outside a transaction would stay taken when the insert after it failed: a gap. */
function assertTransaction(trx: Transaction<OrdersDB>): void {
  if (!trx.isTransaction) throw new Error('invoices are issued inside a transaction (the number and the row commit together)');
}

function assertSeller(seller: Seller, tax: TaxedSupply): void {
  if (!isValidGstin(seller.gstin)) throw new RangeError(`the seller's GSTIN "${seller.gstin}" is not a valid GSTIN`);
  if (seller.gstin.slice(0, 2) !== tax.sellerStateCode) {
    throw new RangeError(
      `the tax was computed for a seller in state ${tax.sellerStateCode}, but the GSTIN ${seller.gstin} is of state ${seller.gstin.slice(0, 2)}`,
    );
  }
}

/** A credit note takes back, at the invoice's place of supply, no more than the invoice charged less its earlier credit notes. */
async function assertCreditable(trx: Transaction<OrdersDB>, invoice: DocumentRow, tax: TaxedSupply): Promise<void> {
  if (tax.placeOfSupply !== invoice.place_of_supply || tax.supplyType !== invoice.supply_type) {
    throw new RangeError(`a credit note is taxed as its invoice was: place of supply ${invoice.place_of_supply}, not ${tax.placeOfSupply}`);
  }
  const credited = await trx
    .selectFrom('invoices')
    .select(sql<number>`coalesce(sum(total_paise), 0)::int`.as('paise'))
    .where('credits_invoice_id', '=', invoice.id)
    .executeTakeFirstOrThrow();
  const asked = sumTaxLines(tax.lines).totalPaise;
  if (asked <= 0 || credited.paise + asked > invoice.total_paise) {
    throw new RangeError(
      `invoice ${invoice.number} charged ${invoice.total_paise} paise and ${credited.paise} are credited: a credit note of ${asked} is too much`,
    );
  }
}
