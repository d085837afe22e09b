// The administrator's orders list at any size, on both databases: filters, each kind of search,
// cursor pages forwards and back, page numbers, exact counts (a search's stop at the cap), and the
// streamed orders.csv.
import { randomUUID } from 'node:crypto';
import { SALES_CHART_DAYS, SHOP_UTC_OFFSET, shopDate, type OrderSummary } from '@persona/contracts';
import { describeOnOneDatabase } from '@persona/test-kit';
import type { OrdersDB } from '../../src/db';
import type { Kysely } from 'kysely';
import { BOOK, startOrdersHarness, type OrdersHarness } from '../support';

/** RFC 4180 records (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += c;
  }
  expect(field).toBe('');
  expect(record).toEqual([]);
  return records;
}

interface Row {
  fullName?: string;
  email?: string;
  personaId?: string;
  bookTitle?: string;
  deliveryType?: 'digital' | 'physical';
  deliveryStatus?: 'pending' | 'shipped' | 'delivered' | 'cancelled';
  paymentStatus?: 'created' | 'attempted' | 'paid' | 'failed';
  personaStatus?: 'pending' | 'generating' | 'ready' | 'failed';
  amountPaise?: number;
  createdAt: string;
}

let personaSerial = 0;
const nextPersonaId = () => `PRS-${String(1000 + (personaSerial += 1)).padStart(4, '0')}-AAAA-BBBB-CCCC`;

async function insertOrders(db: Kysely<OrdersDB>, rows: Row[]): Promise<string[]> {
  const ids = rows.map(() => randomUUID());
  await db
    .insertInto('orders')
    .values(
      rows.map((r, i) => ({
        id: ids[i],
        persona_id: r.personaId ?? nextPersonaId(),
        book_id: BOOK.id,
        book_title: r.bookTitle ?? BOOK.title,
        book_author: BOOK.author,
        full_name: r.fullName ?? 'Meera Nair',
        email: r.email ?? 'meera@example.com',
        phone: '+91 98765 43210',
        delivery_type: r.deliveryType ?? 'digital',
        address: null,
        base_paise: BOOK.pricePaise,
        printing_paise: 0,
        delivery_paise: 0,
        amount_paise: r.amountPaise ?? BOOK.pricePaise,
        payment_status: r.paymentStatus ?? 'paid',
        delivery_status: r.deliveryStatus ?? 'pending',
        persona_status: r.personaStatus ?? 'ready',
        persona_error: null,
        persona_sha256: null,
        razorpay_order_id: null,
        razorpay_payment_id: null,
        paid_via: null,
        idempotency_key: null,
        request_hash: null,
        created_at: r.createdAt,
        updated_at: r.createdAt,
        paid_at: null,
      })),
    )
    .execute();
  return ids;
}

/** `n` orders a minute apart, newest first in the returned ids. */
async function insertRun(db: Kysely<OrdersDB>, n: number, start: string, over: Partial<Row> = {}): Promise<string[]> {
  const base = Date.parse(start);
  const rows = Array.from({ length: n }, (_, i) => ({ ...over, createdAt: new Date(base + i * 60_000).toISOString() }));
  return (await insertOrders(db, rows)).reverse();
}

