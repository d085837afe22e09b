// An order row as the API shows it: the administrator's whole order, or the buyer's public view.
import { paiseToRupees, personalizedPdfUrl, type Address, type Order, type PublicOrder, type Receipt, type Shipment } from '@persona/contracts';
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
    shipment: toShipment(row),
  };
}

/** A printed copy's shipment once it has one (marked shipped at least once). */
function toShipment(row: OrderRow): Shipment | null {
  return row.shipped_at ? { carrier: row.carrier, trackingNumber: row.tracking_number, shippedAt: row.shipped_at.toISOString() } : null;
}

/** Only what the /send-persona page shows: no e-mail, phone or address (DESIGN §6). */
export function toPublicOrder(row: OrderRow): PublicOrder {
  return {
    personaId: row.persona_id,
    book: { _id: row.book_id, title: row.book_title, author: row.book_author },
    deliveryType: row.delivery_type,
    deliveryStatus: row.delivery_status,
    paymentStatus: row.payment_status,
    personaStatus: row.persona_status,
    personalizedPdfUrl: row.persona_status === 'ready' ? personalizedPdfUrl(row.persona_id) : null,
    createdAt: row.created_at.toISOString(),
    paidAt: row.paid_at ? row.paid_at.toISOString() : null,
    shipment: toShipment(row),
  };
}

/** The buyer's receipt, for the buyer who has just proved their payment (verify). */
export function toReceipt(row: OrderRow, paidAt: Date): Receipt {
  return {
    book: { title: row.book_title, author: row.book_author },
    deliveryType: row.delivery_type,
    amountPaid: paiseToRupees(row.amount_paise),
    breakdown: { base: paiseToRupees(row.base_paise), printing: paiseToRupees(row.printing_paise), delivery: paiseToRupees(row.delivery_paise) },
    email: row.email,
    address: (row.address as Address | null) ?? null,
    paidAt: paidAt.toISOString(),
  };
}
