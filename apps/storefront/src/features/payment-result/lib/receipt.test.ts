import type { Receipt } from '@persona/contracts';
import { readReceipt, receiptView } from './receipt';

const digital: Receipt = {
  book: { title: 'Gitanjali', author: 'Rabindranath Tagore' },
  deliveryType: 'digital',
  amountPaid: 349.5,
  breakdown: { base: 349.5, printing: 0, delivery: 0 },
  email: 'zoe@example.com',
  address: null,
  paidAt: '2026-11-25T06:00:00.000Z',
  gift: null,
};
const printed: Receipt = {
  ...digital,
  deliveryType: 'physical',
  amountPaid: 519.5,
  breakdown: { base: 349.5, printing: 120, delivery: 50 },
  address: { line1: '12 MG Road', city: 'Bengaluru', zip: '560001', country: 'India' },
};

describe('readReceipt', () => {
  it('takes the receipt the checkout left in the navigation state', () => {
    expect(readReceipt({ receipt: digital })).toEqual(digital);
    expect(readReceipt({ receipt: printed })).toEqual(printed);
  });

  it('ignores a missing or foreign state (a reload elsewhere, a shared link, an older shape)', () => {
    for (const state of [
      null,
      undefined,
      'x',
      {},
      { receipt: null },
      { receipt: { ...digital, amountPaid: '349.50' } },
      { receipt: { ...digital, book: null } },
    ])
      expect(readReceipt(state)).toBeNull();
    expect(readReceipt({ receipt: { ...printed, address: { line1: '12 MG Road' } } })).toBeNull();
  });
});

describe('receiptView', () => {
  it('names the files in the format once the order has them', () => {
    expect(receiptView(digital, ['pdf', 'epub']).rows[1]).toEqual(['Format', 'Digital Persona (PDF + EPUB)']);
    expect(receiptView(printed, ['pdf']).rows[1]).toEqual(['Format', 'Printed Persona (with the PDF)']);
  });

  it('a digital Persona: the book, the format, the amount and the date; no delivery', () => {
    expect(receiptView(digital)).toEqual({
      rows: [
        ['Book', 'Gitanjali by Rabindranath Tagore'],
        ['Format', 'Digital Persona'],
        ['Amount paid', '₹349.50'],
        ['Paid on', '25 November 2026'],
      ],
      emailedTo: 'zoe@example.com',
      gift: null,
      delivery: null,
    });
  });

  it('a gift says for whom, and when it reaches them or that the buyer hands it over', () => {
    const gift = { recipientName: 'अनन्या', recipientEmail: 'ananya@example.com', deliverOn: '2026-12-01' };
    expect(receiptView({ ...digital, gift }).gift).toBe('A gift for अनन्या: we e-mail it to ananya@example.com on 1 December 2026.');
    expect(receiptView({ ...digital, gift: { ...gift, recipientEmail: null } }).gift).toBe(
      'A gift for अनन्या: their name is printed in it, and the download is yours to hand over.',
    );
    // A receipt kept from before gifts existed (no gift field) still reads.
    const { gift: _none, ...older } = digital;
    expect(readReceipt({ receipt: older })).toEqual(digital);
    expect(readReceipt({ receipt: { ...digital, gift: { recipientName: 5 } } })).toBeNull();
  });

  it("a coupon's discount shows with its code, after the book's price, so the parts add up to what was paid", () => {
    const discounted: Receipt = { ...digital, amountPaid: 279.6, breakdown: { ...digital.breakdown, discount: 69.9 }, coupon: 'LAUNCH-20' };
    expect(readReceipt({ receipt: discounted })).toEqual(discounted);
    expect(receiptView(discounted).rows.slice(2, 5)).toEqual([
      ['Book price', '₹349.50'],
      ['Discount (LAUNCH-20)', '−₹69.90'],
      ['Amount paid', '₹279.60'],
    ]);
    const printedRows = receiptView({ ...printed, amountPaid: 449.6, breakdown: { ...printed.breakdown, discount: 69.9 }, coupon: 'LAUNCH-20' }).rows;
    expect(printedRows.slice(2, 7).map(([label]) => label)).toEqual(['Book price', 'Printing', 'Delivery', 'Discount (LAUNCH-20)', 'Amount paid']);
  });

  it('a printed Persona adds what made the amount, the address and the dispatch estimate', () => {
    const view = receiptView(printed);
    expect(view.rows).toContainEqual(['Printing', '₹120.00']);
    expect(view.rows).toContainEqual(['Amount paid', '₹519.50']);
    expect(view.delivery).toEqual({
      address: '12 MG Road, Bengaluru, 560001, India',
      estimate: 'Dispatched within 2 business days, delivered 5–7 business days later.',
    });
    // The courier's name and the second line and landmark, and the day it arrives by when the shop said it.
    const addressed = receiptView({
      ...printed,
      address: { ...printed.address!, name: 'Meera Nair', line2: 'Flat 4B', landmark: 'Near the temple' },
      shipBy: '2026-11-27',
      arrivesBy: '2026-12-05',
    });
    expect(addressed.delivery).toEqual({
      address: 'Meera Nair, 12 MG Road, Flat 4B, Near the temple, Bengaluru, 560001, India',
      estimate: 'Arrives by 5 December 2026.',
    });
  });
});
