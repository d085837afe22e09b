// Orders and payments on the wire (spec §3, DESIGN §4, §6).
import { Type, type Static } from '@sinclair/typebox';
import { CursorQuery, Id, PageQuery, PlainText } from './common';
import { CouponCode } from './coupons';
import { GstStateCode, indianStateName } from './india';
import { PersonaFormatSchema } from './personas';
import { PersonaReissue } from './after-sale';

export const DELIVERY_TYPES = ['digital', 'physical'] as const;
export const PAYMENT_STATUSES = ['created', 'attempted', 'paid', 'failed'] as const;
export const DELIVERY_STATUSES = ['pending', 'shipped', 'delivered', 'cancelled'] as const;
export const PERSONA_STATUSES = ['pending', 'generating', 'ready', 'failed'] as const;
export type DeliveryType = (typeof DELIVERY_TYPES)[number];
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export type PersonaStatus = (typeof PERSONA_STATUSES)[number];

const DeliveryTypeSchema = Type.Union([Type.Literal('digital'), Type.Literal('physical')]);
const PaymentStatusSchema = Type.Union([Type.Literal('created'), Type.Literal('attempted'), Type.Literal('paid'), Type.Literal('failed')]);
const DeliveryStatusSchema = Type.Union([Type.Literal('pending'), Type.Literal('shipped'), Type.Literal('delivered'), Type.Literal('cancelled')]);
const PersonaStatusSchema = Type.Union([Type.Literal('pending'), Type.Literal('generating'), Type.Literal('ready'), Type.Literal('failed')]);

/** The shop's days are India's (no daylight saving): the list's date filters and the dashboard's days. */
export const SHOP_UTC_OFFSET = '+05:30';
const SHOP_UTC_OFFSET_MS = 330 * 60_000;

/** The shop's date (YYYY-MM-DD) at `at`, `daysBefore` days earlier. */
export function shopDate(at: Date, daysBefore = 0): string {
  return new Date(at.getTime() + SHOP_UTC_OFFSET_MS - daysBefore * 86_400_000).toISOString().slice(0, 10);
}

/** When one of the shop's days (YYYY-MM-DD) begins. */
export function shopDayStart(date: string): Date {
  return new Date(`${date}T00:00:00${SHOP_UTC_OFFSET}`);
}

/** Flat fee for physical delivery (spec §9). */
export const DELIVERY_FEE_PAISE = 5000;
export const CURRENCY = 'INR';
/** An Indian PIN code: six digits (the wire's field keeps the spec's name, `zip`). */
export const ZIP_PATTERN = '^[0-9]{6}$';
export const ZIP_MESSAGE = 'Please enter a valid 6-digit PIN code';
/** The shop ships printed copies within India only (issue 24): the address's country is this, shown and never typed. */
export const SHIPPING_COUNTRY = 'India';
export const SHIPPING_COUNTRY_MESSAGE = 'Printed copies are delivered within India only: the country must be India';

export interface OrderAmount {
  basePaise: number;
  printingPaise: number;
  deliveryPaise: number;
  totalPaise: number;
}

/**
 * What an order costs (DESIGN §9.4: printing and delivery only for a printed
 * copy). The server charges this; the storefront shows the same numbers.
 */
export function computeOrderAmount(book: { pricePaise: number; printingCostPaise: number }, deliveryType: DeliveryType): OrderAmount {
  const physical = deliveryType === 'physical';
  const printingPaise = physical ? book.printingCostPaise : 0;
  const deliveryPaise = physical ? DELIVERY_FEE_PAISE : 0;
  return { basePaise: book.pricePaise, printingPaise, deliveryPaise, totalPaise: book.pricePaise + printingPaise + deliveryPaise };
}

export const PHONE_PATTERN = '^\\+?[0-9][0-9 ()-]{6,18}[0-9]$';

/**
 * Where a printed copy goes (spec §3's line1, city, zip, country; the rest added by issue 24 and
 * optional on the wire, so the spec's request still works). `name` and `phone` are the courier's:
 * the person at that door (a gift's recipient, not the buyer who paid). Absent, the service fills
 * them (a gift's recipient's name, else the buyer's; the buyer's phone); an order from before them
 * shows the buyer's. `state` is where the PIN code is (filled from it when absent); `country` is
 * India (SHIPPING_COUNTRY).
 */
