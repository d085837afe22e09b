// An order row as the API shows it: the administrator's whole order, or the buyer's public view.
import {
  arrivesByOf,
  indianStateName,
  paiseToRupees,
  SALES_CHART_DAYS,
  shopDate,
  personaDownloadUrl,
  type Address,
  type Order,
  type ShippingAddress,
  type PersonaDownload,
  type PersonaFormat,
  type OrderSummary,
  type PublicOrder,
  type Receipt,
  type SalesDay,
  type SalesTotals,
  type Shipment,
} from '@persona/contracts';
import type { SalesDayRow, WorkCountsRow } from './dashboard-figures.repository';
import type { OrderRow } from './orders.repository';

export function toOrder(row: OrderRow): Order {
  return {
    _id: row.id,
    personaId: row.persona_id,
    book: toOrderBook(row),
    fullName: row.full_name,
    email: row.email,
    phone: row.phone,
    deliveryType: row.delivery_type,
    address: shippingAddress(row),
    amount: paiseToRupees(row.amount_paise),
    currency: 'INR',
    paymentStatus: row.payment_status,
    deliveryStatus: row.delivery_status,
    personaStatus: row.persona_status,
    personaError: row.persona_error,
    personalizedPdfUrl: pdfUrl(row),
    downloads: personaDownloads(row),
    createdAt: row.created_at.toISOString(),
    paidAt: row.paid_at ? row.paid_at.toISOString() : null,
    shipment: toShipment(row),
    gift: toOrderGift(row),
    refundedAt: row.refunded_in_full_at ? row.refunded_in_full_at.toISOString() : null,
    shipBy: row.ship_by,
    arrivesBy: arrivesByOfRow(row),
  };
}

/**
 * Where a printed copy goes and whom the courier asks for (issue 24): the address's own name and
 * phone (a gift's recipient); an order from before them, the buyer's, as the list showed then.
 */
export function shippingAddress(row: Pick<OrderRow, 'address' | 'full_name' | 'phone'>): ShippingAddress | null {
  const address = row.address as Address | null;
  if (!address) return null;
  return { ...address, name: address.name ?? row.full_name, phone: address.phone ?? row.phone };
}

/** The courier's one line of an address: name and phone apart, everything else as written, India last. */
export function addressLine(address: Address): string {
  return [
    address.line1,
    address.line2,
    address.landmark,
    address.city,
    address.state ? indianStateName(address.state) : undefined,
    address.zip,
    address.country,
  ]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(', ');
}

/** A paid printed copy's arrival, from its ship-by date and a gift's day. */
const arrivesByOfRow = (row: Pick<OrderRow, 'ship_by' | 'gift_deliver_on'>) => (row.ship_by ? arrivesByOf(row.ship_by, row.gift_deliver_on) : null);

/** A gift's details, for the administrator. */
export function toOrderGift(row: OrderRow): Order['gift'] {
  if (!row.gift_recipient_name || !row.gift_deliver_on) return null;
  return {
    recipientName: row.gift_recipient_name,
    message: row.gift_message,
    recipientEmail: row.gift_recipient_email,
    deliverOn: row.gift_deliver_on,
  };
}

/** A ready Persona's files, by format (none before it is ready). */
/** The PDF's download while there is one (none once the order is refunded in full). */
const pdfUrl = (row: OrderRow) => personaDownloads(row).find((d) => d.format === 'pdf')?.url ?? null;

export function personaDownloads(row: OrderRow): PersonaDownload[] {
  // Refunded in full: the licence ended, nothing to download (personalisation refuses it too).
  if (row.persona_status !== 'ready' || row.refunded_in_full_at) return [];
  const formats = (row.persona_formats ?? 'pdf').split(',').filter((f): f is PersonaFormat => f === 'pdf' || f === 'epub');
  return formats.map((format) => ({ format, url: personaDownloadUrl(row.persona_id, format) }));
}

