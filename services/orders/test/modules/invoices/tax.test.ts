// The GST of an order from tax-inclusive prices in paise: the exact taxable values and taxes of
// intra-state, inter-state, digital, printed and discounted orders; for any amounts and rates,
// taxable value plus taxes is what the buyer paid, to the paisa; totals per rate, the HSN summary,
// a refund's share of each line; and the states' GST codes and GSTINs.
import {
  apportionRefund,
  computeOrderTax,
  DEFAULT_TAX_CONFIG,
  hsnSummary,
  INDIAN_STATES,
  isValidGstin,
  stateTaxName,
  sumTaxLines,
  totalsPerRate,
  type SupplyKind,
  type SupplyLine,
  type TaxConfig,
  type TaxedSupply,
} from '../../../src/modules/invoices/tax';
import { DIGITAL_ORDER, MIXED_ORDER, taxOf } from './fixtures';

const ebook = (grossPaise: number, discountPaise = 0): SupplyLine => ({ kind: 'ebook', description: 'Gitanjali, e-book', grossPaise, discountPaise });
const taxesOf = (tax: TaxedSupply) =>
  tax.lines.map(({ taxablePaise, rateBp, exempt, cgstPaise, sgstPaise, igstPaise }) => ({ taxablePaise, rateBp, exempt, cgstPaise, sgstPaise, igstPaise }));