export const Address = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' })),
    phone: Type.Optional(Type.String({ pattern: PHONE_PATTERN })),
    line1: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    line2: Type.Optional(Type.String({ maxLength: 200 })),
    landmark: Type.Optional(Type.String({ maxLength: 120 })),
    city: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    /** The PIN code. Checked by the service with its own message (ZIP_MESSAGE). */
    zip: Type.String({ maxLength: 20 }),
    state: Type.Optional(GstStateCode),
    country: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  },
  { additionalProperties: false },
);
export type Address = Static<typeof Address>;

/**
 * An address on one line, as the receipt and the e-mails show it: whom the courier asks for, the
 * lines, the landmark, the town, the state by name and the PIN code (the phone is never shown there).
 */
export function addressOneLine(address: Address): string {
  const state = address.state ? indianStateName(address.state) : undefined;
  return [address.name, address.line1, address.line2, address.landmark, address.city, state, address.zip, address.country]
    .filter((part): part is string => Boolean(part?.trim()))
    .join(', ');
}

/** A printed copy's address as the shop keeps and shows it: always the courier's name and phone. */
export type ShippingAddress = Address & { name: string; phone: string };

/** How far ahead a gift's delivery may be set. */
export const GIFT_MAX_DAYS_AHEAD = 366;

/**
 * A Persona given (DESIGN §12): the recipient's name is the one printed (dedication page and
 * footers), with the message on the dedication page; the recipient is e-mailed the Persona on
 * `deliverOn` (the shop's day; today when absent) when an address is given. The printable rules
 * (printable-text.ts) are checked by the service with their own messages.
 */
export const Gift = Type.Object(
  {
    recipientName: Type.String({ minLength: 1, maxLength: 200 }),
    message: Type.Optional(Type.String({ maxLength: 600 })),
    recipientEmail: Type.Optional(Type.String({ format: 'email', maxLength: 200 })),
    deliverOn: Type.Optional(Type.String({ format: 'date' })),
  },
  { additionalProperties: false },
);
export type Gift = Static<typeof Gift>;

/**
 * The spec's initiation request. `amount`, `shippingFee` and `personaId` are
 * accepted for compatibility and ignored: the server computes the amount and
 * reserves the persona id itself.
 */
export const InitiatePaymentBody = Type.Object(
  {
    book: Id,
    fullName: Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' }),
    email: Type.String({ format: 'email', maxLength: 200 }),
    phone: Type.String({ pattern: PHONE_PATTERN }),
    deliveryType: DeliveryTypeSchema,
    address: Type.Union([Address, Type.Null()]),
    amount: Type.Optional(Type.Number()),
    shippingFee: Type.Optional(Type.Number()),
    personaId: Type.Optional(Type.Null()),
    /** Not in the spec's request: a gift (absent, the buyer's own copy, exactly as the spec). */
    gift: Type.Optional(Gift),
    /**
     * Not in the spec's request: the buyer's state (where a printed copy goes; where the buyer
     * lives for an e-book), the tax invoice's place of supply. Absent: the shop's own state.
     */
    state: Type.Optional(GstStateCode),
    /** Not in the spec's request: a coupon code (issue 23); the server prices it, refusing with the reason when it does not apply. */
    coupon: Type.Optional(CouponCode),
  },
  { additionalProperties: false },
);
export type InitiatePaymentBody = Static<typeof InitiatePaymentBody>;

export const InitiatePaymentData = Type.Object({
  /** Paise, as Razorpay expects. */
  amount: Type.Integer(),
  currency: Type.Literal(CURRENCY),
  razorpayOrderId: Type.String(),
  orderId: Id,
  keyId: Type.String(),
  testMode: Type.Boolean(),
  breakdown: Type.Object({
    basePaise: Type.Integer(),
    printingPaise: Type.Integer(),
    deliveryPaise: Type.Integer(),
    /** A coupon's discount (absent without one). */
    discountPaise: Type.Optional(Type.Integer({ minimum: 0 })),
    totalPaise: Type.Integer(),
  }),
});
export type InitiatePaymentData = Static<typeof InitiatePaymentData>;

