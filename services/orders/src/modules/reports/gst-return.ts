// The month's figures for the GST return (GSTR-1), from the invoices and credit notes issued in it:
// table 7 (B2CS: B2C supplies by place of supply and rate), table 8 (EXEMP: the exempt printed
// books), table 12 (HSN summary) and table 13 (DOCS: the documents issued). A credit note counts,
// negatively, in the month it is issued, whatever month its invoice was in: that is how a B2C
// supply is amended in the return. Money stays integer paise until the CSV writes rupees.
import {
  B2CS_CSV_HEADER,
  DOCS_CSV_HEADER,
  EXEMP_CSV_HEADER,
  HSN_CSV_HEADER,
  paiseAsRupees,
  reportMonthLabel,
  toCsv,
  toCsvRows,
  type CsvCell,
} from '@persona/contracts';
import type { Invoice } from '../invoices/invoices.repository';
import { indianState, type SupplyKind, type SupplyType } from '../invoices/tax';

interface TaxAmounts {
  taxablePaise: number;
  igstPaise: number;
  cgstPaise: number;
  sgstPaise: number;
}

export interface B2csRow extends TaxAmounts {
  placeOfSupply: string;
  supplyType: SupplyType;
  rateBp: number;
}

export interface ExempRow {
  supplyType: SupplyType;
  /** Taxable at 0% (none today: kept apart from exempt, as the return asks). */
  nilRatedPaise: number;
  exemptPaise: number;
}

export interface HsnRow extends TaxAmounts {
  hsnSac: string;
  exempt: boolean;
  rateBp: number;
  /** The kinds of supply under the code, for its description. */
  kinds: SupplyKind[];
  /** Books invoiced: a credit note lowers the values, not the count (nothing is sent back). */
  quantity: number;
  /** Taxable value and tax: what the buyers paid. */
  totalPaise: number;
}

export interface DocsRow {
  nature: 'Invoices for outward supply' | 'Credit Note';
  from: string | null;
  to: string | null;
  count: number;
}

export interface GstReturn {
  year: number;
  month: number;
  b2cs: B2csRow[];
  exemp: ExempRow[];
  hsn: HsnRow[];
  docs: DocsRow[];
}

const KIND_WORDS: Record<SupplyKind, string> = { ebook: 'E-books', 'printed-book': 'Printed books', printing: 'printing', delivery: 'delivery' };
const KIND_ORDER: SupplyKind[] = ['ebook', 'printed-book', 'printing', 'delivery'];

/** The return's tables from the month's documents (invoicesOfMonth: invoices and credit notes issued in it). */
export function gstReturn(year: number, month: number, documents: readonly Invoice[]): GstReturn {
  const b2cs = new Map<string, B2csRow>();
  const exemp = new Map<SupplyType, ExempRow>([
    ['inter-state', { supplyType: 'inter-state', nilRatedPaise: 0, exemptPaise: 0 }],
    ['intra-state', { supplyType: 'intra-state', nilRatedPaise: 0, exemptPaise: 0 }],
  ]);
  const hsn = new Map<string, HsnRow>();
  for (const doc of documents) {
    const sign = doc.kind === 'credit-note' ? -1 : 1;
    for (const line of doc.lines) {
      const amounts = {
        taxablePaise: sign * line.taxablePaise,
        igstPaise: sign * line.igstPaise,
        cgstPaise: sign * line.cgstPaise,
        sgstPaise: sign * line.sgstPaise,
      };
      if (line.exempt) exemp.get(doc.supplyType)!.exemptPaise += amounts.taxablePaise;
      else if (line.rateBp === 0) exemp.get(doc.supplyType)!.nilRatedPaise += amounts.taxablePaise;
      else {
        const key = `${doc.placeOfSupply}:${String(line.rateBp).padStart(5, '0')}`;
        const row = b2cs.get(key) ?? { placeOfSupply: doc.placeOfSupply, supplyType: doc.supplyType, rateBp: line.rateBp, ...zero() };
        add(row, amounts);
        b2cs.set(key, row);
      }
      const key = `${line.hsnSac}:${line.exempt ? 1 : 0}:${String(line.rateBp).padStart(5, '0')}`;
      const row = hsn.get(key) ?? { hsnSac: line.hsnSac, exempt: line.exempt, rateBp: line.rateBp, kinds: [], quantity: 0, totalPaise: 0, ...zero() };
      add(row, amounts);
      row.totalPaise += sign * line.netPaise;
      if (!row.kinds.includes(line.kind)) row.kinds.push(line.kind);
      if (sign > 0 && (line.kind === 'ebook' || line.kind === 'printed-book')) row.quantity += 1;
      hsn.set(key, row);
    }
  }
  return {
    year,
    month,
    b2cs: sortedValues(b2cs),
    exemp: [...exemp.values()],
    hsn: sortedValues(hsn).map((row) => ({ ...row, kinds: KIND_ORDER.filter((kind) => row.kinds.includes(kind)) })),
    docs: [documentRange(documents, 'invoice'), documentRange(documents, 'credit-note')],
  };
}

