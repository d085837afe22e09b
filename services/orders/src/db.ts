// The orders schema as kysely sees it. Row types stay inside repositories.
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface OrdersTable {
  id: Generated<string>;
  persona_id: string;
  book_id: string;
  book_title: string;
  book_author: string;
  full_name: string;
  email: string;
  phone: string;
  delivery_type: 'digital' | 'physical';
  address: ColumnType<unknown, string | null, string | null>;
  base_paise: number;
  printing_paise: number;
  delivery_paise: number;
  amount_paise: number;
  currency: Generated<string>;
  payment_status: Generated<'created' | 'attempted' | 'paid' | 'failed'>;
  delivery_status: Generated<'pending' | 'shipped' | 'delivered' | 'cancelled'>;
  persona_status: Generated<'pending' | 'generating' | 'ready' | 'failed'>;
  persona_error: string | null;
  persona_sha256: string | null;
  razorpay_order_id: string | null;
  razorpay_payment_id: string | null;
  paid_via: string | null;
  /** When the reconciler next asks the provider about this unpaid order; null: nothing to ask. */
  payment_check_at: NullableTimestamp;
  /** How many times it has asked. */
  payment_checks: Generated<number>;
  idempotency_key: string | null;
  request_hash: string | null;
  /** The checkout's correlation id; order.paid carries it. */
  correlation_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  paid_at: NullableTimestamp;
  /** A printed copy's shipment, set when it is marked shipped. */
  carrier: ColumnType<string | null, string | null | undefined, string | null>;
  tracking_number: ColumnType<string | null, string | null | undefined, string | null>;
  shipped_at: NullableTimestamp;
  /** A gift (DESIGN §12): the name printed, the message, the recipient's address and the shop's day they are e-mailed it. */
  gift_recipient_name: ColumnType<string | null, string | null | undefined, string | null>;
  gift_message: ColumnType<string | null, string | null | undefined, string | null>;
  gift_recipient_email: ColumnType<string | null, string | null | undefined, string | null>;
  gift_deliver_on: ColumnType<string | null, string | null | undefined, string | null>;
  /** The files of the ready Persona, comma-separated ('pdf', 'pdf,epub'); null: the PDF only. */
  persona_formats: ColumnType<string | null, string | null | undefined, string | null>;
  /** The buyer's GST state code (the invoice's place of supply); null: not asked, the shop's own state. */
  buyer_state: ColumnType<string | null, string | null | undefined, string | null>;
  /** A coupon's code and what it took off the book's price (amount_paise is after it). */
  coupon_id: ColumnType<string | null, string | null | undefined, string | null>;
  coupon_code: ColumnType<string | null, string | null | undefined, string | null>;
  discount_paise: ColumnType<number, number | undefined, number>;
  /** When its refunds processed reached what was paid (issue 23): its Personas' licence ended then. */
  refunded_in_full_at: NullableTimestamp;
  /** The administrator's cancellation of its printed copy before dispatch: its id, also its refund's. */
  print_cancel_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** A paid printed copy's last day to leave the shop (YYYY-MM-DD, the shop's day); null: an e-book, or unpaid. */
  ship_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** Generated from ship_by: the dispatch list's descending key (-20261203; no date: last). */
  ship_by_key: ColumnType<number, never, never>;
}

/** A Persona re-issued with corrected names (issue 23): the order names the new one; this keeps the old. */
export interface PersonaReissuesTable {
  id: string;
  order_id: string;
  old_persona_id: string;
  new_persona_id: string;
  buyer_name: string;
  recipient_name: string | null;
  message: string | null;
  reason: string;
  requested_by: string;
  created_at: Generated<Date>;
}