describe('the GST of an order', () => {
  it('splits an e-book sold within the seller’s state into CGST and SGST at 2.5% each', () => {
    // ₹349.50 with 5% in it: 332.86 taxable (349.50 / 1.05 = 332.857…), 16.64 tax.
    const tax = taxOf([ebook(34950)], '29');
    expect(tax.supplyType).toBe('intra-state');
    expect(taxesOf(tax)).toEqual([{ taxablePaise: 33286, rateBp: 500, exempt: false, cgstPaise: 832, sgstPaise: 832, igstPaise: 0 }]);
    expect(tax.lines[0]).toMatchObject({ hsnSac: '9984', grossPaise: 34950, discountPaise: 0, netPaise: 34950 });
    expect(tax.totals).toEqual({
      grossPaise: 34950,
      discountPaise: 0,
      taxablePaise: 33286,
      exemptPaise: 0,
      cgstPaise: 832,
      sgstPaise: 832,
      igstPaise: 0,
      totalPaise: 34950,
    });
  });

  it('charges IGST on an e-book sold to another state, with the same taxable value', () => {
    const tax = taxOf([ebook(34950)], '27');
    expect(tax.supplyType).toBe('inter-state');
    expect(taxesOf(tax)).toEqual([{ taxablePaise: 33286, rateBp: 500, exempt: false, cgstPaise: 0, sgstPaise: 0, igstPaise: 1664 }]);
  });

  it('gives CGST the odd paisa of a tax that does not halve', () => {
    // ₹100.10: 95.33 taxable (95.333…), 4.77 tax: 2.39 CGST + 2.38 SGST.
    expect(taxesOf(taxOf([ebook(10010)], '29'))).toEqual([{ taxablePaise: 9533, rateBp: 500, exempt: false, cgstPaise: 239, sgstPaise: 238, igstPaise: 0 }]);
  });

  it('takes the discount off before the tax: the tax is on what the buyer paid', () => {
    // ₹349.50 less a ₹35 coupon is ₹314.50: 299.52 taxable (299.523…), 14.98 tax.
    const tax = taxOf([ebook(34950, 3500)], '29');
    expect(tax.lines[0]).toMatchObject({ grossPaise: 34950, discountPaise: 3500, netPaise: 31450, taxablePaise: 29952, cgstPaise: 749, sgstPaise: 749 });
    expect(tax.totals).toMatchObject({ grossPaise: 34950, discountPaise: 3500, totalPaise: 31450 });
    const inter = taxOf(DIGITAL_ORDER, '32');
    // ₹1,296.25 less ₹100: 1,196.25 paid, 1,139.29 taxable (1,139.2857…), 56.96 IGST.
    expect(inter.lines[0]).toMatchObject({ netPaise: 119625, taxablePaise: 113929, igstPaise: 5696 });
  });

  it('marks a printed book exempt under HSN 4901, with its printing and delivery exempt with it', () => {
    const tax = taxOf(
      [
        { kind: 'printed-book', description: 'The Jungle Book, hardback', grossPaise: 59900 },
        { kind: 'printing', description: 'Printing', grossPaise: 12000 },
        { kind: 'delivery', description: 'Delivery', grossPaise: 6000, discountPaise: 6000 },
      ],
      '32',
    );
    expect(tax.lines.map((line) => [line.hsnSac, line.exempt, line.rateBp, line.taxablePaise, line.igstPaise])).toEqual([
      ['4901', true, 0, 59900, 0],
      ['4901', true, 0, 12000, 0],
      ['4901', true, 0, 0, 0],
    ]);
    expect(tax.totals).toEqual({
      grossPaise: 77900,
      discountPaise: 6000,
      taxablePaise: 0,
      exemptPaise: 71900,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 0,
      totalPaise: 71900,
    });
  });

  it('taxes an order with an e-book and a printed copy line by line, printing and delivery following the book they belong to', () => {
    const tax = taxOf(MIXED_ORDER, '29');
    expect(tax.lines.map((line) => [line.kind, line.hsnSac, line.exempt, line.taxablePaise, line.cgstPaise, line.sgstPaise])).toEqual([
      ['ebook', '9984', false, 29952, 749, 749],
      ['printed-book', '4901', true, 59900, 0, 0],
      ['printing', '4901', true, 12000, 0, 0],
      ['delivery', '4901', true, 6000, 0, 0],
    ]);
    expect(tax.totals).toEqual({
      grossPaise: 112850,
      discountPaise: 3500,
      taxablePaise: 29952,
      exemptPaise: 77900,
      cgstPaise: 749,
      sgstPaise: 749,
      igstPaise: 0,
      totalPaise: 109350,
    });
  });

  it('asks which book a charge belongs to when the order has both kinds, and refuses a charge with no book', () => {
    const both = [ebook(34950), { kind: 'printed-book' as const, description: 'Hardback', grossPaise: 59900 }];
    expect(() => taxOf([...both, { kind: 'delivery', description: 'Delivery', grossPaise: 6000 }], '29')).toThrow(/must name the book it belongs to/);
    expect(() => taxOf([{ kind: 'delivery', description: 'Delivery', grossPaise: 6000 }], '29')).toThrow(/the order has no book/);
    expect(() => taxOf([...both, { kind: 'delivery', description: 'Delivery', grossPaise: 6000, belongsTo: 2 }], '29')).toThrow(/is not a book/);
    // Named, a charge takes its book's treatment, here the e-book's 5%.
    const named = taxOf([...both, { kind: 'printing', description: 'A printed certificate', grossPaise: 10500, belongsTo: 0 }], '29');
    expect(named.lines[2]).toMatchObject({ hsnSac: '9984', exempt: false, taxablePaise: 10000, cgstPaise: 250, sgstPaise: 250 });
  });

  it('takes the rates and codes from its configuration, and a line’s own code when it has one', () => {
    const config: TaxConfig = { ...DEFAULT_TAX_CONFIG, ebook: { hsnSac: '998431', rateBp: 1800, exempt: false } };
    const tax = computeOrderTax({ lines: [{ ...ebook(11800), hsnSac: '99843100' }], sellerStateCode: '29', placeOfSupply: '07' }, config);
    expect(tax.lines[0]).toMatchObject({ hsnSac: '99843100', rateBp: 1800, taxablePaise: 10000, igstPaise: 1800 });
    expect(() =>
      computeOrderTax(
        { lines: [ebook(100)], sellerStateCode: '29', placeOfSupply: '29' },
        { ...config, ebook: { hsnSac: '9984', rateBp: 5.5, exempt: false } },
      ),
    ).toThrow(/basis points/);
    expect(() =>
      computeOrderTax(
        { lines: [ebook(100)], sellerStateCode: '29', placeOfSupply: '29' },
        { ...config, 'printed-book': { hsnSac: '4901', rateBp: 500, exempt: true } },
      ),
    ).toThrow(/an exempt printed-book has no rate/);
  });

  it('refuses amounts that are not whole paise, discounts above the price, unknown states and codes', () => {
    expect(() => taxOf([ebook(349.5)], '29')).toThrow(/whole paise/);
    expect(() => taxOf([ebook(100, 101)], '29')).toThrow(/discount/);
    expect(() => taxOf([ebook(-1)], '29')).toThrow(/whole paise/);
    expect(() => taxOf([ebook(100)], '28')).toThrow(/"28" is not the GST code/);
    expect(() => taxOf([ebook(100)], '99')).toThrow(/"99" is not the GST code/);
    expect(() => taxOf([{ ...ebook(100), hsnSac: '99A4' }], '29')).toThrow(/HSN or SAC/);
    expect(() => taxOf([], '29')).toThrow(/at least one supply/);
  });

  it('never loses or makes a paisa, whatever the amounts, discounts, rates and states (2,000 random orders)', () => {
    const random = seededRandom(0x9e3779b9);
    const int = (max: number) => Math.floor(random() * (max + 1));
    const codes = INDIAN_STATES.map((state) => state.code);
    const problems: string[] = [];
    for (let run = 0; run < 2000; run += 1) {
      const config: TaxConfig = {
        ebook: { hsnSac: '9984', rateBp: [0, 5, 100, 250, 500, 1200, 1800, 2800, 4000][int(8)]!, exempt: false },
        'printed-book': random() < 0.8 ? { hsnSac: '4901', rateBp: 0, exempt: true } : { hsnSac: '4901', rateBp: int(2800), exempt: false },
      };
      const lines = Array.from({ length: 1 + int(5) }, (): SupplyLine => {
        const kind = (['ebook', 'printed-book', 'printing', 'delivery'] as SupplyKind[])[int(3)]!;
        const grossPaise = [int(100), int(100_000), int(10_000_000_000)][int(2)]!;
        return {
          kind,
          description: kind,
          grossPaise,
          discountPaise: random() < 0.3 ? int(grossPaise) : 0,
          belongsTo: kind === 'printing' || kind === 'delivery' ? 0 : undefined,
        };
      });
      lines[0] = { ...lines[0]!, kind: random() < 0.5 ? 'ebook' : 'printed-book', belongsTo: undefined };
      const sellerStateCode = codes[int(codes.length - 1)]!;
      const placeOfSupply = random() < 0.5 ? sellerStateCode : codes[int(codes.length - 1)]!;
      const tax = computeOrderTax({ lines, sellerStateCode, placeOfSupply }, config);

      problems.push(...paisaProblems(tax, lines).map((problem) => `run ${run}: ${problem} in ${JSON.stringify(lines)}`));
      if (tax.totals.totalPaise > 0) {
        const refund = apportionRefund(tax, 1 + int(tax.totals.totalPaise - 1));
        problems.push(...paisaProblems(refund, refund.lines).map((problem) => `run ${run}, refund: ${problem}`));
      }
    }
    expect(problems).toEqual([]);
  });
});

