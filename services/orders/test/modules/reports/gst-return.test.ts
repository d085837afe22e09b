// The month's GSTR-1 tables from crafted documents: an intra-state order with an e-book and an
// exempt printed copy, an inter-state e-book, and a credit note issued this month for an invoice
// of the month before, netted off where it was issued.
import { apportionRefund } from '../../../src/modules/invoices/tax';
import { gstReturn, gstReturnCsv } from '../../../src/modules/reports/gst-return';
import { DIGITAL_ORDER, invoiceOf, MIXED_ORDER, SELLER, taxOf } from '../invoices/fixtures';

const november = (day: number) => new Date(Date.UTC(2026, 10, day, 6, 30));
const intraState = invoiceOf(taxOf(MIXED_ORDER, '29'), { id: 'a1', number: 'PB/26-27/000123', sequence: 123, issuedAt: november(3) });
const interState = invoiceOf(taxOf(DIGITAL_ORDER, '32'), { id: 'a2', number: 'PB/26-27/000124', sequence: 124, issuedAt: november(9) });
/** October's invoice, refunded in part in November: its credit note is November's. */
const octoberInvoice = invoiceOf(taxOf(DIGITAL_ORDER, '32'), { id: 'a0', number: 'PB/26-27/000097', sequence: 97, issuedAt: new Date('2026-10-20T06:30:00Z') });
const creditNote = invoiceOf(apportionRefund(taxOf(DIGITAL_ORDER, '32'), 21_000), {
  id: 'c1',
  kind: 'credit-note',
  number: 'PBCN/26-27/00007',
  sequence: 7,
  issuedAt: november(14),
  credits: { id: octoberInvoice.id, number: octoberInvoice.number, issuedAt: octoberInvoice.issuedAt },
  refundId: 'r1',
});

describe('the GST return of a month', () => {
  const gst = gstReturn(2026, 11, [interState, creditNote, intraState]);

  it('sums taxed B2C supplies by place of supply and rate, CGST + SGST within the state and IGST outside, less the credit notes issued in the month', () => {
    expect(gst.b2cs).toEqual([
      // E-book 314.50 after its coupon: 299.52 taxable and 14.98 tax, split 7.49 + 7.49.
      { placeOfSupply: '29', supplyType: 'intra-state', rateBp: 500, taxablePaise: 29_952, igstPaise: 0, cgstPaise: 749, sgstPaise: 749 },
      // 1196.25 (1139.29 + 56.96) less the credit note's 210.00 (200.00 + 10.00).
      { placeOfSupply: '32', supplyType: 'inter-state', rateBp: 500, taxablePaise: 113_929 - 20_000, igstPaise: 5_696 - 1_000, cgstPaise: 0, sgstPaise: 0 },
    ]);
  });

  it('keeps the exempt printed copy, its printing and delivery out of the taxed supplies, as exempt', () => {
    expect(gst.exemp).toEqual([
      { supplyType: 'inter-state', nilRatedPaise: 0, exemptPaise: 0 },
      { supplyType: 'intra-state', nilRatedPaise: 0, exemptPaise: 59_900 + 12_000 + 6_000 },
    ]);
    expect(gst.hsn).toEqual([
      {
        hsnSac: '4901',
        exempt: true,
        rateBp: 0,
        kinds: ['printed-book', 'printing', 'delivery'],
        quantity: 1,
        totalPaise: 77_900,
        taxablePaise: 77_900,
        igstPaise: 0,
        cgstPaise: 0,
        sgstPaise: 0,
      },
      {
        hsnSac: '9984',
        exempt: false,
        rateBp: 500,
        kinds: ['ebook'],
        // Two e-books invoiced; the credit note lowers the values, not the count.
        quantity: 2,
        totalPaise: 31_450 + 119_625 - 21_000,
        taxablePaise: 29_952 + 113_929 - 20_000,
        igstPaise: 5_696 - 1_000,
        cgstPaise: 749,
        sgstPaise: 749,
      },
    ]);
  });

  it('lists the documents issued: each series from its first number to its last, none cancelled', () => {
    expect(gst.docs).toEqual([
      { nature: 'Invoices for outward supply', from: 'PB/26-27/000123', to: 'PB/26-27/000124', count: 2 },
      { nature: 'Credit Note', from: 'PBCN/26-27/00007', to: 'PBCN/26-27/00007', count: 1 },
    ]);
    expect(gstReturn(2026, 12, []).docs).toEqual([
      { nature: 'Invoices for outward supply', from: null, to: null, count: 0 },
      { nature: 'Credit Note', from: null, to: null, count: 0 },
    ]);
  });

  it('writes one CSV with the sections named as GSTR-1 names them, rupees with two decimals', () => {
    const csv = gstReturnCsv(gst, SELLER);
    expect(csv.endsWith('\r\n')).toBe(true);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'GSTR-1,"Persona Books Private Limited, GSTIN 29AAACP1234A1Z1",November 2026,Amounts in rupees; credit notes net off in the month they are issued',
    );
    const after = (name: string, count: number) => lines.slice(lines.findIndex((l) => l.startsWith(`${name},`)) + 1).slice(0, count);
    expect(after('B2CS', 3)).toEqual([
      'Type,Place Of Supply,Supply Type,Rate,Taxable Value,Integrated Tax Amount,Central Tax Amount,State/UT Tax Amount,Cess Amount',
      'OE,29-Karnataka,Intra State,5,299.52,0.00,7.49,7.49,0.00',
      'OE,32-Kerala,Inter State,5,939.29,46.96,0.00,0.00,0.00',
    ]);
    expect(after('EXEMP', 3)).toEqual([
      'Description,Nil Rated Supplies,Exempted (other than nil rated/non GST supply),Non-GST Supplies',
      'Inter-State supplies to unregistered persons,0.00,0.00,0.00',
      'Intra-State supplies to unregistered persons,0.00,779.00,0.00',
    ]);
    expect(after('HSN', 3)).toEqual([
      'HSN,Description,UQC,Total Quantity,Total Value,Rate,Taxable Value,Integrated Tax Amount,Central Tax Amount,State/UT Tax Amount,Cess Amount',
      '4901,"Printed books, printing, delivery (exempt)",NOS-NUMBERS,1,779.00,0,779.00,0.00,0.00,0.00,0.00',
      '9984,E-books,NA,2,1300.75,5,1238.81,46.96,7.49,7.49,0.00',
    ]);
    expect(after('DOCS', 4)).toEqual([
      'Nature of Document,Sr. No. From,Sr. No. To,Total Number,Cancelled,Net Issued',
      'Invoices for outward supply,PB/26-27/000123,PB/26-27/000124,2,0,2',
      'Credit Note,PBCN/26-27/00007,PBCN/26-27/00007,1,0,1',
      '',
    ]);
  });

  it('shows a month of credit notes only as negative values', () => {
    const csv = gstReturnCsv(gstReturn(2026, 11, [creditNote]), SELLER);
    expect(csv).toContain('OE,32-Kerala,Inter State,5,-200.00,-10.00,0.00,0.00,0.00');
  });
});