/** A series' first and last number of the month and how many: consecutive with no gap (invoice-number.ts), none cancelled. */
function documentRange(documents: readonly Invoice[], kind: Invoice['kind']): DocsRow {
  const issued = documents.filter((d) => d.kind === kind).sort((a, b) => a.financialYear - b.financialYear || a.sequence - b.sequence);
  return {
    nature: kind === 'invoice' ? 'Invoices for outward supply' : 'Credit Note',
    from: issued[0]?.number ?? null,
    to: issued.at(-1)?.number ?? null,
    count: issued.length,
  };
}

/** The return's tables as one CSV, each table under a line naming it as GSTR-1 does (B2CS, EXEMP, HSN, DOCS), a blank line between. */
export function gstReturnCsv(gst: GstReturn, seller: { name: string; gstin: string }): string {
  const money = paiseAsRupees;
  const section = (name: string, title: string, header: readonly string[], rows: CsvCell[][]) => toCsvRows([[name, title]]) + toCsv(header, rows) + '\r\n';
  return (
    toCsvRows([
      [
        'GSTR-1',
        `${seller.name}, GSTIN ${seller.gstin}`,
        reportMonthLabel(gst.year, gst.month),
        'Amounts in rupees; credit notes net off in the month they are issued',
      ],
    ]) +
    '\r\n' +
    section(
      'B2CS',
      '7. Taxable supplies to unregistered persons (B2C others), by place of supply and rate',
      B2CS_CSV_HEADER,
      gst.b2cs.map((row) => [
        'OE',
        placeOfSupply(row.placeOfSupply),
        row.supplyType === 'intra-state' ? 'Intra State' : 'Inter State',
        rate(row.rateBp),
        money(row.taxablePaise),
        money(row.igstPaise),
        money(row.cgstPaise),
        money(row.sgstPaise),
        money(0),
      ]),
    ) +
    section(
      'EXEMP',
      '8. Nil rated, exempted and non-GST outward supplies',
      EXEMP_CSV_HEADER,
      gst.exemp.map((row) => [
        `${row.supplyType === 'inter-state' ? 'Inter-State' : 'Intra-State'} supplies to unregistered persons`,
        money(row.nilRatedPaise),
        money(row.exemptPaise),
        money(0),
      ]),
    ) +
    section(
      'HSN',
      '12. HSN-wise summary of outward supplies',
      HSN_CSV_HEADER,
      gst.hsn.map((row) => [
        row.hsnSac,
        describe(row),
        // SAC (services) begin with 99 and are counted in no unit; books are counted in numbers.
        row.hsnSac.startsWith('99') ? 'NA' : 'NOS-NUMBERS',
        row.quantity,
        money(row.totalPaise),
        rate(row.rateBp),
        money(row.taxablePaise),
        money(row.igstPaise),
        money(row.cgstPaise),
        money(row.sgstPaise),
        money(0),
      ]),
    ) +
    section(
      'DOCS',
      '13. Documents issued during the tax period',
      DOCS_CSV_HEADER,
      gst.docs.map((row) => [row.nature, row.from, row.to, row.count, 0, row.count]),
    )
  );
}

function describe(row: HsnRow): string {
  const words = row.kinds.map((kind) => KIND_WORDS[kind]).join(', ');
  return row.exempt ? `${words} (exempt)` : words;
}

/** "29-Karnataka", as the return's place of supply reads. */
function placeOfSupply(code: string): string {
  return `${code}-${indianState(code).name}`;
}

/** Basis points as the return's rate: 500 → "5", 250 → "2.5". */
function rate(rateBp: number): string {
  return String(rateBp / 100);
}

function zero(): TaxAmounts {
  return { taxablePaise: 0, igstPaise: 0, cgstPaise: 0, sgstPaise: 0 };
}

function add(row: TaxAmounts, amounts: TaxAmounts): void {
  row.taxablePaise += amounts.taxablePaise;
  row.igstPaise += amounts.igstPaise;
  row.cgstPaise += amounts.cgstPaise;
  row.sgstPaise += amounts.sgstPaise;
}

function sortedValues<T>(rows: Map<string, T>): T[] {
  return [...rows.keys()].sort().map((key) => rows.get(key)!);
}
