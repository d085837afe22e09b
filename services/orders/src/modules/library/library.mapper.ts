// A paid order as its buyer's library lists it: the book, the state of the Persona, its downloads and its verify page.
import { personalizedPdfUrl, type LibraryPersona } from '@persona/contracts';
import { toOrderBook } from '../orders/orders.mapper';
import type { OrderRow } from '../orders/orders.repository';

export function toLibraryPersona(row: OrderRow): LibraryPersona {
  return {
    personaId: row.persona_id,
    book: toOrderBook(row),
    deliveryType: row.delivery_type,
    personaStatus: row.persona_status,
    paidAt: (row.paid_at ?? row.created_at).toISOString(),
    downloads: row.persona_status === 'ready' ? [{ format: 'pdf', url: personalizedPdfUrl(row.persona_id) }] : [],
    verifyUrl: `/verify/${row.persona_id}`,
  };
}
