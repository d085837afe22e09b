// An order's tax invoice (issue 23): issued when the order is paid, in the same transaction as its
// confirmation e-mail (which names it), from what the order charged — the book, and for a printed
// copy its printing and delivery — with the buyer's state as the place of supply (the shop's own
// when the checkout did not say). The PDF is drawn after the commit (the year's counter row is
// held until then); one missed by a crash is drawn by the next sweep or when first asked for.
import type { Kysely, Transaction } from 'kysely';
import type { OrdersDB } from '../../db';
import { indianStateName, type Address } from '@persona/contracts';
import type { OrderRow } from '../order-records/orders.repository';
import { shippingAddress } from '../order-records/orders.mapper';
import { assertNumberSeries, DEFAULT_SERIES, type NumberSeries } from './invoice-number';
import { renderInvoicePdf } from './invoice-pdf';
import { findInvoicePdf, findInvoicesWithoutPdf, issueInvoice, saveInvoicePdf, type Buyer, type Invoice, type Seller } from './invoices.repository';
import { computeOrderTax, DEFAULT_TAX_CONFIG, isValidGstin, type SupplyLine, type TaxConfig } from './tax';

export interface InvoiceSettings {
  seller: Seller;
  series: NumberSeries;
  tax: TaxConfig;
  /** Draws a document's PDF: the service's worker thread (invoice-tasks.ts); absent, on the calling thread (tests). */
  draw?: (invoice: Invoice) => Promise<Uint8Array>;
}

/**
 * The seller a shop without its own settings names: a made-up GSTIN of Karnataka (right check
 * character, nobody's). A shop that sells for real sets SELLER_NAME, SELLER_ADDRESS and SELLER_GSTIN.
 */
export const DEFAULT_SELLER = {
  name: 'Persona Books',
  address: '4th Floor, 80 Feet Road, Koramangala | Bengaluru 560034, Karnataka',
  gstin: '29AAACP1234A1Z1',
};

/** The settings from the service's configuration; a GSTIN that is not one is refused at start. */
export function invoiceSettings(config: { name: string; address: string; gstin: string; prefix?: string }): InvoiceSettings {
  const gstin = config.gstin.trim().toUpperCase();
  if (!isValidGstin(gstin)) throw new Error(`SELLER_GSTIN "${config.gstin}" is not a valid GSTIN (15 characters, a state code, a right check character)`);
  const series = config.prefix ? { ...DEFAULT_SERIES.invoice, prefix: config.prefix } : DEFAULT_SERIES.invoice;
  // Checked here, at start: a bad prefix would otherwise fail every paid order's confirmation.
  assertNumberSeries(series);
  return {
    seller: {
      name: config.name,
      addressLines: config.address
        .split('|')
        .map((line) => line.trim())
        .filter(Boolean),
      gstin,
    },
    series,
    tax: DEFAULT_TAX_CONFIG,
  };
}

/**
 * What the order supplied, each at its price (GST included): the book, and a printed copy's
 * printing and delivery. A coupon's discount comes off the book's line (a code takes off the
 * book's price only), before tax.
 */
export function orderSupplyLines(order: OrderRow): SupplyLine[] {
  const book = `Persona of "${order.book_title}" by ${order.book_author} (${order.persona_id})`;
  const discount = order.discount_paise > 0 ? { discountPaise: order.discount_paise } : {};
  if (order.delivery_type === 'digital') return [{ kind: 'ebook', description: `${book}, e-book`, grossPaise: order.base_paise, ...discount }];
  return [
    { kind: 'printed-book', description: `${book}, printed`, grossPaise: order.base_paise, ...discount },
    ...(order.printing_paise > 0 ? [{ kind: 'printing' as const, description: 'Printing and binding', grossPaise: order.printing_paise, belongsTo: 0 }] : []),
    ...(order.delivery_paise > 0 ? [{ kind: 'delivery' as const, description: 'Delivery', grossPaise: order.delivery_paise, belongsTo: 0 }] : []),
  ];
}

function addressLines(address: Address): string[] {
  const state = address.state ? indianStateName(address.state) : undefined;
  return [
    address.line1,
    ...(address.line2 ? [address.line2] : []),
    ...(address.landmark ? [address.landmark] : []),
    `${address.city} ${address.zip}`,
    [state, address.country].filter(Boolean).join(', '),
  ];
}

/**
 * Who the invoice is billed to and, for a printed copy going to someone else, shipped to (issue
 * 24). The buyer paid and is billed; a gift's address is its recipient's, so it is theirs under
 * "Ship to" and the buyer's block has no address (the shop does not know the giver's). A copy for
 * the buyer is billed to their name at the address it goes to, as before.
 */
export function invoiceParties(order: OrderRow): Buyer {
  const address = shippingAddress(order);
  if (!address) return { name: order.full_name, addressLines: [] };
  if (address.name === order.full_name) return { name: order.full_name, addressLines: addressLines(address) };
  return { name: order.full_name, addressLines: [], shipTo: { name: address.name, addressLines: addressLines(address) } };
}

/** Issues the paid order's invoice (or answers the one it has) in the caller's transaction. */
export function invoicePaidOrder(trx: Transaction<OrdersDB>, order: OrderRow, settings: InvoiceSettings): Promise<Invoice> {
  const sellerStateCode = settings.seller.gstin.slice(0, 2);
  const tax = computeOrderTax({ lines: orderSupplyLines(order), sellerStateCode, placeOfSupply: order.buyer_state ?? sellerStateCode }, settings.tax);
  return issueInvoice(trx, {
    orderId: order.id,
    issuedAt: order.paid_at ?? new Date(),
    seller: settings.seller,
    buyer: invoiceParties(order),
    tax,
    series: settings.series,
  });
}

/** The document's PDF: the one kept, or drawn now and kept (the same bytes whoever draws it). */
export async function invoicePdf(db: Kysely<OrdersDB>, invoice: Invoice, draw: InvoiceSettings['draw'] = renderInvoicePdf): Promise<Uint8Array> {
  const kept = await findInvoicePdf(db, invoice.id);
  if (kept) return kept;
  const pdf = await draw(invoice);
  await saveInvoicePdf(db, invoice.id, pdf);
  return pdf;
}

/** Draws the PDFs a crash (or a busy moment) left undrawn; resolves with how many. */
export async function drawMissingInvoicePdfs(db: Kysely<OrdersDB>, draw: InvoiceSettings['draw'], limit = 20): Promise<number> {
  const missing = await findInvoicesWithoutPdf(db, limit);
  for (const invoice of missing) await invoicePdf(db, invoice, draw);
  return missing.length;
}
