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
import type { OrderRow } from './orders.repository';

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
