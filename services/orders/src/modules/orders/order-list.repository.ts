// The administrator's order list and the files made from it (orders.csv, the dispatch list): the
// filters, the lists' orders, a page of the list with its count, and every row in batches.
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { COUNT_CAP, DEFAULT_PAGE_SIZE, PERSON_SEARCH_COUNT_CAP, normalizePersonaId, shopDayStart, type OrderExportQuery } from '@persona/contracts';
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
import type { OrdersDB } from '../../db';
import type { OrderRow } from '../order-records/orders.repository';

type Db = Kysely<OrdersDB>;

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
  /** Where a search's counting stops (COUNT_CAP, and at most PERSON_SEARCH_COUNT_CAP); a list without one is counted exactly. */
  countCap?: number;
}

export type OrderPage = CountedPage<OrderRow>;

const withCursor = (db: Db, filter: OrderExportQuery, spelling: PersonSpelling) =>
  filteredOrders(db, filter, spelling)
    .selectAll()
    .select(sql<string>`created_at::text`.as('cursor_at'));
const orderKey = (row: { cursor_at: string; id: string }): CursorValue[] => [row.cursor_at, row.id];
const dispatchKey = (row: { ship_by_key: number; id: string }): CursorValue[] => [row.ship_by_key, row.id];

/** How many orders each of the shop's days has that the filters keep (all but a search), the newest day first; days with none are absent. */
export function countsByDay(db: Db, filter: OrderExportQuery): Promise<Array<{ day: string; n: number }>> {
  let q = db.selectFrom('order_list_counts');
  if (filter.status) q = q.where('delivery_status', '=', filter.status);
  if (filter.deliveryType) q = q.where('delivery_type', '=', filter.deliveryType);
  if (filter.paymentStatus) q = q.where('payment_status', '=', filter.paymentStatus);
  if (filter.personaStatus) q = q.where('persona_status', '=', filter.personaStatus);
  if (filter.from) q = q.where('day', '>=', sql<Date>`${filter.from}::date`);
  if (filter.to) q = q.where('day', '<=', sql<Date>`${filter.to}::date`);
  return q
    .select([sql<string>`day::text`.as('day'), sql<number>`sum(n)::int`.as('n')])
    .groupBy('day')
    .having(sql`sum(n)`, '<>', 0)
    .orderBy('day', 'desc')
    .execute();
}

/**
 * The key of the list's row at `index` (0: the first), or undefined past the end. The newest-first
 * list walks `days` (countsByDay) to the day the row is in and skips only within that day; the
 * dispatch list (a few thousand rows) skips along its own small index, reading the keys alone.
 */
async function keyAt(db: Db, filter: OrderExportQuery, days: ReadonlyArray<{ day: string; n: number }>, index: number): Promise<CursorValue[] | undefined> {
  if (isDispatchList(filter)) {
    const row = await filteredOrders(db, filter)
      .select(['ship_by_key', 'id'])
      .orderBy('ship_by_key', 'desc')
      .orderBy('id', 'desc')
      .offset(index)
      .limit(1)
      .executeTakeFirst();
    return row && dispatchKey(row);
  }
  let newer = 0;
  for (const { day, n } of days) {
    if (index < newer + n) {
      const row = await filteredOrders(db, filter)
        .where('created_at', '>=', shopDayStart(day))
        .where('created_at', '<', sql<Date>`${shopDayStart(day)}::timestamptz + interval '1 day'`)
        .select([sql<string>`created_at::text`.as('cursor_at'), 'id'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset(index - newer)
        .limit(1)
        .executeTakeFirst();
      return row && orderKey(row);
    }
    newer += n;
  }
  return undefined;
}

/**
 * A page of the administrator's list (by cursor, or a page number typed in) and its matches. A
 * list without a search is counted exactly from the day counts, and page N is the page after the
 * row just before it (keyAt): as cheap at page 25,000 of a million orders as at page 2. A search
 * counts its matches up to a cap (PERSON_SEARCH_COUNT_CAP) and a name that matches no one is read
 * again by its near spellings.
 */
export async function listOrders(db: Db, request: OrderPageRequest): Promise<OrderPage> {
  const { filter, limit = DEFAULT_PAGE_SIZE, countCap = COUNT_CAP, ...cursors } = request;
  const keys = listKeys(filter);
  const keyOf = isDispatchList(filter) ? dispatchKey : orderKey;
  if (filter.search?.trim()) {
    return writtenThenNear(personSearch(filter), (spelling) =>
      countedPage(db, withCursor(db, filter, spelling), filteredOrders(db, filter, spelling), keys, keyOf, {
        limit,
        countCap: Math.min(countCap, PERSON_SEARCH_COUNT_CAP),
        sparse: true,
        ...cursors,
      }),
    );
  }
  const days = await countsByDay(db, filter);
  const total = days.reduce((sum, d) => sum + d.n, 0);
  const rows = withCursor(db, filter, 'written');
  const skip = cursors.after || cursors.before ? 0 : ((cursors.page ?? 1) - 1) * limit;
  if (skip === 0) return { ...(await keysetPage(rows, keys, keyOf, { limit, ...cursors })), total, totalCapped: false };
  if (skip >= total) return { rows: [], next: null, prev: null, total, totalCapped: false };
  const before = await keyAt(db, filter, days, skip - 1);
  // Counts read a moment before a change may name a row past the end: then it is an offset page (slower, still right).
  const page = await keysetPage(rows, keys, keyOf, before ? { limit, after: before } : { limit, page: cursors.page });
  return { ...page, total, totalCapped: false };
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