/** The spec's verification request; only the ids and the signature matter. */
export const VerifyPaymentBody = Type.Object(
  {
    orderId: Id,
    razorpayOrderId: Type.String({ minLength: 1, maxLength: 100 }),
    razorpayPaymentId: Type.String({ minLength: 1, maxLength: 100 }),
    razorpaySignature: Type.String({ minLength: 1, maxLength: 200 }),
    amount: Type.Optional(Type.Number()),
    status: Type.Optional(Type.String({ maxLength: 40 })),
    method: Type.Optional(Type.String({ maxLength: 40 })),
    currency: Type.Optional(Type.String({ maxLength: 10 })),
    email: Type.Optional(Type.String({ maxLength: 200 })),
    phone: Type.Optional(Type.String({ maxLength: 40 })),
    payerName: Type.Optional(Type.String({ maxLength: 200 })),
    paymentResponse: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
export type VerifyPaymentBody = Static<typeof VerifyPaymentBody>;

/**
 * The buyer's own order, told back to them once their payment is verified (/payment-success): what
 * they bought, what they paid, where the confirmation went and, for a printed copy, where it goes.
 */
export const Receipt = Type.Object({
  book: Type.Object({ title: Type.String(), author: Type.String() }),
  deliveryType: DeliveryTypeSchema,
  /** Rupees: the total charged, and what made it. */
  amountPaid: Type.Number(),
  breakdown: Type.Object({
    base: Type.Number(),
    printing: Type.Number(),
    delivery: Type.Number(),
    /** A coupon's discount (rupees), taken off the book's price; absent without one. */
    discount: Type.Optional(Type.Number()),
  }),
  /** The coupon code the discount came from. */
  coupon: Type.Optional(Type.String()),
  email: Type.String(),
  address: Type.Union([Address, Type.Null()]),
  paidAt: Type.String({ format: 'date-time' }),
  /**
   * A printed copy (issue 24): the last day it leaves the shop, and the day the slowest courier
   * brings it (a gift's day when that can be met). Days of the shop (YYYY-MM-DD); absent for an e-book.
   */
  shipBy: Type.Optional(Type.String({ format: 'date' })),
  arrivesBy: Type.Optional(Type.String({ format: 'date' })),
  /** A gift: who it is for, and when (and whether) they are e-mailed it. */
  gift: Type.Union([
    Type.Object({ recipientName: Type.String(), recipientEmail: Type.Union([Type.String(), Type.Null()]), deliverOn: Type.String({ format: 'date' }) }),
    Type.Null(),
  ]),
});
export type Receipt = Static<typeof Receipt>;

export const VerifyPaymentData = Type.Object({ personaId: Type.String(), orderId: Id, receipt: Receipt });
export type VerifyPaymentData = Static<typeof VerifyPaymentData>;

const OrderBook = Type.Object({ _id: Id, title: Type.String(), author: Type.String() });

/** A printed copy on its way: who carries it and its tracking number (both optional), and when it left. */
export const Shipment = Type.Object({
  carrier: Type.Union([Type.String(), Type.Null()]),
  trackingNumber: Type.Union([Type.String(), Type.Null()]),
  shippedAt: Type.String({ format: 'date-time' }),
});
export type Shipment = Static<typeof Shipment>;

/** A gift as the administrator sees it (the order's buyer is who paid). */
export const OrderGift = Type.Object({
  recipientName: Type.String(),
  message: Type.Union([Type.String(), Type.Null()]),
  recipientEmail: Type.Union([Type.String(), Type.Null()]),
  deliverOn: Type.String({ format: 'date' }),
});
export type OrderGift = Static<typeof OrderGift>;

/** One file of a ready Persona, by format. */
export const PersonaDownload = Type.Object({ format: PersonaFormatSchema, url: Type.String() });
export type PersonaDownload = Static<typeof PersonaDownload>;

/** An order as an administrator sees it. */
export const Order = Type.Object({
  _id: Id,
  personaId: Type.String(),
  book: OrderBook,
  fullName: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  deliveryType: DeliveryTypeSchema,
  address: Type.Union([Address, Type.Null()]),
  amount: Type.Number({ description: 'rupees' }),
  currency: Type.Literal(CURRENCY),
  paymentStatus: PaymentStatusSchema,
  deliveryStatus: DeliveryStatusSchema,
  personaStatus: PersonaStatusSchema,
  personaError: Type.Union([Type.String(), Type.Null()]),
  personalizedPdfUrl: Type.Union([Type.String(), Type.Null()]),
  /** The downloads ready, by format (as the buyer's view has them: the storefront reads either). */
  downloads: Type.Array(PersonaDownload),
  createdAt: Type.String({ format: 'date-time' }),
  paidAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  shipment: Type.Union([Shipment, Type.Null()]),
  gift: Type.Union([OrderGift, Type.Null()]),
  /** When the order was refunded in full (its Persona's licence ended); null while it holds. */
  refundedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /**
   * A paid printed copy (issue 24): the last day it may leave the shop (the dispatch list's order)
   * and the day it arrives by (printedDelivery, reckoned at payment); null for an e-book or unpaid.
   */
  shipBy: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  arrivesBy: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
});
export type Order = Static<typeof Order>;

/** One try at paying an order, as the provider or the browser reported it (the order page's payment section). */
export const OrderPaymentAttempt = Type.Object({
  at: Type.String({ format: 'date-time' }),
  razorpayPaymentId: Type.Union([Type.String(), Type.Null()]),
  /** paid, failed, attempted, authorized, amount-mismatch… */
  outcome: Type.String(),
  /** verify, webhook:payment.captured, reconciler… */
  source: Type.String(),
  detail: Type.Union([Type.String(), Type.Null()]),
});
export type OrderPaymentAttempt = Static<typeof OrderPaymentAttempt>;

/** An e-mail the shop queued about an order: sent, waiting (a gift's day, a retry) or given up. */
export const OrderEmail = Type.Object({
  _id: Id,
  /** order-confirmed, persona-ready, gift-delivery, shipped… */
  kind: Type.String(),
  to: Type.String(),
  subject: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  sendAfter: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  sentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  attempts: Type.Integer({ minimum: 0 }),
  lastError: Type.Union([Type.String(), Type.Null()]),
  /** A copy an administrator asked for (resend): the e-mail it copies. */
  resendOf: Type.Union([Id, Type.Null()]),
});
export type OrderEmail = Static<typeof OrderEmail>;

/** An administrator's private note on an order: never shown to the buyer. */
export const OrderNote = Type.Object({
  _id: Id,
  text: Type.String(),
  author: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type OrderNote = Static<typeof OrderNote>;

/** A refund of an order, as the order page shows it. */
export const OrderRefund = Type.Object({
  _id: Id,
  amountPaise: Type.Integer(),
  status: Type.Union([Type.Literal('requested'), Type.Literal('pending'), Type.Literal('processed'), Type.Literal('failed')]),
  speed: Type.Union([Type.Literal('normal'), Type.Literal('optimum')]),
  reason: Type.String(),
  requestedBy: Type.String(),
  razorpayRefundId: Type.Union([Type.String(), Type.Null()]),
  failure: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  processedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type OrderRefund = Static<typeof OrderRefund>;

/** Everything the order page shows of an order besides the audit log's timeline (which the admin service keeps). */
export const OrderDetail = Type.Object({
  order: Order,
  /** What was charged, by part, in paise (the server's figures, never the client's). */
  amounts: Type.Object({
    basePaise: Type.Integer(),
    printingPaise: Type.Integer(),
    deliveryPaise: Type.Integer(),
    /** A coupon's discount (0 without one) and its code. */
    discountPaise: Type.Integer(),
    couponCode: Type.Union([Type.String(), Type.Null()]),
    totalPaise: Type.Integer(),
  }),
  payment: Type.Object({
    razorpayOrderId: Type.Union([Type.String(), Type.Null()]),
    razorpayPaymentId: Type.Union([Type.String(), Type.Null()]),
    /** What paid it: verify, a webhook, the reconciler. */
    paidVia: Type.Union([Type.String(), Type.Null()]),
  }),
  attempts: Type.Array(OrderPaymentAttempt),
  emails: Type.Array(OrderEmail),
  notes: Type.Array(OrderNote),
  /** Its refunds, oldest first. */
  refunds: Type.Array(OrderRefund),
  /** Its Persona's re-issues, oldest first (the order names the newest Persona). */
  reissues: Type.Array(PersonaReissue),
  /** The order's tax invoice and credit notes (India GST), oldest first. */
  invoices: Type.Array(
    Type.Object({
      _id: Id,
      kind: Type.Union([Type.Literal('invoice'), Type.Literal('credit-note')]),
      number: Type.String(),
      issuedAt: Type.String({ format: 'date-time' }),
      totalPaise: Type.Integer(),
      /** The place of supply, "Kerala (32)". */
      placeOfSupply: Type.String(),
    }),
  ),
});
export type OrderDetail = Static<typeof OrderDetail>;

/** A private note; `noteId` is made by the page, so that a second press (or a retried request) adds it once. */
export const AddOrderNoteBody = Type.Object({ noteId: Id, text: PlainText({ minLength: 1, maxLength: 2000 }) }, { additionalProperties: false });
export type AddOrderNoteBody = Static<typeof AddOrderNoteBody>;

/** A refund of `amountPaise` (integer paise; the server checks it against what is left); `refundId` is the page's, the key that makes a retry one refund. */
export const RefundOrderBody = Type.Object(
  { refundId: Id, amountPaise: Type.Integer({ minimum: 100 }), reason: PlainText({ minLength: 1, maxLength: 500 }) },
  { additionalProperties: false },
);
export type RefundOrderBody = Static<typeof RefundOrderBody>;

/** A copy of an e-mail sent again; `requestId` is made by the page: one copy per press, whatever the retries. */
export const ResendOrderEmailBody = Type.Object({ requestId: Id }, { additionalProperties: false });
export type ResendOrderEmailBody = Static<typeof ResendOrderEmailBody>;

/** What the holder of a persona id may see (the /send-persona page); no e-mail, phone or address. */
export const PublicOrder = Type.Object({
  personaId: Type.String(),
  /** The book's id lets a buyer whose payment failed try the same book again. */
  book: OrderBook,
  deliveryType: DeliveryTypeSchema,
  deliveryStatus: DeliveryStatusSchema,
  paymentStatus: PaymentStatusSchema,
  personaStatus: PersonaStatusSchema,
  personalizedPdfUrl: Type.Union([Type.String(), Type.Null()]),
  /** Every file ready, by format (DESIGN §12: the formats ready); empty until the Persona is. */
  downloads: Type.Array(PersonaDownload),
  createdAt: Type.String({ format: 'date-time' }),
  paidAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** A printed copy's carrier and tracking number once shipped, for its buyer to follow. */
  shipment: Type.Union([Shipment, Type.Null()]),
  /** A gift, and the day its recipient is e-mailed it (DESIGN §12: never the recipient's address). */
  gift: Type.Boolean(),
  deliverOn: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  /** When the order was refunded in full (its Persona's licence ended); null while it holds. */
  refundedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type PublicOrder = Static<typeof PublicOrder>;

/**
 * A paid Persona that could not be made (persona.failed) is made again or refunded in full within
 * this many business days: the promise the buyer's e-mail and the storefront's pages make.
 */
export const PERSONA_REMEDY_BUSINESS_DAYS = 2;

/**
 * What the buyer of a Persona that could not be made is told, in the same words by e-mail and on
 * every storefront page that shows the Persona: the payment is safe, what went wrong, that the
 * shop knows, and what happens by when.
 */
export const PERSONA_FAILED_NOTICE = {
  heading: "We couldn't make your Persona yet",
  message:
    'Your payment is safe. Making your Persona ran into a problem, and the shop has been alerted: ' +
    `we will make it again or refund you in full within ${PERSONA_REMEDY_BUSINESS_DAYS} business days.`,
  /** What the buyer does meanwhile: nothing. */
  next: 'You need do nothing. We e-mail you the moment your Persona is ready.',
} as const;

/** The filters of the administrator's order list, and of its CSV export. */
const OrderFilters = {
  status: Type.Optional(DeliveryStatusSchema),
  deliveryType: Type.Optional(DeliveryTypeSchema),
  paymentStatus: Type.Optional(PaymentStatusSchema),
  /** A Persona ID or order id (exact), an e-mail address (exact or its beginning), or a buyer's name (tolerant of a typo). */
  search: Type.Optional(PlainText({ maxLength: 100 })),
  personaStatus: Type.Optional(PersonaStatusSchema),
  /** Days of the shop (India time, SHOP_UTC_OFFSET), both included. */
  from: Type.Optional(Type.String({ format: 'date' })),
  to: Type.Optional(Type.String({ format: 'date' })),
};

/** `GET /api/orders`: newest first; deep pages by cursor (`after`/`before`), totals counted up to COUNT_CAP. */
export const OrderQuery = Type.Object({ ...OrderFilters, ...PageQuery, ...CursorQuery }, { additionalProperties: false });
export type OrderQuery = Static<typeof OrderQuery>;

/** `GET /api/orders/export`: every order matching the filters as `orders.csv` (spec §9), streamed. */
export const OrderExportQuery = Type.Object(OrderFilters, { additionalProperties: false });
export type OrderExportQuery = Static<typeof OrderExportQuery>;

/** The orders export of spec §9: its file name and columns. */
export const ORDERS_CSV_FILENAME = 'orders.csv';
export const ORDERS_CSV_HEADER = ['S.No', 'Customer', 'Book Title', 'Delivery Type', 'Delivery Status', 'Order ID'] as const;

/** The dispatch list: what a printer and a courier need of every paid printed copy the filters keep. */
export const DISPATCH_CSV_FILENAME = 'dispatch-list.csv';
export const DISPATCH_CSV_HEADER = ['Persona ID', 'Ship by', 'Name', 'Phone', 'Address', 'Book', 'Amount', 'Date', 'Interior PDF', 'Cover PDF'] as const;

/** Only a printed copy has a delivery status; marking it shipped may name the carrier and the tracking number. */
export const UpdateDeliveryStatusBody = Type.Object(
  {
    deliveryStatus: DeliveryStatusSchema,
    carrier: Type.Optional(PlainText({ minLength: 1, maxLength: 60 })),
    trackingNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 60, pattern: '^[A-Za-z0-9][A-Za-z0-9 -]*$' })),
  },
  { additionalProperties: false },
);
export type UpdateDeliveryStatusBody = Static<typeof UpdateDeliveryStatusBody>;

export const personalizedPdfUrl = (personaId: string) => `/api/personas/${personaId}/download`;
/** An order's tax invoice (PDF), or one of its credit notes by id: by Persona ID for its buyer, by either id for an administrator. */
export const orderInvoiceUrl = (id: string, documentId?: string) =>
  `/api/orders/${encodeURIComponent(id)}/invoice${documentId ? `?document=${encodeURIComponent(documentId)}` : ''}`;

/** Paid orders and what they brought in (rupees). */
export const SalesTotals = Type.Object({ orders: Type.Integer({ minimum: 0 }), revenue: Type.Number({ minimum: 0, description: 'rupees' }) });
export type SalesTotals = Static<typeof SalesTotals>;

/** One of the shop's days (India time) in the dashboard's chart. */
export const SalesDay = Type.Object({ date: Type.String({ format: 'date' }), ...SalesTotals.properties });
export type SalesDay = Static<typeof SalesDay>;

/** How many days the dashboard's chart shows. */
export const SALES_CHART_DAYS = 30;

/**
 * `GET /api/orders/summary` (admin): the dashboard's numbers. Paid orders count on the day they
 * were placed (the order list's date filter), so each figure is the total of the list it links to.
 */
export const OrderSummary = Type.Object({
  /** The shop's today (India time). */
  today: Type.String({ format: 'date' }),
  sales: Type.Object({ today: SalesTotals, last7Days: SalesTotals, last30Days: SalesTotals }),
  /** Every day of the last SALES_CHART_DAYS, oldest first, today last; days without a sale are zeros. */
  days: Type.Array(SalesDay),
  /** Paid printed copies still pending dispatch. */
  awaitingDispatch: Type.Integer({ minimum: 0 }),
  /** Paid orders whose Persona could not be made. */
  failedPersonas: Type.Integer({ minimum: 0 }),
  /** Why the shop refuses live payments (PUBLIC_URL unset or local: every copy would print it), or null when it sells. */
  livePaymentsRefused: Type.Union([Type.String(), Type.Null()]),
});
export type OrderSummary = Static<typeof OrderSummary>;

/** A buyer's library (DESIGN §12): a sign-in link by e-mail, then every Persona of that address. */
export const LIBRARY_LINK_MINUTES = 15;
/** How long the library stays open after its link was used (a reload keeps it). */
export const LIBRARY_SESSION_MINUTES = 60;
/** The header that carries a library link's token, or the session it opened. */
export const LIBRARY_TOKEN_HEADER = 'x-library-token';

/** `POST /api/library/link`: always 202, whether the address has Personas or not. */
export const LibraryLinkBody = Type.Object({ email: Type.String({ format: 'email', maxLength: 200 }) }, { additionalProperties: false });
export type LibraryLinkBody = Static<typeof LibraryLinkBody>;

export const LibraryPersona = Type.Object({
  ...Type.Pick(PublicOrder, ['personaId', 'book', 'deliveryType', 'personaStatus']).properties,
  /** When it was bought. */
  paidAt: Type.String({ format: 'date-time' }),
  /** A gift: bought by this address for someone (`to`), or given to this address (`from`, the buyer's name). */
  gift: Type.Union([
    Type.Object({ direction: Type.Literal('given'), recipientName: Type.String(), deliverOn: Type.String({ format: 'date' }) }),
    Type.Object({ direction: Type.Literal('received'), from: Type.String(), deliverOn: Type.String({ format: 'date' }) }),
    Type.Null(),
  ]),
  /** The downloads ready, by format; none once the order is refunded in full. */
  downloads: Type.Array(PersonaDownload),
  verifyUrl: Type.String(),
  /** When the order was refunded in full (the licence ended); null while it holds. */
  refundedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** The buyer's tax invoice and credit notes (PDF), as issued; none for a gift received (they are the buyer's papers). */
  documents: Type.Array(Type.Object({ kind: Type.Union([Type.Literal('invoice'), Type.Literal('credit-note')]), number: Type.String(), url: Type.String() })),
});
export type LibraryPersona = Static<typeof LibraryPersona>;

/** `GET /api/library` (with LIBRARY_TOKEN_HEADER): the address's Personas, newest first, and the session that keeps it open. */
export const Library = Type.Object({
  email: Type.String(),
  personas: Type.Array(LibraryPersona),
  session: Type.Object({ token: Type.String(), expiresAt: Type.String({ format: 'date-time' }) }),
});
export type Library = Static<typeof Library>;

/**
 * Razorpay's webhook (POST /api/payments/webhook): its event as Razorpay sends it
 * (https://razorpay.com/docs/webhooks/), read as the exact bytes it signed in `x-razorpay-signature`.
 */
export const PaymentWebhookEvent = Type.Object({}, { description: "Razorpay's webhook event, as signed" });

/** A print house's webhook (issue 27): PRINT_JOB_STATUS_CHANGED, as signed (Lulu-HMAC-SHA256). */
export const PrintHouseWebhookEvent = Type.Object({}, { description: "The print house's webhook event, as signed" });
/** What the print house's webhook answers: the update applied to its job, or nothing this shop acts on. */
export const PrintHouseWebhookReceipt = Type.Object({ status: Type.Union([Type.Literal('applied'), Type.Literal('ignored')]) });

/** What the webhook answers once the event is recorded (or known, or of a kind the shop does not act on). */
export const PaymentWebhookReceipt = Type.Object({
  status: Type.Union([Type.Literal('accepted'), Type.Literal('duplicate'), Type.Literal('ignored')]),
});
