// All kysely code for orders. It answers rows; orders.mapper makes the wire shapes.
import { sql, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import {
  COUNT_CAP,
  DEFAULT_PAGE_SIZE,
  PERSON_SEARCH_COUNT_CAP,
  normalizePersonaId,
  SHOP_UTC_OFFSET,
  shopDayStart,
  type Address,
  type DeliveryStatus,
  type OrderExportQuery,
} from '@persona/contracts';
import {
  countedPage,
  keysetPage,
  personMatch,
  spellingFor,
  writtenThenNear,
  type CountedPage,
  type CursorValue,
  type KeysetColumn,
  type PersonSpelling,
} from '@persona/db';
import type { OrdersDB, OrdersTable } from '../../db';
import type { WebhookAction } from '../payments/payment-provider';

type Db = Kysely<OrdersDB>;
export type OrderRow = Selectable<OrdersTable>;

export interface NewOrder {
  /** Chosen by the caller when the Razorpay order (receipt = this id) is made before the row. */
  id?: string;
  razorpay_order_id?: string | null;
  /** When the reconciler first asks about it (payments/payment-checks.ts); none without a Razorpay order. */
  payment_check_at?: Date | null;
  persona_id: string;
  book_id: string;
  book_title: string;
  book_author: string;
  full_name: string;
  email: string;
  phone: string;
  delivery_type: 'digital' | 'physical';
  address: Address | null;
  base_paise: number;
  printing_paise: number;
  delivery_paise: number;
  amount_paise: number;
  idempotency_key: string | null;
  request_hash: string | null;
  correlation_id?: string | null;
  gift_recipient_name?: string | null;
  gift_message?: string | null;
  gift_recipient_email?: string | null;
  gift_deliver_on?: string | null;
  /** The buyer's GST state code (the invoice's place of supply). */
  buyer_state?: string | null;
  /** A coupon's code and what it took off (amount_paise is after it). */
  coupon_id?: string | null;
  coupon_code?: string | null;
  discount_paise?: number;
}

export async function insertOrder(db: Db, order: NewOrder): Promise<OrderRow> {
  return db
    .insertInto('orders')
    .values({ ...order, address: order.address ? JSON.stringify(order.address) : null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export const findOrderById = (db: Db, id: string) => db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
/** The order a Persona ID names: its Persona's, or one it had before a re-issue (its buyer's older e-mails carry that one). */
export async function findOrderByPersonaId(db: Db, personaId: string): Promise<OrderRow | undefined> {
  const row = await db.selectFrom('orders').selectAll().where('persona_id', '=', personaId).executeTakeFirst();
  if (row) return row;
  const reissue = await db.selectFrom('persona_reissues').select('order_id').where('old_persona_id', '=', personaId).executeTakeFirst();
  return reissue ? findOrderById(db, reissue.order_id) : undefined;
}
export const findOrderByRazorpayOrderId = (db: Db, rzp: string) => db.selectFrom('orders').selectAll().where('razorpay_order_id', '=', rzp).executeTakeFirst();
export const findOrderByIdempotencyKey = (db: Db, key: string) => db.selectFrom('orders').selectAll().where('idempotency_key', '=', key).executeTakeFirst();

/** Records the order's Razorpay order, and when the reconciler first asks about it. */
export async function setRazorpayOrderId(db: Db, id: string, razorpayOrderId: string, firstCheckAt: Date | null): Promise<void> {
  await db
    .updateTable('orders')
    .set({ razorpay_order_id: razorpayOrderId, payment_check_at: firstCheckAt, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/**
 * Moves an order to paid once; answers the row only when this call made the transition.
 * `captureCheckAt`: when the reconciler makes sure the payment is captured (a verify proves an
 * authorisation only); null when the provider said it was captured.
 */
export async function markPaid(
  db: Db,
  id: string,
  razorpayPaymentId: string,
  via: string,
  captureCheckAt: Date | null,
  shipBy: string | null = null,
): Promise<OrderRow | undefined> {
  return db
    .updateTable('orders')
    .set({
      payment_status: 'paid',
      ship_by: shipBy,
      paid_at: sql`now()`,
      razorpay_payment_id: razorpayPaymentId,
      paid_via: via,
      payment_check_at: captureCheckAt,
      persona_status: 'generating',
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .where('payment_status', '<>', 'paid')
    .returningAll()
    .executeTakeFirst();
}

/** Records a failed or started attempt; never moves an order back from paid. */
export async function markUnpaidAttempt(db: Db, id: string, status: 'attempted' | 'failed'): Promise<void> {
  await db.updateTable('orders').set({ payment_status: status, updated_at: new Date() }).where('id', '=', id).where('payment_status', '<>', 'paid').execute();
}

export async function recordAttempt(
  db: Db,
  attempt: { order_id: string; razorpay_payment_id: string | null; outcome: string; source: string; detail?: string },
): Promise<void> {
  await db
    .insertInto('payment_attempts')
    .values({ ...attempt, detail: attempt.detail ?? null })
    .execute();
}

/** The order, its row locked until the transaction ends. */
export function findOrderForUpdate(db: Db, id: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** A failed Persona asked for again: the order goes back to "generating". */
export function markPersonaRequestedAgain(db: Db, id: string): Promise<OrderRow> {
  return db
    .updateTable('orders')
    .set({ persona_status: 'generating', persona_error: null, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Who carries a shipped copy and its tracking number, either unknown. */
export interface ShipmentDetails {
  carrier: string | null;
  trackingNumber: string | null;
}

/** The order as it was (locked for the change) and as it now is; marking it shipped records the shipment. */
export async function setDeliveryStatus(
  db: Db,
  id: string,
  status: DeliveryStatus,
  shipment?: ShipmentDetails,
): Promise<{ before: OrderRow; after: OrderRow } | undefined> {
  const before = await findOrderForUpdate(db, id);
  if (!before) return undefined;
  const shipping = status === 'shipped' && shipment;
  const after = await db
    .updateTable('orders')
    .set({
      delivery_status: status,
      updated_at: new Date(),
      ...(shipping ? { carrier: shipment.carrier, tracking_number: shipment.trackingNumber, shipped_at: before.shipped_at ?? new Date() } : {}),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { before, after };
}

export async function setPersonaStatus(
  db: Db,
  personaId: string,
  change: { status: 'ready'; sha256: string; formats?: readonly string[] } | { status: 'failed'; error: string } | { status: 'generating' },
): Promise<OrderRow | undefined> {
  const values =
    change.status === 'ready'
      ? { persona_status: 'ready' as const, persona_sha256: change.sha256, persona_error: null, persona_formats: (change.formats ?? ['pdf']).join(',') }
      : change.status === 'failed'
        ? { persona_status: 'failed' as const, persona_error: change.error }
        : { persona_status: 'generating' as const, persona_error: null };
  let query = db
    .updateTable('orders')
    .set({ ...values, updated_at: new Date() })
    .where('persona_id', '=', personaId);
  // A late failure or retry notice never hides a Persona that is already ready.
  if (change.status !== 'ready') query = query.where('persona_status', '<>', 'ready');
  return query.returningAll().executeTakeFirst();
}

/** A paid order's day of the shop (India time) as YYYY-MM-DD. */
const shopDay = sql<string>`to_char(created_at AT TIME ZONE interval ${sql.lit(SHOP_UTC_OFFSET)}, 'YYYY-MM-DD')`;

export interface SalesDayRow {
  day: string;
  orders: number;
  revenue_paise: number;
}

/**
 * The paid orders of each of the shop's days from `fromDay` on (days without one are absent):
 * a range of the paid-sales index, read without the table (it carries the amount).
 */
export function salesByDay(db: Db, fromDay: string): Promise<SalesDayRow[]> {
  return db
    .selectFrom('orders')
    .where('payment_status', '=', 'paid')
    .where('created_at', '>=', shopDayStart(fromDay))
    .select([shopDay.as('day'), sql<number>`count(*)::int`.as('orders'), sql<number>`coalesce(sum(amount_paise), 0)::float8`.as('revenue_paise')])
    .groupBy(shopDay)
    .orderBy(shopDay)
    .execute();
}

export interface WorkCountsRow {
  awaiting_dispatch: number;
  failed_personas: number;
}

/** What waits for the administrator: paid printed copies not yet dispatched, paid orders whose Persona failed. */
export async function workCounts(db: Db): Promise<WorkCountsRow> {
  const paid = db.selectFrom('orders').where('payment_status', '=', 'paid');
  const [awaiting, failed] = await Promise.all([
    paid
      .where('delivery_type', '=', 'physical')
      .where('delivery_status', '=', 'pending')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow(),
    paid
      .where('persona_status', '=', 'failed')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { awaiting_dispatch: awaiting.n, failed_personas: failed.n };
}

/** The list's order: newest first, ties by id (the (created_at, id) b-tree, read backwards). */
export const ORDER_KEYS: readonly KeysetColumn[] = [
  { ref: 'created_at', cast: 'timestamptz' },
  { ref: 'id', cast: 'uuid' },
];

/**
 * The dispatch list's order (issue 24): printed copies to send, the earliest ship-by date first
 * (ship_by_key is minus the date, read descending like every list's key), ties by id.
 */
export const DISPATCH_KEYS: readonly KeysetColumn[] = [
  { ref: 'ship_by_key', cast: 'bigint' },
  { ref: 'id', cast: 'uuid' },
];

/** The administrator's list is the dispatch list when it keeps the printed copies still to send. */
export const isDispatchList = (filter: OrderExportQuery) => filter.deliveryType === 'physical' && filter.status === 'pending';

/** The keys a list with these filters is ordered by (its cursors carry their values). */
export const listKeys = (filter: OrderExportQuery) => (isDispatchList(filter) ? DISPATCH_KEYS : ORDER_KEYS);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The search when it is a buyer's name or address (not a Persona ID or an order id): what a near spelling may be tried for. */
function personSearch(filter: OrderExportQuery): string | undefined {
  const text = filter.search?.trim();
  return text && !normalizePersonaId(text) && !UUID.test(text) ? text : undefined;
}

/**
 * The orders the filters keep. A search is read as what it looks like: a Persona ID or an order
 * id (exact), an e-mail address (exactly, or its beginning), else a buyer's name (any part of
 * it) or the beginning of an e-mail address; `near` reads a name by its near spellings instead.
 */
export function filteredOrders(db: Db, filter: OrderExportQuery, spelling: PersonSpelling = 'written') {
  let q = db.selectFrom('orders');
  if (filter.status) q = q.where('delivery_status', '=', filter.status);
  if (filter.deliveryType) q = q.where('delivery_type', '=', filter.deliveryType);
  if (filter.paymentStatus) q = q.where('payment_status', '=', filter.paymentStatus);
  if (filter.personaStatus) q = q.where('persona_status', '=', filter.personaStatus);
  if (filter.from) q = q.where('created_at', '>=', shopDayStart(filter.from));
  if (filter.to) q = q.where('created_at', '<', sql<Date>`${shopDayStart(filter.to)}::timestamptz + interval '1 day'`);
  const text = filter.search?.trim();
  if (text) {
    const personaId = normalizePersonaId(text);
    if (personaId) q = q.where('persona_id', '=', personaId);
    else if (UUID.test(text)) q = q.where('id', '=', text);
    else q = q.where(personMatch(text, { name: 'full_name', email: 'email' }, spelling));
  }
  return q;
}

export interface OrderPageRequest {
  filter: OrderExportQuery;
  limit?: number;
  page?: number;
  after?: CursorValue[];
  before?: CursorValue[];
  /** Where counting stops (COUNT_CAP). */
  countCap?: number;
}

export type OrderPage = CountedPage<OrderRow>;

const withCursor = (db: Db, filter: OrderExportQuery, spelling: PersonSpelling) =>
  filteredOrders(db, filter, spelling)
    .selectAll()
    .select(sql<string>`created_at::text`.as('cursor_at'));
const orderKey = (row: { cursor_at: string; id: string }): CursorValue[] => [row.cursor_at, row.id];
const dispatchKey = (row: { ship_by_key: number; id: string }): CursorValue[] => [row.ship_by_key, row.id];

/**
 * A page of the administrator's list (by cursor, or an offset page), with the matches counted up
 * to a cap (a search's to PERSON_SEARCH_COUNT_CAP). A name that matches no one is read again by
 * its near spellings.
 */
export function listOrders(db: Db, request: OrderPageRequest): Promise<OrderPage> {
  const { filter, limit = DEFAULT_PAGE_SIZE, countCap = COUNT_CAP, ...cursors } = request;
  const searching = Boolean(filter.search?.trim());
  const cap = searching ? Math.min(countCap, PERSON_SEARCH_COUNT_CAP) : countCap;
  const dispatch = isDispatchList(filter);
  return writtenThenNear(personSearch(filter), (spelling) =>
    countedPage(
      db,
      withCursor(db, filter, spelling),
      filteredOrders(db, filter, spelling),
      dispatch ? DISPATCH_KEYS : ORDER_KEYS,
      dispatch ? dispatchKey : orderKey,
      {
        limit,
        countCap: cap,
        sparse: searching,
        ...cursors,
      },
    ),
  );
}

/**
 * Every paid printed copy the filters keep, the earliest ship-by date first, `batchSize` at a time
 * (the dispatch list): whatever the filters say of payment and delivery type, only those a
 * printer has to print.
 */
export function dispatchBatches(db: Db, filter: OrderExportQuery, batchSize: number): AsyncGenerator<OrderRow[]> {
  return keysetBatches(withCursor(db, { ...filter, paymentStatus: 'paid', deliveryType: 'physical' }, 'written'), batchSize, DISPATCH_KEYS, dispatchKey);
}

async function* keysetBatches<R extends { id: string }>(
  rows: SelectQueryBuilder<OrdersDB, 'orders', R>,
  batchSize: number,
  keys: readonly KeysetColumn[],
  keyOf: (row: R) => CursorValue[],
): AsyncGenerator<R[]> {
  let after: CursorValue[] | undefined;
  for (;;) {
    const page = await keysetPage(rows, keys, keyOf, { limit: batchSize, after });
    if (page.rows.length > 0) yield page.rows;
    if (!page.next) return;
    after = keyOf(page.rows.at(-1)!);
  }
}

/** What orders.csv reads of an order (spec §9's columns), and its place in the list. */
export type ExportRow = Pick<OrderRow, 'id' | 'full_name' | 'book_title' | 'delivery_type' | 'delivery_status'> & { cursor_at: string };

/**
 * Every order the filters keep, newest first, `batchSize` at a time (the export): one batch in
 * memory at once, and only the columns the file has (a million orders make little garbage).
 */
export async function* orderBatches(db: Db, filter: OrderExportQuery, batchSize: number): AsyncGenerator<ExportRow[]> {
  const spelling = await spellingFor(
    personSearch(filter),
    async (s) =>
      (
        await filteredOrders(db, filter, s)
          .select(sql<number>`1`.as('one'))
          .limit(1)
          .execute()
      ).length > 0,
  );
  const rows = filteredOrders(db, filter, spelling).select([
    'id',
    'full_name',
    'book_title',
    'delivery_type',
    'delivery_status',
    sql<string>`created_at::text`.as('cursor_at'),
  ]);
  yield* keysetBatches(rows, batchSize, ORDER_KEYS, orderKey);
}

/** The reconciler asks about the order at its next run (a payment authorised, to be captured). */
export async function askAboutPaymentNow(db: Db, id: string): Promise<void> {
  await db
    .updateTable('orders')
    .set({ payment_check_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** Nothing more to ask the provider about the order (its payment is captured). */
export async function paymentChecksDone(db: Db, id: string): Promise<void> {
  await db.updateTable('orders').set({ payment_check_at: null }).where('id', '=', id).execute();
}

/**
 * Claims up to `limit` orders (unpaid, or paid with a payment not yet seen captured) whose question to the provider is due at `now`, the longest
 * due first, and moves each one's due time on (`next`: the order's next question, null when its
 * schedule is over) in the same transaction: two reconcilers never claim the same order (SKIP
 * LOCKED), and one that stops mid-way has the orders it claimed asked about again when next due.
 */
export async function claimPaymentChecks(db: Db, now: Date, limit: number, next: (row: OrderRow) => Date | null): Promise<OrderRow[]> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('orders')
      .selectAll()
      .where('payment_check_at', '<=', now)
      .orderBy('payment_check_at')
      .orderBy('id')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    for (const row of rows) {
      await trx
        .updateTable('orders')
        .set({ payment_check_at: next(row), payment_checks: sql`payment_checks + 1` })
        .where('id', '=', row.id)
        .execute();
    }
    return rows;
  });
}

/** Claims a webhook event id; false when it was handled before. */
/**
 * Records a webhook delivery in the inbox, once per event id: false for a redelivery. An action
 * this shop does not act on is recorded as handled already (nothing is left to do for it).
 */
export async function recordWebhookEvent(db: Db, eventId: string, action: WebhookAction): Promise<boolean> {
  const handled = action.action === 'not_supported';
  const result = await db
    .insertInto('webhook_events')
    .values({
      event_id: eventId,
      event: action.type,
      action: JSON.stringify(action),
      due_at: handled ? null : sql<Date>`now()`,
      handled_at: handled ? sql<Date>`now()` : null,
      outcome: handled ? 'ignored' : null,
    })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The oldest due webhook not yet handled, locked for this transaction (others skip it). */
export async function claimDueWebhookEvent(db: Db): Promise<{ eventId: string; action: WebhookAction; attempts: number } | undefined> {
  const row = await db
    .selectFrom('webhook_events')
    .select(['event_id', 'action', 'attempts'])
    .where('handled_at', 'is', null)
    .where('due_at', '<=', sql<Date>`now()`)
    .orderBy('due_at')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  return row && { eventId: row.event_id, action: row.action as WebhookAction, attempts: row.attempts };
}

export async function webhookEventHandled(db: Db, eventId: string, outcome: string): Promise<void> {
  await db
    .updateTable('webhook_events')
    .set({ handled_at: sql`now()`, due_at: null, outcome, last_error: null })
    .where('event_id', '=', eventId)
    .execute();
}

/** A handling that failed (the database, a bug): tried again after `retryInMs`. */
export async function webhookEventFailed(db: Db, eventId: string, error: string, retryInMs: number): Promise<void> {
  await db
    .updateTable('webhook_events')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_error: error.slice(0, 500),
      due_at: sql<Date>`now() + make_interval(secs => ${retryInMs / 1000}::double precision)`,
    }))
    .where('event_id', '=', eventId)
    .where('handled_at', 'is', null)
    .execute();
}

/** What the inbox holds undone (metrics, the order page): how many, and the oldest's age. */
export async function pendingWebhookEvents(db: Db): Promise<{ count: number; oldestReceivedAt: Date | null }> {
  const row = await db
    .selectFrom('webhook_events')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('received_at').as('oldest')])
    .where('handled_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), oldestReceivedAt: (row.oldest as Date | null) ?? null };
}