export interface WebhookEventsTable {
  event_id: string;
  event: string;
  received_at: Timestamp;
  /** The provider's neutral action (WebhookAction) as recorded; null for rows from before the inbox. */
  action: ColumnType<unknown, string | null | undefined, string | null>;
  /** When the inbox next tries it; null once handled. */
  due_at: NullableTimestamp;
  attempts: Generated<number>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  handled_at: NullableTimestamp;
  /** What handling it did (WebhookOutcome). */
  outcome: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface PaymentAttemptsTable {
  id: Generated<number>;
  order_id: string;
  razorpay_payment_id: string | null;
  outcome: string;
  source: string;
  detail: string | null;
  created_at: Timestamp;
}

export interface EmailsTable {
  id: Generated<string>;
  /** Null for an e-mail about no order (a library sign-in link). */
  order_id: string | null;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  /** The same e-mail as HTML (mail/email-body); null for e-mails queued before it existed. */
  html_body: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  sent_at: NullableTimestamp;
  attempts: Generated<number>;
  last_error: string | null;
  /** Until when a mail relay holds the e-mail to send it; another relay takes it only after. */
  claimed_until: NullableTimestamp;
  /** The claim that holds it: renewing the lease, and recording the send or the failure, are done under it only. */
  claim_token: ColumnType<string | null, string | null | undefined, string | null>;
  /** The correlation id of the event that queued the e-mail, for the relay's log lines. */
  correlation_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Not sent before this moment (a gift's delivery day); null: as soon as possible. */
  send_after: NullableTimestamp;
  /** What made an e-mail an order may owe more than once due (the persona.failed event of the shop's alert); '' for the rest, one per order and kind. */
  occasion: ColumnType<string, string | undefined, string>;
  /** A copy an administrator had sent again: the e-mail it copies. */
  resend_of: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An administrator's private note on an order. */
export interface OrderNotesTable {
  id: string;
  order_id: string;
  /** The administrator's e-mail address. */
  author: string;
  text: string;
  created_at: Generated<Date>;
}

export interface LibraryTokensTable {
  /** SHA-256 (hex) of the token: the token itself is never stored. */
  token_hash: string;
  kind: 'link' | 'session';
  /** Lower case. */
  email: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Generated<Date>;
}

export interface OrdersDB {
  library_tokens: LibraryTokensTable;
  orders: OrdersTable;
  webhook_events: WebhookEventsTable;
  payment_attempts: PaymentAttemptsTable;
  emails: EmailsTable;
  order_notes: OrderNotesTable;
  refunds: RefundsTable;
  persona_reissues: PersonaReissuesTable;
  coupons: CouponsTable;
  coupon_email_uses: CouponEmailUsesTable;
  coupon_redemptions: CouponRedemptionsTable;
  invoice_counters: InvoiceCountersTable;
  invoices: InvoicesTable;
  outbox: any;
  inbox: any;
}

/** The last number taken in each document series and financial year (gap-free: see the invoices migration). */
export interface InvoiceCountersTable {
  series: 'invoice' | 'credit-note';
  /** The year the financial year starts (2026: April 2026 to March 2027, IST). */
  financial_year: number;
  last_number: number;
}

/** GST invoices and credit notes, as issued: never changed but for the PDF, never deleted. */
export interface InvoicesTable {
  id: Generated<string>;
  kind: 'invoice' | 'credit-note';
  number: string;
  financial_year: number;
  sequence: number;
  order_id: string;
  issued_at: Timestamp;
  place_of_supply: string;
  supply_type: 'intra-state' | 'inter-state';
  /** JSON written as text, read back parsed. */
  seller: ColumnType<unknown, string, string>;
  buyer: ColumnType<unknown, string, string>;
  lines: ColumnType<unknown, string, string>;
  gross_paise: number;
  discount_paise: number;
  taxable_paise: number;
  exempt_paise: number;
  cgst_paise: number;
  sgst_paise: number;
  igst_paise: number;
  total_paise: number;
  /** A credit note's invoice and refund; null for an invoice. */
  credits_invoice_id: ColumnType<string | null, string | null | undefined, string | null>;
  refund_id: ColumnType<string | null, string | null | undefined, string | null>;
  pdf: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  created_at: Generated<Date>;
}

export type RefundStatus = 'requested' | 'pending' | 'processed' | 'failed';

/** A refund of (part of) an order's payment (migration 20270102000200_refunds). */
export interface RefundsTable {
  /** Also the X-Refund-Idempotency key Razorpay was sent. */
  id: string;
  order_id: string;
  payment_id: string;
  amount_paise: number;
  speed: 'normal' | 'optimum';
  reason: string;
  status: RefundStatus;
  provider_refund_id: string | null;
  failure: string | null;
  requested_by: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  processed_at: Date | null;
  /** When the poller next asks about it; null: final. */
  check_at: Date | null;
  checks: Generated<number>;
}

/** Coupon codes (migration 20270103000000_coupons). */
export interface CouponsTable {
  id: string;
  /** In capitals. */
  code: string;
  percent_off: number | null;
  amount_off_paise: number | null;
  min_order_paise: number;
  valid_from: Date | null;
  valid_to: Date | null;
  /** Empty: every book. */
  book_ids: ColumnType<string[], string[], string[]>;
  total_limit: number | null;
  per_email_limit: number | null;
  /** Redemptions held: reserved or final. */
  used: Generated<number>;
  active: boolean;
  created_by: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** Redemptions held per code and (lower-case) e-mail. */
export interface CouponEmailUsesTable {
  coupon_id: string;
  email: string;
  used: number;
}

export type CouponRedemptionState = 'reserved' | 'final' | 'released';

export interface CouponRedemptionsTable {
  order_id: string;
  coupon_id: string;
  /** Lower case. */
  email: string;
  discount_paise: number;
  state: CouponRedemptionState;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