function contract(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrdersHarness(kind, { lists: { countCap: 25, exportBatchSize: 7 } });
  });
  afterAll(() => h.close());

  const list = async (query: string) => {
    const res = await h.service.app.inject({ url: `/api/orders?${query}`, headers: h.admin });
    expect(res.statusCode).toBe(200);
    return res.json() as { data: Array<{ _id: string; fullName: string; email: string; personaId: string }>; meta: Record<string, unknown> };
  };

  describe('searches', () => {
    let ids: Record<string, string>;
    beforeAll(async () => {
      const [ananya, ananyaTwo, meera, o_brien, percent] = await insertOrders(h.database.db, [
        { fullName: 'Ananyo Sen', email: 'sen@example.com', createdAt: '2026-01-31T10:00:00Z' },
        { fullName: 'Ananya Rao', email: 'ananya.rao@example.com', personaId: 'PRS-7K3M-Q9XZ-4T2B-8HNC', createdAt: '2026-02-01T10:00:00Z' },
        { fullName: 'Ananya Krishnan', email: 'akrishnan@mail.example', createdAt: '2026-02-02T10:00:00Z' },
        { fullName: 'Meera Nair', email: 'MEERA.NAIR@Example.com', createdAt: '2026-02-03T10:00:00Z' },
        { fullName: "Siobhán O'Brien", email: 'siobhan@example.ie', createdAt: '2026-02-04T10:00:00Z' },
        { fullName: '100% Reader_x', email: 'percent@example.com', createdAt: '2026-02-05T10:00:00Z' },
      ]).then((all) => all.slice(1));
      ids = { ananya, ananyaTwo, meera, o_brien, percent };
    });
    const names = (body: { data: Array<{ fullName: string }> }) => body.data.map((o) => o.fullName).sort();

    it('finds a Persona ID exactly, however it was typed', async () => {
      for (const typed of ['PRS-7K3M-Q9XZ-4T2B-8HNC', 'prs7k3mq9xz4t2b8hnc', ' prs-7k3m-q9xz-4t2b-8hnc ']) {
        expect(names(await list(`search=${encodeURIComponent(typed)}`))).toEqual(['Ananya Rao']);
      }
    });

    it('finds an order by its id', async () => {
      expect(names(await list(`search=${ids.meera}`))).toEqual(['Meera Nair']);
    });

    it('finds an e-mail exactly or by its beginning, in any case', async () => {
      expect(names(await list('search=meera.nair%40example.com'))).toEqual(['Meera Nair']);
      expect(names(await list('search=MEERA.NAIR%40'))).toEqual(['Meera Nair']);
      expect(names(await list('search=ananya.rao%40ex'))).toEqual(['Ananya Rao']);
      // The middle of an address is not its beginning.
      expect(names(await list('search=rao%40example.com'))).toEqual([]);
    });

    it('finds a name by any part of it, or a near spelling when no one has it as written, and an e-mail by its beginning without the @', async () => {
      // "Ananyo" is one letter from "ananya", but people called Ananya exist: only they are found.
      expect(names(await list('search=ananya'))).toEqual(['Ananya Krishnan', 'Ananya Rao']);
      expect(names(await list('search=ananyo'))).toEqual(['Ananyo Sen']);
      expect(names(await list('search=KRISHNAN'))).toEqual(['Ananya Krishnan']);
      expect(names(await list('search=krishnen'))).toEqual(['Ananya Krishnan']);
      expect(names(await list('search=akrish'))).toEqual(['Ananya Krishnan']);
      expect(names(await list(`search=${encodeURIComponent("o'brien")}`))).toEqual(["Siobhán O'Brien"]);
    });

    it('reads %, _ and \\ as plain text', async () => {
      expect(names(await list('search=100%25'))).toEqual(['100% Reader_x']);
      expect(names(await list('search=r_x'))).toEqual(['100% Reader_x']);
      expect(names(await list('search=%25'))).toEqual(['100% Reader_x']);
      expect(names(await list('search=_'))).toEqual(['100% Reader_x']);
      expect((await list(`search=${encodeURIComponent('\\')}`)).data).toEqual([]);
    });
  });

  describe('filters and pages', () => {
    // 30 digital orders in March and 12 physical shipped ones in April: more than the cap (25).
    let digital: string[];
    let shipped: string[];
    beforeAll(async () => {
      digital = await insertRun(h.database.db, 30, '2026-03-10T08:00:00Z', { email: 'march@example.com' });
      shipped = await insertRun(h.database.db, 12, '2026-04-10T08:00:00Z', { deliveryType: 'physical', deliveryStatus: 'shipped', email: 'april@example.com' });
      await insertRun(h.database.db, 3, '2026-04-11T08:00:00Z', { paymentStatus: 'failed', email: 'failed@example.com' });
    });

    it('keeps what each filter asks for, newest first', async () => {
      const physical = await list('deliveryType=physical&status=shipped&limit=100');
      expect(physical.data.map((o) => o._id)).toEqual(shipped);
      expect(physical.meta).toMatchObject({ total: 12, page: 1, limit: 100, next: null, prev: null });
      expect(physical.meta).not.toHaveProperty('totalCapped');
      const failed = await list('paymentStatus=failed');
      expect(failed.meta.total).toBe(3);
      // Dates are the shop's days (India): 10 March 08:00 UTC onwards is 10 March there.
      const march = await list('from=2026-03-01&to=2026-03-31&limit=100');
      expect(march.data.map((o) => o._id)).toEqual(digital);
      expect((await list('from=2026-03-11&to=2026-03-31')).meta.total).toBe(0);
    });

    it('counts a list exactly (its day counts) and a search up to the cap, saying so', async () => {
      const { n } = await h.database.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      const all = await list('limit=5');
      expect(all.meta.total).toBe(Number(n));
      expect(all.meta).not.toHaveProperty('totalCapped');
      const march = await list('search=march%40example.com&limit=5');
      expect(march.meta).toMatchObject({ total: 25, totalCapped: true });
    });

    it('walks forwards and back by cursor, meeting every order once', async () => {
      const seen: string[] = [];
      let body = await list('search=march%40&limit=7');
      expect(body.meta.prev).toBeNull();
      const pages = [body.data.map((o) => o._id)];
      seen.push(...pages[0]!);
      while (body.meta.next) {
        body = await list(`search=march%40&limit=7&after=${body.meta.next}`);
        pages.push(body.data.map((o) => o._id));
        seen.push(...pages.at(-1)!);
      }
      expect(seen).toEqual(digital);
      expect(pages.map((p) => p.length)).toEqual([7, 7, 7, 7, 2]);
      // And back from the last page to the first, page by page.
      const back: string[][] = [];
      while (body.meta.prev) {
        body = await list(`search=march%40&limit=7&before=${body.meta.prev}`);
        back.push(body.data.map((o) => o._id));
      }
      expect(back).toEqual(pages.slice(0, -1).reverse());
      // The first page reached backwards knows it is the first.
      expect(body.meta.prev).toBeNull();
      expect(body.meta.next).not.toBeNull();
    });

    it('answers a page number typed in, and an empty page past the end', async () => {
      const third = await list('search=march%40&limit=7&page=3');
      expect(third.data.map((o) => o._id)).toEqual(digital.slice(14, 21));
      expect(third.meta.page).toBe(3);
      const past = await list('search=march%40&limit=7&page=9');
      expect(past.data).toEqual([]);
      expect(past.meta.next).toBeNull();
      // Without a search the page is found from the day counts: the same rows, its links to either side.
      const march = await list('from=2026-03-01&to=2026-03-31&limit=7&page=3');
      expect(march.data.map((o) => o._id)).toEqual(digital.slice(14, 21));
      expect(march.meta).toMatchObject({ total: 30, page: 3, limit: 7 });
      const second = await list(`from=2026-03-01&to=2026-03-31&limit=7&page=2&before=${march.meta.prev}`);
      expect(second.data.map((o) => o._id)).toEqual(digital.slice(7, 14));
      const last = await list('from=2026-03-01&to=2026-03-31&limit=7&page=5');
      expect(last.data.map((o) => o._id)).toEqual(digital.slice(28));
      expect(last.meta.next).toBeNull();
      expect((await list('from=2026-03-01&to=2026-03-31&limit=7&page=6')).data).toEqual([]);
    });

    it('refuses a cursor it did not make, and both directions at once, changing nothing', async () => {
      const first = await list('limit=2');
      for (const query of [
        'after=not-a-cursor',
        `after=${Buffer.from('[1]').toString('base64url')}`,
        `before=${Buffer.from('{"a":1}').toString('base64url')}`,
        `after=${'A'.repeat(150)}`,
      ]) {
        const res = await h.service.app.inject({ url: `/api/orders?${query}`, headers: h.admin });
        expect({ status: res.statusCode, code: res.json().code, message: res.json().message }).toEqual({
          status: 400,
          code: 'BAD_CURSOR',
          message: 'That page link is no longer valid; start again from the first page',
        });
      }
      const both = await h.service.app.inject({ url: `/api/orders?after=${first.meta.next}&before=${first.meta.next}`, headers: h.admin });
      expect(both.statusCode).toBe(400);
      // A cursor whose values are not the list's types is a 400 too, not a 500.
      const wrongTypes = Buffer.from(JSON.stringify(['yesterday', 'not-a-uuid'])).toString('base64url');
      expect((await h.service.app.inject({ url: `/api/orders?after=${wrongTypes}`, headers: h.admin })).statusCode).toBe(400);
      expect((await list('limit=2')).data).toEqual(first.data);
    });

    it('refuses limits outside 1–100', async () => {
      for (const limit of [0, 101]) {
        expect((await h.service.app.inject({ url: `/api/orders?limit=${limit}`, headers: h.admin })).statusCode).toBe(400);
      }
    });
  });

  describe('the dashboard summary', () => {
    const summary = async () => {
      const res = await h.service.app.inject({ url: '/api/orders/summary', headers: h.admin });
      expect(res.statusCode).toBe(200);
      return res.json().data as OrderSummary;
    };
    /** A moment of the shop's day `daysBefore` today (India time), `minutes` after its midnight. */
    const shopMoment = (daysBefore: number, minutes: number) =>
      new Date(Date.parse(`${shopDate(new Date(), daysBefore)}T00:00:00${SHOP_UTC_OFFSET}`) + minutes * 60_000).toISOString();

    it("sums paid orders by the shop's day, with the work waiting, as the lists count them", async () => {
      const before = await summary();
      await insertOrders(h.database.db, [
        { createdAt: shopMoment(0, 1), amountPaise: 10_050, deliveryType: 'physical' },
        { createdAt: shopMoment(0, 2), amountPaise: 20_000, paymentStatus: 'failed' },
        { createdAt: shopMoment(3, 0), amountPaise: 30_025, personaStatus: 'failed' },
        { createdAt: shopMoment(6, 0), amountPaise: 40_000, deliveryType: 'physical', deliveryStatus: 'shipped' },
        { createdAt: shopMoment(6, -1), amountPaise: 50_000 },
        { createdAt: shopMoment(29, 0), amountPaise: 60_000 },
        { createdAt: shopMoment(29, -1), amountPaise: 70_000 },
      ]);
      const after = await summary();
      const delta = (key: 'today' | 'last7Days' | 'last30Days') => ({
        orders: after.sales[key].orders - before.sales[key].orders,
        revenue: Math.round((after.sales[key].revenue - before.sales[key].revenue) * 100),
      });
      expect(delta('today')).toEqual({ orders: 1, revenue: 10_050 });
      expect(delta('last7Days')).toEqual({ orders: 3, revenue: 80_075 });
      expect(delta('last30Days')).toEqual({ orders: 5, revenue: 190_075 });
      expect(after.awaitingDispatch - before.awaitingDispatch).toBe(1);
      expect(after.failedPersonas - before.failedPersonas).toBe(1);
      expect(after.days.map((d) => d.date)).toEqual(Array.from({ length: SALES_CHART_DAYS }, (_, i) => shopDate(new Date(), SALES_CHART_DAYS - 1 - i)));
      expect(after.days.find((d) => d.date === shopDate(new Date(), 3))).toMatchObject({ orders: 1, revenue: 300.25 });
      expect((await list('paymentStatus=paid&personaStatus=failed')).meta.total).toBe(after.failedPersonas);
      expect((await list('paymentStatus=paid&deliveryType=physical&status=pending')).meta.total).toBe(after.awaitingDispatch);
    });
  });

  describe('orders.csv', () => {
    const exportCsv = (query = '') => h.service.app.inject({ url: `/api/orders/export${query ? `?${query}` : ''}`, headers: h.admin });

    it('is only for administrators', async () => {
      expect((await h.service.app.inject({ url: '/api/orders/export' })).statusCode).toBe(401);
    });

    it("streams every order the filters keep, in the spec's columns, across batches", async () => {
      const ids = await insertRun(h.database.db, 17, '2026-05-01T08:00:00Z', {
        email: 'may@example.com',
        fullName: 'Kavya Menon',
        deliveryType: 'physical',
        deliveryStatus: 'delivered',
      });
      const res = await exportCsv('search=may%40example.com');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="orders.csv"');
      expect(res.headers['cache-control']).toBe('no-store');
      const [header, ...records] = parseCsv(res.body);
      expect(header).toEqual(['S.No', 'Customer', 'Book Title', 'Delivery Type', 'Delivery Status', 'Order ID']);
      expect(records).toEqual(ids.map((id, i) => [String(i + 1), 'Kavya Menon', BOOK.title, 'physical', 'delivered', id]));
    });

    it('quotes what needs quoting, defuses formulas, and fills the defaults', async () => {
      await insertOrders(h.database.db, [
        { fullName: '=HYPERLINK("http://evil.example")', email: 'csv@example.com', bookTitle: 'Tea, Toast\nand "Trust"', createdAt: '2026-06-01T08:00:00Z' },
        { fullName: '  ', email: 'csv@example.com', bookTitle: '', createdAt: '2026-06-02T08:00:00Z' },
        { fullName: '+91 caller', email: 'csv@example.com', bookTitle: '@home', createdAt: '2026-06-03T08:00:00Z' },
      ]);
      const res = await exportCsv('search=csv%40example.com');
      const [, ...records] = parseCsv(res.body);
      expect(records.map((r) => r.slice(0, 5))).toEqual([
        ['1', "'+91 caller", "'@home", 'digital', 'pending'],
        ['2', 'Unknown', 'Untitled', 'digital', 'pending'],
        ['3', `'=HYPERLINK("http://evil.example")`, 'Tea, Toast\nand "Trust"', 'digital', 'pending'],
      ]);
      expect(res.body).toContain('"Tea, Toast\nand ""Trust"""');
    });

    it('answers the header alone when nothing matches, and refuses what the list refuses', async () => {
      const empty = await exportCsv('search=nobody%40nowhere.example');
      expect(empty.statusCode).toBe(200);
      expect(parseCsv(empty.body)).toEqual([['S.No', 'Customer', 'Book Title', 'Delivery Type', 'Delivery Status', 'Order ID']]);
      expect((await exportCsv('status=lost')).statusCode).toBe(400);
      expect((await exportCsv('from=2026-05-02&to=2026-05-01')).statusCode).toBe(400);
      // Paging is the list's business, not the file's.
      expect((await exportCsv('limit=10')).statusCode).toBe(400);
    });
  });
}

// Routes, not the database: once, on PostgreSQL where it answers (the repositories' suites run on both).
describeOnOneDatabase('the orders list', contract);