/** What is wrong with a taxed order's paise: each line and the totals must add up exactly, in whole non-negative paise, taxes in their place. */
function paisaProblems(tax: TaxedSupply, input: readonly SupplyLine[]): string[] {
  const problems: string[] = [];
  tax.lines.forEach((line, i) => {
    const amounts = [line.taxablePaise, line.cgstPaise, line.sgstPaise, line.igstPaise];
    if (amounts.some((amount) => !Number.isSafeInteger(amount) || amount < 0)) problems.push(`line ${i} has amounts ${amounts.join(', ')}`);
    if (amounts.reduce((a, b) => a + b, 0) !== line.netPaise) problems.push(`line ${i}: taxable + taxes ${amounts.join(' + ')} is not ${line.netPaise}`);
    if (line.netPaise !== input[i]!.grossPaise - (input[i]!.discountPaise ?? 0)) problems.push(`line ${i}: net ${line.netPaise} is not price less discount`);
    // Taxable = net ÷ (1 + rate) rounded to the paisa: the tax is within half a paisa of rate × taxable (in units of 1/10,000).
    if (Math.abs((line.netPaise - line.taxablePaise) * 10_000 - line.taxablePaise * line.rateBp) > (10_000 + line.rateBp) / 2)
      problems.push(`line ${i}: tax is not the rate's`);
    if (tax.supplyType === 'intra-state' && (line.igstPaise !== 0 || ![0, 1].includes(line.cgstPaise - line.sgstPaise)))
      problems.push(`line ${i}: CGST/SGST ${line.cgstPaise}/${line.sgstPaise}, IGST ${line.igstPaise}`);
    if (tax.supplyType === 'inter-state' && line.cgstPaise + line.sgstPaise !== 0) problems.push(`line ${i}: CGST or SGST on an inter-state supply`);
    if (line.exempt && line.taxablePaise !== line.netPaise) problems.push(`line ${i}: exempt, but taxed`);
  });
  const t = tax.totals;
  if (t.taxablePaise + t.exemptPaise + t.cgstPaise + t.sgstPaise + t.igstPaise !== t.totalPaise) problems.push('the totals do not add up');
  if (t.grossPaise - t.discountPaise !== t.totalPaise) problems.push('the total is not price less discount');
  for (const summary of [totalsPerRate(tax.lines), hsnSummary(tax.lines)]) {
    if (summary.reduce((sum, row) => sum + row.totalPaise, 0) !== t.totalPaise) problems.push('a summary loses paise');
    if (summary.reduce((sum, row) => sum + row.cgstPaise + row.sgstPaise + row.igstPaise, 0) !== t.cgstPaise + t.sgstPaise + t.igstPaise)
      problems.push('a summary loses tax');
  }
  return problems;
}

