// The invoice PDF as a reader sees it (poppler's pdftotext -layout): the heading Rule 46A asks
// for, the number, the seller's GSTIN, each line's HSN/SAC, taxable value, rate and taxes in
// rupees with Indian digit grouping, exempt lines marked, the totals; a credit note citing its
// invoice; and the same bytes every time it is rendered.
import { popplerPageTexts } from '@persona/test-kit';
import { PDFDocument } from 'pdf-lib';
import { amountInWords, documentTitle, formatIstDate, formatRate, formatRupees, renderInvoicePdf } from '../../../src/modules/invoices/invoice-pdf';
import { apportionRefund } from '../../../src/modules/invoices/tax';
import { DIGITAL_ORDER, invoiceOf, MIXED_ORDER, taxOf } from './fixtures';

const layoutText = async (pdf: Uint8Array) => (await popplerPageTexts(pdf, 'layout')).join('\n');

describe('the invoice PDF', () => {
  it('prints an intra-state invoice-cum-bill of supply: seller, number, date, buyer, place of supply, CGST and SGST per line, exempt lines marked', async () => {
    const tax = taxOf(MIXED_ORDER, '29');
    const text = await layoutText(await renderInvoicePdf(invoiceOf(tax)));

    expect(text).toContain('Persona Books Private Limited');
    expect(text).toContain('Invoice-cum-Bill of Supply');
    expect(text).toContain('GSTIN: 29AAACP1234A1Z1');
    expect(text).toContain('Invoice no.: PB/26-27/000123');
    expect(text).toContain('Date: 2 January 2027');
    expect(text).toContain('Zoë Ünal');
    expect(text).toContain('Place of supply: Karnataka (29)');
    expect(text).toContain('Tax payable on reverse charge: No');
    // The e-book: 349.50 less 35.00 is 314.50, of which 299.52 taxable and 7.49 + 7.49 tax.
    expect(text).toMatch(/9984 349\.50 −35\.00 299\.52 5% 7\.49 7\.49 314\.50/);
    // The printed book, its printing and its delivery: exempt, under the book's HSN 4901.
    expect(text).toMatch(/4901 599\.00 – 599\.00 Exempt – – 599\.00/);
    expect(text).toMatch(/4901 120\.00 – 120\.00 Exempt – – 120\.00/);
    expect(text).toMatch(/4901 60\.00 – 60\.00 Exempt – – 60\.00/);
    expect(text).toContain('@ 2.5%');
    expect(text).toMatch(/Less discount −₹35\.00/);
    expect(text).toMatch(/Taxable value ₹299\.52/);
    expect(text).toMatch(/Exempt value ₹779\.00/);
    expect(text).toMatch(/CGST ₹7\.49/);
    expect(text).toMatch(/SGST ₹7\.49/);
    expect(text).toMatch(/Total \(GST included\) ₹1,093\.50/);
    expect(text).toContain('Amount in words: Rupees One Thousand Ninety-Three and Fifty Paise Only.');
    expect(text).toContain('Prices include GST.');
    expect(text).toContain('This is a computer-generated document and needs no signature.');
    expect(text).not.toContain('IGST');
  });

  it('prints an inter-state tax invoice with IGST, and amounts over a thousand rupees grouped', async () => {
    const tax = taxOf(DIGITAL_ORDER, '32');
    const text = await layoutText(await renderInvoicePdf(invoiceOf(tax, { number: 'PB/26-27/000124' })));

    expect(text).toContain('Tax Invoice');
    expect(text).not.toContain('Bill of Supply');
    expect(text).toContain('PB/26-27/000124');
    expect(text).toContain('Place of supply: Kerala (32)');
    expect(text).toContain('Supply: inter-state (IGST)');
    // 1,296.25 less 100.00 is 1,196.25: 1,139.29 taxable and 56.96 IGST at 5%.
    expect(text).toMatch(/9984 1,296\.25 −100\.00 1,139\.29 5% 56\.96 1,196\.25/);
    expect(text).toMatch(/IGST ₹56\.96/);
    expect(text).toMatch(/Total \(GST included\) ₹1,196\.25/);
    expect(text).not.toMatch(/\bCGST\b/);
  });

  it('prints a credit note citing the invoice it credits, its number and date', async () => {
    const invoiceTax = taxOf(DIGITAL_ORDER, '32');
    const credited = apportionRefund(invoiceTax, 50000);
    const note = invoiceOf(credited, {
      kind: 'credit-note',
      number: 'PBCN/26-27/00007',
      issuedAt: new Date('2027-02-10T10:00:00Z'),
      credits: { id: '0b8f5a52-7c1e-4d7e-9a51-3f0c2d9e8b71', number: 'PB/26-27/000124', issuedAt: new Date('2027-01-02T06:30:00Z') },
      refundId: 'rfnd_QX3mT8cYb2Lk9a',
    });
    const text = await layoutText(await renderInvoicePdf(note));

    expect(text).toContain('Credit Note');
    expect(text).toContain('Credit note no.: PBCN/26-27/00007');
    expect(text).toContain('Date: 10 February 2027');
    expect(text).toContain('Against invoice PB/26-27/000124');
    expect(text).toContain('of 2 January 2027');
    expect(text).toContain('Refund: rfnd_QX3mT8cYb2Lk9a');
    // 500.00 credited: 476.19 taxable and 23.81 IGST.
    expect(text).toMatch(/9984 500\.00 – 476\.19 5% 23\.81 500\.00/);
    expect(text).toMatch(/Total credited ₹500\.00/);
  });

  it('gives the same bytes for the same document, dated with its own date', async () => {
    const invoice = invoiceOf(taxOf(MIXED_ORDER, '29'));
    const [first, second] = [await renderInvoicePdf(invoice), await renderInvoicePdf(invoice)];
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(true);
    const read = await PDFDocument.load(first, { updateMetadata: false });
    expect(read.getCreationDate()).toEqual(invoice.issuedAt);
    expect(read.getModificationDate()).toEqual(invoice.issuedAt);
    expect(read.getTitle()).toBe('Invoice-cum-Bill of Supply PB/26-27/000123');
  });

  it('wraps a long description and a long name inside their columns, and goes on to a second page when the lines do not fit', async () => {
    const many = Array.from({ length: 20 }, (_, i) => ({
      kind: 'ebook' as const,
      description: `A very long personalised title number ${i + 1} with a subtitle that goes on and on, Supercalifragilisticexpialidocious`,
      grossPaise: 10000 + i,
    }));
    const text = await popplerPageTexts(await renderInvoicePdf(invoiceOf(taxOf(many, '27'))), 'layout');
    expect(text).toHaveLength(2);
    expect(text[0]).toContain('Page 1 of 2');
    expect(text[1]).toContain('Page 2 of 2');
    // The table's header row again at the top of the second page.
    expect(text[1]).toMatch(/# Description HSN\/SAC/);
    expect(text[1]).toMatch(/Total \(GST included\)/);
  });
});

describe('the words and figures on an invoice', () => {
  it('groups rupees the Indian way', () => {
    expect(formatRupees(0)).toBe('0.00');
    expect(formatRupees(5)).toBe('0.05');
    expect(formatRupees(123450)).toBe('1,234.50');
    expect(formatRupees(9999999)).toBe('99,999.99');
    expect(formatRupees(12345678)).toBe('1,23,456.78');
    expect(formatRupees(123456789012)).toBe('1,23,45,67,890.12');
    expect(formatRupees(-3500)).toBe('−35.00');
  });

  it('says amounts in words with lakhs and crores', () => {
    expect(amountInWords(0)).toBe('Rupees Zero Only');
    expect(amountInWords(100)).toBe('Rupees One Only');
    expect(amountInWords(109350)).toBe('Rupees One Thousand Ninety-Three and Fifty Paise Only');
    expect(amountInWords(5)).toBe('Rupees Zero and Five Paise Only');
    expect(amountInWords(12345678)).toBe('Rupees One Lakh Twenty-Three Thousand Four Hundred Fifty-Six and Seventy-Eight Paise Only');
    expect(amountInWords(1_500_000_000_00)).toBe('Rupees One Hundred Fifty Crore Only');
    expect(amountInWords(2_000_000_000_000)).toBe('Rupees Two Thousand Crore Only');
  });

  it('writes rates and dates as an Indian reader expects', () => {
    expect(formatRate(500)).toBe('5%');
    expect(formatRate(250)).toBe('2.5%');
    expect(formatRate(1250)).toBe('12.5%');
    expect(formatRate(9)).toBe('0.09%');
    // 31 March 20:00 UTC is already 1 April in India.
    expect(formatIstDate(new Date('2027-03-31T20:00:00Z'))).toBe('1 April 2027');
  });

  it('calls a document what its lines make it', () => {
    const exempt = taxOf([{ kind: 'printed-book', description: 'Hardback', grossPaise: 59900 }], '29').lines;
    const taxed = taxOf(DIGITAL_ORDER, '29').lines;
    expect(documentTitle({ kind: 'invoice', lines: [...taxed, ...exempt] })).toBe('Invoice-cum-Bill of Supply');
    expect(documentTitle({ kind: 'invoice', lines: taxed })).toBe('Tax Invoice');
    expect(documentTitle({ kind: 'invoice', lines: exempt })).toBe('Bill of Supply');
    expect(documentTitle({ kind: 'credit-note', lines: taxed })).toBe('Credit Note');
  });
});
