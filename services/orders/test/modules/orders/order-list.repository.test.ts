// The administrator's list by page number, on both databases: the day counts kept by the orders'
// triggers match the orders through inserts, status changes, deletes and concurrent checkouts,
// and page N (found from the counts) holds exactly the rows an OFFSET would give, for each filter,
// the dispatch list, the last page and past it, with its links back and on.
import { sql, type Kysely } from 'kysely';
import type { OrderExportQuery } from '@persona/contracts';
import { decodeCursor } from '@persona/db';
import { describeWithPostgres } from '@persona/test-kit';
import type { OrdersDB } from '../../../src/db';
import { countsByDay, listKeys, listOrders } from '../../../src/modules/orders/order-list.repository';
import { startOrdersHarness, type OrdersHarness } from '../../support';

/**
 * `n` orders from `start` on, one every `minutesApart` (several on a day, across days), their
 * statuses and types taken in turn from short cycles so every filter keeps a different mix; one
 * statement, as a bulk load would be.
 */
async function insertSpread(db: Kysely<OrdersDB>, n: number, start: string, minutesApart: number, tag: string): Promise<void> {
  await sql`
    INSERT INTO orders (persona_id, book_id, book_title, book_author, full_name, email, phone, delivery_type,
                        base_paise, printing_paise, delivery_paise, amount_paise, payment_status, delivery_status, persona_status, created_at, ship_by)
    SELECT 'PRS-' || ${tag} || '-' || lpad(i::text, 4, '0') || '-PAGE-LIST', '4f7c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c', 'Paging', 'An Author',
           'Buyer ' || i, 'buyer' || i || '@example.com', '+91 98765 43210', (ARRAY['digital', 'physical', 'digital'])[i % 3 + 1],
           49900, 0, 0, 49900, (ARRAY['paid', 'paid', 'failed', 'paid', 'created'])[i % 5 + 1],
           CASE WHEN i % 3 = 1 THEN (ARRAY['pending', 'shipped', 'pending', 'delivered'])[i % 4 + 1] ELSE 'pending' END,
           (ARRAY['ready', 'ready', 'failed', 'pending'])[i % 4 + 1],
           ${start}::timestamptz + make_interval(mins => i * ${minutesApart}),
           CASE WHEN i % 3 = 1 THEN to_char(date '2026-01-01' + (i * 7) % 40, 'YYYY-MM-DD') END
    FROM generate_series(1, ${n}) AS i`.execute(db);
}

/** The counts as the orders themselves say, the same shape as countsByDay (ground truth). */
async function countedFromOrders(db: Kysely<OrdersDB>): Promise<string> {
  const { rows } = await sql<{ k: string }>`
    SELECT string_agg(k, ';' ORDER BY k) AS k FROM (
      SELECT concat_ws('|', (created_at AT TIME ZONE interval '+05:30')::date, payment_status, delivery_status, delivery_type, persona_status, count(*)) AS k
      FROM orders GROUP BY (created_at AT TIME ZONE interval '+05:30')::date, payment_status, delivery_status, delivery_type, persona_status) AS g`.execute(db);
  return rows[0]!.k ?? '';
}

async function countedByTriggers(db: Kysely<OrdersDB>): Promise<string> {
  const { rows } = await sql<{ k: string }>`
    SELECT string_agg(k, ';' ORDER BY k) AS k FROM (
      SELECT concat_ws('|', day, payment_status, delivery_status, delivery_type, persona_status, sum(n)) AS k
      FROM order_list_counts GROUP BY day, payment_status, delivery_status, delivery_type, persona_status HAVING sum(n) <> 0) AS g`.execute(db);
  return rows[0]!.k ?? '';
}