/** The book an order is of, as every answer about an order names it. */
export const toOrderBook = (row: OrderRow): Order['book'] => ({ _id: row.book_id, title: row.book_title, author: row.book_author });

/** A printed copy's shipment once it has one (marked shipped at least once). */
function toShipment(row: OrderRow): Shipment | null {
  return row.shipped_at ? { carrier: row.carrier, trackingNumber: row.tracking_number, shippedAt: row.shipped_at.toISOString() } : null;
}

/** Only what the /send-persona page shows: no e-mail, phone or address (DESIGN §6). */
export function toPublicOrder(row: OrderRow): PublicOrder {
  return {
    personaId: row.persona_id,
    book: toOrderBook(row),
    deliveryType: row.delivery_type,
    deliveryStatus: row.delivery_status,
    paymentStatus: row.payment_status,
    personaStatus: row.persona_status,
    personalizedPdfUrl: pdfUrl(row),
    downloads: personaDownloads(row),
    createdAt: row.created_at.toISOString(),
    paidAt: row.paid_at ? row.paid_at.toISOString() : null,
    shipment: toShipment(row),
    gift: row.gift_recipient_name !== null,
    deliverOn: row.gift_deliver_on,
    refundedAt: row.refunded_in_full_at ? row.refunded_in_full_at.toISOString() : null,
  };
}

/** The buyer's receipt, for the buyer who has just proved their payment (verify). */
export function toReceipt(row: OrderRow, paidAt: Date): Receipt {
  return {
    book: { title: row.book_title, author: row.book_author },
    deliveryType: row.delivery_type,
    amountPaid: paiseToRupees(row.amount_paise),
    breakdown: {
      base: paiseToRupees(row.base_paise),
      printing: paiseToRupees(row.printing_paise),
      delivery: paiseToRupees(row.delivery_paise),
      ...(row.discount_paise > 0 ? { discount: paiseToRupees(row.discount_paise) } : {}),
    },
    ...(row.discount_paise > 0 && row.coupon_code ? { coupon: row.coupon_code } : {}),
    email: row.email,
    address: shippingAddress(row),
    paidAt: paidAt.toISOString(),
    ...(row.ship_by ? { shipBy: row.ship_by, arrivesBy: arrivesByOfRow(row)! } : {}),
    gift:
      row.gift_recipient_name && row.gift_deliver_on
        ? { recipientName: row.gift_recipient_name, recipientEmail: row.gift_recipient_email, deliverOn: row.gift_deliver_on }
        : null,
  };
}

/** The first day the dashboard's chart shows, on the shop's `today` at `now`. */
export const summaryFirstDay = (now: Date) => shopDate(now, SALES_CHART_DAYS - 1);

/**
 * The dashboard's numbers: every day of the chart (a day without a sale is a zero, not a gap)
 * and the totals of the last 1, 7 and 30 days of it.
 */
export function toOrderSummary(now: Date, days: readonly SalesDayRow[], work: WorkCountsRow): Omit<OrderSummary, 'livePaymentsRefused'> {
  const byDay = new Map(days.map((row) => [row.day, row]));
  const chart = Array.from({ length: SALES_CHART_DAYS }, (_, i) => {
    const date = shopDate(now, SALES_CHART_DAYS - 1 - i);
    return { date, orders: byDay.get(date)?.orders ?? 0, paise: byDay.get(date)?.revenue_paise ?? 0 };
  });
  const total = (last: number): SalesTotals => {
    const kept = chart.slice(-last);
    return { orders: kept.reduce((n, d) => n + d.orders, 0), revenue: paiseToRupees(kept.reduce((n, d) => n + d.paise, 0)) };
  };
  return {
    today: shopDate(now),
    sales: { today: total(1), last7Days: total(7), last30Days: total(SALES_CHART_DAYS) },
    days: chart.map(({ date, orders, paise }): SalesDay => ({ date, orders, revenue: paiseToRupees(paise) })),
    awaitingDispatch: work.awaiting_dispatch,
    failedPersonas: work.failed_personas,
  };
}
