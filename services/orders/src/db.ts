// The orders schema as kysely sees it: the tables its migrations make (db.generated.ts, `node
// scripts/db-types.mjs`), narrowed where the code knows more than PostgreSQL's types say (a
// status's values, JSON written as text and read as `unknown`). Row types stay inside repositories.
import type { Refine } from '@persona/db';
import type { ColumnType } from 'kysely';
import type { DB } from './db.generated';

/** JSON written as text (JSON.stringify), read back parsed. */
type JsonText = ColumnType<unknown, string, string>;

export type OrdersTable = Refine<
  DB['orders'],
  {
    delivery_type: 'digital' | 'physical';
    address: ColumnType<unknown, string | null, string | null>;
    payment_status: ColumnType<'created' | 'attempted' | 'paid' | 'failed', 'created' | 'attempted' | 'paid' | 'failed' | undefined>;
    delivery_status: ColumnType<'pending' | 'shipped' | 'delivered' | 'cancelled', 'pending' | 'shipped' | 'delivered' | 'cancelled' | undefined>;
    persona_status: ColumnType<'pending' | 'generating' | 'ready' | 'failed', 'pending' | 'generating' | 'ready' | 'failed' | undefined>;
    /** Generated from ship_by: the dispatch list's descending key (-20261203; no date: last). */
    ship_by_key: ColumnType<number, never, never>;
  }
>;

/** A Persona re-issued with corrected names (issue 23): the order names the new one; this keeps the old. */
export type PersonaReissuesTable = DB['persona_reissues'];

export type WebhookEventsTable = Refine<
  DB['webhook_events'],
  {
    /** The provider's neutral action (WebhookAction) as recorded; null for rows from before the inbox. */
    action: ColumnType<unknown, string | null | undefined, string | null>;
  }
>;

export type PaymentAttemptsTable = DB['payment_attempts'];

export type EmailsTable = DB['emails'];

/** An administrator's private note on an order. */
export type OrderNotesTable = DB['order_notes'];

export type LibraryTokensTable = Refine<DB['library_tokens'], { kind: 'link' | 'session' }>;

/** The last number taken in each document series and financial year (gap-free: see the invoices migration). */
export type InvoiceCountersTable = Refine<DB['invoice_counters'], { series: 'invoice' | 'credit-note' }>;

/** GST invoices and credit notes, as issued: never changed but for the PDF, never deleted. */
export type InvoicesTable = Refine<
  DB['invoices'],
  {
    kind: 'invoice' | 'credit-note';
    supply_type: 'intra-state' | 'inter-state';
    seller: JsonText;
    buyer: JsonText;
    lines: JsonText;
    pdf: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  }
>;

export type RefundStatus = 'requested' | 'pending' | 'processed' | 'failed';

/** A refund of (part of) an order's payment (migration 20270102000200_refunds). */
export type RefundsTable = Refine<DB['refunds'], { speed: 'normal' | 'optimum'; status: RefundStatus }>;

/** Coupon codes (migration 20270103000000_coupons). */
export type CouponsTable = DB['coupons'];

/** Redemptions held per code and (lower-case) e-mail. */
export type CouponEmailUsesTable = DB['coupon_email_uses'];

export type CouponRedemptionState = 'reserved' | 'final' | 'released';

export type CouponRedemptionsTable = Refine<DB['coupon_redemptions'], { state: CouponRedemptionState }>;

export type OrdersDB = Refine<
  DB,
  {
    orders: OrdersTable;
    webhook_events: WebhookEventsTable;
    library_tokens: LibraryTokensTable;
    invoice_counters: InvoiceCountersTable;
    invoices: InvoicesTable;
    refunds: RefundsTable;
    coupon_redemptions: CouponRedemptionsTable;
  }
>;
