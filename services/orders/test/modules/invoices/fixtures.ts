// The shop, buyers and orders the invoice tests share: a seller in Karnataka, a buyer there
// (intra-state) and one in Kerala (inter-state), and an order with an e-book and a printed copy.
import type { Buyer, Invoice, Seller } from '../../../src/modules/invoices/invoices.repository';
import { computeOrderTax, type SupplyLine, type TaxedSupply } from '../../../src/modules/invoices/tax';

/** A made-up GSTIN of Karnataka (29) with a right check character. */
export const SELLER: Seller = {
  name: 'Persona Books Private Limited',
  addressLines: ['4th Floor, 80 Feet Road, Koramangala', 'Bengaluru 560034, Karnataka'],
  gstin: '29AAACP1234A1Z1',
};

export const KARNATAKA_BUYER: Buyer = { name: 'Zoë Ünal', addressLines: ['221 Residency Road', 'Bengaluru 560025'] };
export const KERALA_BUYER: Buyer = { name: 'Anaswara Raveendran', addressLines: ['12 MG Road', 'Kochi 682001'] };

/** An e-book with a coupon, and a printed copy with its printing and delivery. */
export const MIXED_ORDER: SupplyLine[] = [
  { kind: 'ebook', description: 'Gitanjali, personalised e-book (PRS-7K3M-9QXD-2HFA-J8TW)', grossPaise: 34950, discountPaise: 3500 },
  { kind: 'printed-book', description: 'The Jungle Book, personalised hardback (PRS-2B4C-6D8E-9F0G-1H3J)', grossPaise: 59900 },
  { kind: 'printing', description: 'Printing and binding', grossPaise: 12000, belongsTo: 1 },
  { kind: 'delivery', description: 'Delivery', grossPaise: 6000, belongsTo: 1 },
];

/** One e-book of more than a thousand rupees, so the amounts have digit grouping. */
export const DIGITAL_ORDER: SupplyLine[] = [
  { kind: 'ebook', description: 'The Complete Tagore, personalised e-book', grossPaise: 129625, discountPaise: 10000 },
];

export function taxOf(lines: SupplyLine[], placeOfSupply: string): TaxedSupply {
  return computeOrderTax({ lines, sellerStateCode: '29', placeOfSupply });
}

/** A document as the repository hands it back, without a database. */
export function invoiceOf(tax: TaxedSupply, over: Partial<Invoice> = {}): Invoice {
  return {
    id: '0b8f5a52-7c1e-4d7e-9a51-3f0c2d9e8b71',
    kind: 'invoice',
    number: 'PB/26-27/000123',
    financialYear: 2026,
    sequence: 123,
    orderId: '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c',
    issuedAt: new Date('2027-01-02T06:30:00Z'),
    placeOfSupply: tax.placeOfSupply,
    supplyType: tax.supplyType,
    seller: SELLER,
    buyer: tax.placeOfSupply === '29' ? KARNATAKA_BUYER : KERALA_BUYER,
    lines: tax.lines,
    totals: tax.totals,
    credits: null,
    refundId: null,
    ...over,
  };
}
