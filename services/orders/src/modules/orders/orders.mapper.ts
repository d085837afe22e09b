// An order row as the API shows it: the administrator's whole order, or the buyer's public view.
import { paiseToRupees, personalizedPdfUrl, type Address, type Order, type PublicOrder } from '@persona/contracts';
import type { OrderRow } from './orders.repository';

export function toOrder(row: OrderRow): Order {
  return {
    _id: row.id,
    personaId: row.persona_id,
    book: { _id: row.book_id, title: row.book_title, author: row.book_author },
    fullName: row.full_name,
    email: row.email,
    phone: row.phone,
    deliveryType: row.delivery_type,
    address: (row.address as Address | null) ?? null,
    amount: paiseToRupees(row.amount_paise),
    currency: 'INR',
    paymentStatus: row.payment_status,
    deliveryStatus: row.delivery_status,
    personaStatus: row.persona_status,
    personaError: row.persona_error,
    personalizedPdfUrl: row.persona_status === 'ready' ? personalizedPdfUrl(row.persona_id) : null,
    createdAt: row.created_at.toISOString(),
    paidAt: row.paid_at ? row.paid_at.toISOString() : null,
  };
}

/** Only what the /send-persona page shows: no e-mail, phone or address (DESIGN §6). */
export function toPublicOrder(row: OrderRow): PublicOrder {
  return {
    personaId: row.persona_id,
    book: { title: row.book_title, author: row.book_author },
    deliveryType: row.delivery_type,
    deliveryStatus: row.delivery_status,
    paymentStatus: row.payment_status,
    personaStatus: row.persona_status,
    personalizedPdfUrl: row.persona_status === 'ready' ? personalizedPdfUrl(row.persona_id) : null,
    createdAt: row.created_at.toISOString(),
  };
}
