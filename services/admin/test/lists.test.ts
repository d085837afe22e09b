// The administrator's feedback, subscribers and audit lists at any size, on both databases:
// searches from their indexes, cursor pages forwards and back, counts that stop at the cap.
import { randomUUID } from 'node:crypto';
import { describeWithPostgres } from '@persona/test-kit';
import { startAdminHarness, type AdminHarness } from './support';

type Harness = AdminHarness;

const start = (kind: 'pglite' | 'postgres') => startAdminHarness(kind, { countCap: 20 });

const minutes = (start: string, n: number) => Array.from({ length: n }, (_, i) => new Date(Date.parse(start) + i * 60_000).toISOString());

function contract(kind: 'pglite' | 'postgres') {
  let h: Harness;
  const admin = { authorization: '' };
  beforeAll(async () => {
    h = await start(kind);
    // The admin service checks a token's session: log in as an administrator would.
    const login = await h.service.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { email: 'owner@persona-books.in', password: 'correct horse battery' },
    });
    admin.authorization = `Bearer ${login.json().data.token}`;
  }, 60_000);
  afterAll(() => h.close());

  const list = async (url: string) => {
    const res = await h.service.app.inject({ url, headers: admin });
    expect(res.statusCode).toBe(200);
    return res.json() as { data: Array<Record<string, unknown>>; meta: { total: number; totalCapped?: boolean; next: string | null; prev: string | null } };
  };

  /** Every row of a list, by `next` to the end and by `prev` back to the start; both walks must agree. */
  async function walk(url: string, limit: number, key: string): Promise<unknown[]> {
    const join = url.includes('?') ? '&' : '?';
    const forward: unknown[][] = [];
    let body = await list(`${url}${join}limit=${limit}`);
    expect(body.meta.prev).toBeNull();
    forward.push(body.data.map((r) => r[key]));
    while (body.meta.next) {
      body = await list(`${url}${join}limit=${limit}&after=${body.meta.next}`);
      forward.push(body.data.map((r) => r[key]));
    }
    const backward: unknown[][] = [forward.at(-1)!];
    while (body.meta.prev) {
      body = await list(`${url}${join}limit=${limit}&before=${body.meta.prev}`);
      backward.unshift(body.data.map((r) => r[key]));
    }
    expect(backward).toEqual(forward);
    return forward.flat();
  }

  describe('feedback', () => {
    let ids: string[];
    beforeAll(async () => {
      const people = [
        ['Ananya Rao', 'ananya.rao@example.com'],
        ['Ananya Krishnan', 'akrishnan@mail.example'],
        ["Siobhán O'Brien", 'siobhan@example.ie'],
        ['100% Reader_x', 'percent@example.com'],
      ];
      const times = minutes('2026-03-01T08:00:00Z', 25);
      const rows = times.map((at, i) => ({
        id: randomUUID(),
        name: people[i % 4]![0]!,
        email: people[i % 4]![1]!,
        message: `message ${i}`,
        book_id: null,
        book_title: null,
        created_at: at,
      }));
      await h.database.db.insertInto('feedback').values(rows).execute();
      ids = rows.map((r) => r.id).reverse();
    });
    const names = async (search: string) =>
      [...new Set((await list(`/api/feedback/all?limit=100&search=${encodeURIComponent(search)}`)).data.map((f) => f.name))].sort();

    it('finds a sender by any part of the name, a near spelling, or an e-mail address', async () => {
      expect(await names('ananya')).toEqual(['Ananya Krishnan', 'Ananya Rao']);
      // Nobody is called "krishnen": the near spelling finds Krishnan.
      expect(await names('krishnen')).toEqual(['Ananya Krishnan']);
      expect(await names("O'BRIEN")).toEqual(["Siobhán O'Brien"]);
      expect(await names('ananya.rao@example.com')).toEqual(['Ananya Rao']);
      expect(await names('SIOBHAN@')).toEqual(["Siobhán O'Brien"]);
      expect(await names('akrish')).toEqual(['Ananya Krishnan']);
      expect(await names('100%')).toEqual(['100% Reader_x']);
      expect(await names('r_x')).toEqual(['100% Reader_x']);
      expect(await names('nobody@nowhere.example')).toEqual([]);
    });

    it('pages newest first by cursor, every message once, and counts up to the cap', async () => {
      expect(await walk('/api/feedback/all', 6, '_id')).toEqual(ids);
      expect((await list('/api/feedback/all?limit=5')).meta).toMatchObject({ total: 20, totalCapped: true });
      expect((await list('/api/feedback/all?limit=5&search=ananya')).meta).toEqual({ total: 13, page: 1, limit: 5, next: expect.any(String), prev: null });
    });

    it('keeps the messages from a day of the shop (India time) on, and refuses a date it cannot use', async () => {
      const late = [
        { at: '2026-03-01T18:29:59Z', message: 'the last second of 1 March in India' },
        { at: '2026-03-01T18:30:00Z', message: 'the first second of 2 March in India' },
      ];
      await h.database.db
        .insertInto('feedback')
        .values(
          late.map(({ at, message }) => ({
            id: randomUUID(),
            name: 'Boundary Reader',
            email: 'boundary@example.com',
            message,
            book_id: null,
            book_title: null,
            created_at: at,
          })),
        )
        .execute();
      const messages = async (query: string) => (await list(`/api/feedback/all?search=boundary&${query}`)).data.map((f) => f.message);
      expect(await messages('from=2026-03-01')).toEqual([late[1]!.message, late[0]!.message]);
      expect(await messages('from=2026-03-02')).toEqual([late[1]!.message]);
      expect(await messages('from=2026-03-03')).toEqual([]);
      for (const [from, message] of [
        ['0000-01-01', 'query field "from" must be a date from 1900-01-01 on'],
        ['yesterday', 'query field "from" must be a valid date'],
      ]) {
        const res = await h.service.app.inject({ url: `/api/feedback/all?from=${from}`, headers: admin });
        expect({ status: res.statusCode, message: res.json().message }).toEqual({ status: 400, message });
      }
    });
  });

  describe('subscribers', () => {
    let emails: string[];
    beforeAll(async () => {
      // Pairs share a second: ties are ordered by address.
      const times = minutes('2026-04-01T08:00:00Z', 12);
      const rows = Array.from({ length: 24 }, (_, i) => ({
        email: `${i % 3 === 0 ? 'priya' : 'reader'}${String(i).padStart(2, '0')}@example.com`,
        subscribed_at: times[Math.floor(i / 2)]!,
      }));
      await h.database.db.insertInto('subscribers').values(rows).execute();
      emails = rows
        .slice()
        .sort((a, b) => b.subscribed_at.localeCompare(a.subscribed_at) || (a.email < b.email ? 1 : -1))
        .map((r) => r.email);
    });

    it('pages newest first by cursor, ties by address, every subscriber once', async () => {
      expect(await walk('/api/admin/subscribers', 5, 'email')).toEqual(emails);
      expect((await list('/api/admin/subscribers')).meta).toMatchObject({ total: 20, totalCapped: true });
    });

    it('finds subscribers by the beginning of the address, in any case', async () => {
      const found = await walk('/api/admin/subscribers?search=PRIYA', 3, 'email');
      expect(found).toEqual(emails.filter((e) => e.startsWith('priya')));
      expect((await list('/api/admin/subscribers?search=priya03%40example.com')).data.map((s) => s.email)).toEqual(['priya03@example.com']);
      expect((await list('/api/admin/subscribers?search=example.com')).data).toEqual([]);
      expect((await list('/api/admin/subscribers?search=%25')).data).toEqual([]);
    });
  });

  describe('the audit log', () => {
    const ORDER_ID = randomUUID();
    beforeAll(async () => {
      const times = minutes('2026-05-01T08:00:00Z', 30);
      await h.database.db
        .insertInto('audit_log')
        .values(
          times.map((at, i) => ({
            event_id: randomUUID(),
            type: i % 3 === 0 ? 'book.updated' : 'order.paid',
            summary: `entry ${i}`,
            subject_id: i % 5 === 0 ? ORDER_ID : null,
            actor: null,
            occurred_at: at,
          })),
        )
        .execute();
    });

    it('pages newest first by cursor and filters by type', async () => {
      const all = (await walk('/api/admin/audit', 7, 'summary')).filter((s) => String(s).startsWith('entry '));
      expect(all).toEqual(Array.from({ length: 30 }, (_, i) => `entry ${29 - i}`));
      const books = await walk('/api/admin/audit?type=book.updated', 4, 'summary');
      expect(books).toEqual(Array.from({ length: 10 }, (_, i) => `entry ${27 - i * 3}`));
      expect((await list('/api/admin/audit?type=book.updated')).meta).toMatchObject({ total: 10 });
      // Exactly the cap is a true count; past it, counting stops.
      expect((await list('/api/admin/audit?type=order.paid')).meta).not.toHaveProperty('totalCapped');
      expect((await list('/api/admin/audit?type=order.paid')).meta.total).toBe(20);
      expect((await list('/api/admin/audit')).meta).toMatchObject({ total: 20, totalCapped: true });
    });

    it("gives one order's entries, newest first (the order page's timeline), and refuses a subject that is not an id", async () => {
      expect(await walk(`/api/admin/audit?subject=${ORDER_ID}`, 4, 'summary')).toEqual(['entry 25', 'entry 20', 'entry 15', 'entry 10', 'entry 5', 'entry 0']);
      expect((await list(`/api/admin/audit?subject=${randomUUID()}`)).data).toEqual([]);
      expect((await h.service.app.inject({ url: '/api/admin/audit?subject=nope', headers: admin })).statusCode).toBe(400);
    });
  });

  it.each(['/api/feedback/all', '/api/admin/subscribers', '/api/admin/audit'])('%s refuses a page link it did not make', async (url) => {
    for (const cursor of [
      'garbage!',
      Buffer.from(JSON.stringify(['2026-02-30 10:00:00+00', 'x'])).toString('base64url'),
      Buffer.from('[1,2,3]').toString('base64url'),
    ]) {
      const res = await h.service.app.inject({ url: `${url}?after=${encodeURIComponent(cursor)}`, headers: admin });
      expect({ status: res.statusCode, message: res.json().message }).toEqual({
        status: 400,
        message: expect.stringMatching(/^(That page link is no longer valid; start again from the first page|query field "after" has an invalid format)$/),
      });
    }
  });
}

describe('the admin lists on PGlite', () => contract('pglite'));
describeWithPostgres()('the admin lists on PostgreSQL', () => contract('postgres'));