function contract(kind: 'pglite' | 'postgres') {
  let db: Kysely<OrdersDB>;
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrdersHarness(kind);
    // 420 orders over about 15 days (28 a day), then 90 over one busy evening.
    await insertSpread(h.database.db, 420, '2026-02-01T00:10:00Z', 50, 'AAAA');
    await insertSpread(h.database.db, 90, '2026-02-20T12:00:00Z', 1, 'BBBB');
    db = h.database.db;
  });
  afterAll(() => h.close());

  /** Every id the filters keep, in the list's order, read the plain way (the answer any page must slice). */
  async function everyId(filter: OrderExportQuery): Promise<string[]> {
    const dispatch = filter.deliveryType === 'physical' && filter.status === 'pending';
    let q = db.selectFrom('orders').select('id');
    if (filter.status) q = q.where('delivery_status', '=', filter.status);
    if (filter.deliveryType) q = q.where('delivery_type', '=', filter.deliveryType);
    if (filter.paymentStatus) q = q.where('payment_status', '=', filter.paymentStatus);
    if (filter.personaStatus) q = q.where('persona_status', '=', filter.personaStatus);
    if (filter.from) q = q.where(sql<boolean>`(created_at AT TIME ZONE interval '+05:30')::date >= ${filter.from}::date`);
    if (filter.to) q = q.where(sql<boolean>`(created_at AT TIME ZONE interval '+05:30')::date <= ${filter.to}::date`);
    const ordered = dispatch ? q.orderBy('ship_by_key', 'desc').orderBy('id', 'desc') : q.orderBy('created_at', 'desc').orderBy('id', 'desc');
    return (await ordered.execute()).map((r) => r.id);
  }

  it('keeps the day counts equal to the orders through inserts, changes and deletes', async () => {
    expect(await countedByTriggers(db)).toBe(await countedFromOrders(db));
    // A change of status moves an order between counts; one of nothing the list filters by moves none.
    await db.updateTable('orders').set({ payment_status: 'paid', persona_status: 'generating' }).where('payment_status', '=', 'created').execute();
    await db.updateTable('orders').set({ updated_at: new Date() }).execute();
    await db.updateTable('orders').set({ delivery_status: 'cancelled' }).where('full_name', 'in', ['Buyer 7', 'Buyer 10']).execute();
    const { numDeletedRows } = await db.deleteFrom('orders').where('full_name', '=', 'Buyer 1').executeTakeFirst();
    expect(Number(numDeletedRows)).toBe(2);
    expect(await countedByTriggers(db)).toBe(await countedFromOrders(db));
  });

  it('counts orders made at the same moment by separate checkouts', async () => {
    const day = '2026-03-05T06:00:00Z';
    await Promise.all(Array.from({ length: 12 }, (_, i) => insertSpread(db, 1, day, 0, `C${String(i).padStart(3, '0')}`)));
    const march = await countsByDay(db, { from: '2026-03-05', to: '2026-03-05' });
    expect(march).toEqual([{ day: '2026-03-05', n: 12 }]);
    expect(await countedByTriggers(db)).toBe(await countedFromOrders(db));
  });

  const filters: Array<[string, OrderExportQuery]> = [
    ['every order', {}],
    ['paid', { paymentStatus: 'paid' }],
    ['printed, delivered', { deliveryType: 'physical', status: 'delivered' }],
    ['failed Personas of paid orders', { paymentStatus: 'paid', personaStatus: 'failed' }],
    ['a range of days', { from: '2026-02-05', to: '2026-02-20' }],
    ['the dispatch list', { deliveryType: 'physical', status: 'pending' }],
    ['the dispatch list, paid', { deliveryType: 'physical', status: 'pending', paymentStatus: 'paid' }],
  ];

  it.each(filters)('answers any page of %s exactly as an offset would, and counts it exactly', async (_name, filter) => {
    const ids = await everyId(filter);
    expect(ids.length).toBeGreaterThan(9);
    const limit = 7;
    const pages = Math.ceil(ids.length / limit);
    for (const page of [1, 2, 3, Math.ceil(pages / 2), pages - 1, pages]) {
      const got = await listOrders(db, { filter, limit, page });
      expect(got.rows.map((r) => r.id)).toEqual(ids.slice((page - 1) * limit, page * limit));
      expect({ total: got.total, capped: got.totalCapped }).toEqual({ total: ids.length, capped: false });
      expect(got.next === null).toBe(page === pages);
      expect(got.prev === null).toBe(page === 1);
    }
    const past = await listOrders(db, { filter, limit, page: pages + 1 });
    expect({ rows: past.rows, next: past.next, total: past.total }).toEqual({ rows: [], next: null, total: ids.length });
  });

  it('links a page reached by number to the pages on either side', async () => {
    const filter: OrderExportQuery = { paymentStatus: 'paid' };
    const ids = await everyId(filter);
    const limit = 5;
    const jumped = await listOrders(db, { filter, limit, page: 40 });
    const decode = (text: string | null) => decodeCursor(text!, listKeys(filter))!;
    const newer = await listOrders(db, { filter, limit, before: decode(jumped.prev) });
    const older = await listOrders(db, { filter, limit, after: decode(jumped.next) });
    expect(newer.rows.map((r) => r.id)).toEqual(ids.slice(38 * limit, 39 * limit));
    expect(older.rows.map((r) => r.id)).toEqual(ids.slice(40 * limit, 41 * limit));
    expect(newer.total).toBe(ids.length);
  });
}

describe('the orders list by page number on PGlite', () => contract('pglite'));
describeWithPostgres()('the orders list by page number on PostgreSQL', () => contract('postgres'));
