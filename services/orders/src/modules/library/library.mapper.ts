// A paid order as its buyer's library lists it: the book, the state of the Persona, its downloads and its verify page.
import { orderInvoiceUrl, type LibraryPersona } from '@persona/contracts';
import { personaDownloads, toOrderBook } from '../order-records/orders.mapper';
import type { OrderRow } from '../order-records/orders.repository';

/** An order's tax documents as the library links them: the invoice, then its credit notes. */
export interface LibraryDocument {
  id: string;
  kind: 'invoice' | 'credit-note';
  number: string;
}

/** A paid order (or a gift received) as the library of `email` (lower case) lists it, with the buyer's tax documents. */
export function toLibraryPersona(row: OrderRow, email: string, documents: readonly LibraryDocument[] = []): LibraryPersona {
  const buyer = row.email.toLowerCase() === email;
  return {
    personaId: row.persona_id,
    book: toOrderBook(row),
    deliveryType: row.delivery_type,
    personaStatus: row.persona_status,
    paidAt: (row.paid_at ?? row.created_at).toISOString(),
    downloads: personaDownloads(row),
    verifyUrl: `/verify/${row.persona_id}`,
    gift: libraryGift(row, email),
    refundedAt: row.refunded_in_full_at ? row.refunded_in_full_at.toISOString() : null,
    // By Persona ID, as the receipt e-mail links them (the invoice route's buyer's way in).
    documents: buyer
      ? documents.map((d) => ({ kind: d.kind, number: d.number, url: orderInvoiceUrl(row.persona_id, d.kind === 'invoice' ? undefined : d.id) }))
      : [],
  };
}

function libraryGift(row: OrderRow, email: string): LibraryPersona['gift'] {
  if (!row.gift_recipient_name || !row.gift_deliver_on) return null;
  // Bought with this address (even when given to it too): the buyer's view.
  if (row.email.toLowerCase() === email) return { direction: 'given', recipientName: row.gift_recipient_name, deliverOn: row.gift_deliver_on };
  return { direction: 'received', from: row.full_name, deliverOn: row.gift_deliver_on };
}