describe('totals per rate and the HSN summary', () => {
  it('adds the lines up per rate, exempt apart from taxed, and per HSN/SAC code', () => {
    const lines = taxOf([...MIXED_ORDER, { kind: 'ebook', description: 'Second e-book', grossPaise: 21000 }], '29').lines;
    expect(totalsPerRate(lines)).toEqual([
      { rateBp: 500, exempt: false, taxablePaise: 29952 + 20000, cgstPaise: 749 + 500, sgstPaise: 749 + 500, igstPaise: 0, totalPaise: 31450 + 21000 },
      { rateBp: 0, exempt: true, taxablePaise: 77900, cgstPaise: 0, sgstPaise: 0, igstPaise: 0, totalPaise: 77900 },
    ]);
    expect(hsnSummary(lines)).toEqual([
      { hsnSac: '4901', rateBp: 0, exempt: true, taxablePaise: 77900, cgstPaise: 0, sgstPaise: 0, igstPaise: 0, totalPaise: 77900 },
      { hsnSac: '9984', rateBp: 500, exempt: false, taxablePaise: 49952, cgstPaise: 1249, sgstPaise: 1249, igstPaise: 0, totalPaise: 52450 },
    ]);
  });
});

describe('a refund as a credit note’s supplies', () => {
  it('gives back exactly the invoice’s taxable values and taxes when it refunds everything', () => {
    const invoice = taxOf(MIXED_ORDER, '29');
    const refund = apportionRefund(invoice, invoice.totals.totalPaise);
    expect(taxesOf(refund)).toEqual(taxesOf(invoice));
    expect(refund.totals).toEqual({ ...invoice.totals, grossPaise: invoice.totals.totalPaise, discountPaise: 0 });
  });

  it('shares a part refund over the lines in proportion, to the paisa, each taxed as its line was', () => {
    const invoice = taxOf(MIXED_ORDER, '29');
    // ₹100 of ₹1,093.50: 28.76 of the e-book's 314.50, 54.78 + 10.97 + 5.49 of the exempt lines.
    const refund = apportionRefund(invoice, 10000);
    expect(refund.lines.map((line) => [line.kind, line.netPaise, line.exempt, line.taxablePaise, line.cgstPaise, line.sgstPaise])).toEqual([
      ['ebook', 2876, false, 2739, 69, 68],
      ['printed-book', 5478, true, 5478, 0, 0],
      ['printing', 1097, true, 1097, 0, 0],
      ['delivery', 549, true, 549, 0, 0],
    ]);
    expect(refund.totals.totalPaise).toBe(10000);
    expect(refund.placeOfSupply).toBe('29');
  });

  it('refuses a refund of nothing or of more than the invoice', () => {
    const invoice = taxOf(DIGITAL_ORDER, '32');
    expect(() => apportionRefund(invoice, 0)).toThrow(RangeError);
    expect(() => apportionRefund(invoice, invoice.totals.totalPaise + 1)).toThrow(RangeError);
    expect(() => apportionRefund(invoice, 10.5)).toThrow(RangeError);
  });
});

describe('states and GSTINs', () => {
  it('lists the 28 states and 8 union territories with their GST codes, once each', () => {
    expect(INDIAN_STATES.filter((s) => s.kind === 'state')).toHaveLength(28);
    expect(INDIAN_STATES.filter((s) => s.kind === 'union-territory')).toHaveLength(8);
    expect(new Set(INDIAN_STATES.map((s) => s.code)).size).toBe(INDIAN_STATES.length);
    expect(INDIAN_STATES.find((s) => s.code === '29')?.name).toBe('Karnataka');
    expect(INDIAN_STATES.find((s) => s.code === '27')?.name).toBe('Maharashtra');
    expect(INDIAN_STATES.find((s) => s.code === '37')?.name).toBe('Andhra Pradesh');
  });

  it('calls the state half UTGST in a union territory without a legislature', () => {
    expect(stateTaxName('29')).toBe('SGST');
    expect(stateTaxName('07')).toBe('SGST');
    expect(stateTaxName('04')).toBe('UTGST');
    expect(stateTaxName('38')).toBe('UTGST');
  });

  it('checks a GSTIN’s shape, state and check character', () => {
    expect(isValidGstin('27AAPFU0939F1ZV')).toBe(true);
    expect(isValidGstin('29AAACP1234A1Z1')).toBe(true);
    expect(isValidGstin('27AAPFU0939F1ZW')).toBe(false);
    expect(isValidGstin('27AAPFU0939F1Z')).toBe(false);
    expect(isValidGstin('99AAPFU0939F1ZV')).toBe(false);
    expect(isValidGstin('27aapfu0939f1zv')).toBe(false);
  });
});

describe('sumTaxLines', () => {
  it('adds nothing up to zero', () => {
    expect(sumTaxLines([])).toEqual({
      grossPaise: 0,
      discountPaise: 0,
      taxablePaise: 0,
      exemptPaise: 0,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 0,
      totalPaise: 0,
    });
  });
});

/** mulberry32: the same 2,000 orders on every run, so a failure names a run that can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
