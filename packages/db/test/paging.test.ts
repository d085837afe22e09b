// Keyset pages and capped counts, on PGlite and the real PostgreSQL: every row once, in order,
// forwards and backwards, across rows that share a timestamp.
import { describeWithPostgres, TEST_DATABASE_URL, uniqueName } from '@persona/test-kit';
import { sql } from 'kysely';
import { cappedCount, countedPage, decodeCursor, encodeCursor, keysetPage, openDatabase, openPglite, type Database, type KeysetColumn } from '../src';

interface DB {
  items: { id: number; made_at: Date; kind: string };
}

const KEYS: KeysetColumn[] = [
  { ref: 'made_at', cast: 'timestamptz' },
  { ref: 'id', cast: 'bigint' },
];
const ROWS = 23;

describe('cursors', () => {
  it('round-trip the values of a row', () => {
    const cursor = encodeCursor(['2026-11-24 10:00:00.123456+00', 42]);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, KEYS)).toEqual(['2026-11-24 10:00:00.123456+00', 42]);
    expect(decodeCursor(encodeCursor(['2026-11-24T10:00:00Z', '42']), KEYS)).toEqual(['2026-11-24T10:00:00Z', '42']);
  });

  it('check a uuid column', () => {
    const keys: KeysetColumn[] = [{ ref: 'id', cast: 'uuid' }];
    expect(decodeCursor(encodeCursor(['6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c']), keys)).not.toBeNull();
    expect(decodeCursor(encodeCursor(['not-a-uuid']), keys)).toBeNull();
  });

  it.each([
    ['not base64url', 'a+b/c='],
    ['not JSON', Buffer.from('{{').toString('base64url')],
    ['the wrong number of values', encodeCursor(['x'])],
    ['an object inside', Buffer.from(JSON.stringify([{}, 1])).toString('base64url')],
    ['an empty value', encodeCursor(['', 1])],
    ['too long', 'a'.repeat(401)],
    ['a timestamp PostgreSQL would read loosely', encodeCursor(['yesterday', 1])],
    ['a day that does not exist', encodeCursor(['2026-02-30 10:00:00+00', 1])],
    ['an hour that does not exist', encodeCursor(['2026-02-03 25:00:00+00', 1])],
    ['an id that is not a whole number', encodeCursor(['2026-11-24 10:00:00+00', 1.5])],
    ['an id as text that is not a number', encodeCursor(['2026-11-24 10:00:00+00', '1; DROP'])],
  ])('refuse %s', (_label, text) => {
    expect(decodeCursor(text, KEYS)).toBeNull();
  });
});

function contract(open: () => Promise<{ database: Database<DB>; dispose(): Promise<void> }>) {
  let database: Database<DB>;
  let dispose: () => Promise<void>;
  const table = uniqueName('paging');

  beforeAll(async () => {
    ({ database, dispose } = await open());
    await sql`CREATE TABLE ${sql.id(table)} (id bigint PRIMARY KEY, made_at timestamptz NOT NULL, kind text NOT NULL)`.execute(database.db);
    // Rows three to a timestamp (microseconds apart from the next group), so ties decide by id.
    await sql`INSERT INTO ${sql.id(table)} SELECT i, timestamptz '2026-01-01' + (i / 3) * interval '1.000001 second', CASE WHEN i % 2 = 0 THEN 'even' ELSE 'odd' END FROM generate_series(1, ${ROWS}) i`.execute(
      database.db,
    );
  });
  afterAll(async () => {
    await sql`DROP TABLE IF EXISTS ${sql.id(table)}`.execute(database.db);
    await dispose();
  });

  const base = () => database.db.selectFrom(sql.table(table).as('items') as never).select(['id' as never, sql<string>`made_at::text`.as('at')]) as never;
  const keyOf = (row: { id: number; at: string }) => [row.at, row.id];
  type Row = { id: number; at: string };
  const page = (request: Parameters<typeof keysetPage>[3]) => keysetPage<DB, never, Row>(base(), KEYS, keyOf, request);

  it('walks every row once, newest first, by next; and back by prev', async () => {
    const seen: number[] = [];
    const prevs: Array<string | null> = [];
    let current = await page({ limit: 5 });
    expect(current.prev).toBeNull();
    for (;;) {
      seen.push(...current.rows.map((r) => Number(r.id)));
      prevs.push(current.prev);
      if (!current.next) break;
      current = await page({ limit: 5, after: decodeCursor(current.next, KEYS)! });
    }
    expect(seen).toEqual(Array.from({ length: ROWS }, (_, i) => ROWS - i));
    // From the last page, prev walks back to the first, page by page.
    const back: number[][] = [current.rows.map((r) => Number(r.id))];
    let cursor = current.prev;
    while (cursor) {
      const previous = await page({ limit: 5, before: decodeCursor(cursor, KEYS)! });
      back.unshift(previous.rows.map((r) => Number(r.id)));
      cursor = previous.prev;
    }
    expect(back.flat()).toEqual(seen);
  });

  it('answers a numbered page by offset, with cursors either side', async () => {
    const third = await page({ limit: 5, page: 3 });
    expect(third.rows.map((r) => Number(r.id))).toEqual([13, 12, 11, 10, 9]);
    const fourth = await page({ limit: 5, after: decodeCursor(third.next!, KEYS)! });
    expect(fourth.rows.map((r) => Number(r.id))).toEqual([8, 7, 6, 5, 4]);
    const second = await page({ limit: 5, before: decodeCursor(third.prev!, KEYS)! });
    expect(second.rows.map((r) => Number(r.id))).toEqual([18, 17, 16, 15, 14]);
    expect((await page({ limit: 5, page: 9 })).rows).toEqual([]);
  });

  it('gives a sparse search the same pages sorted from its matches as walking the list', async () => {
    const odd = () => database.db.selectFrom(sql.table(table).as('items') as never).where(sql<boolean>`kind = 'odd'`) as never;
    const rows = () => (odd() as unknown as { select: (s: unknown[]) => never }).select(['id' as never, sql<string>`made_at::text`.as('at')]);
    const walk = async (sparse: boolean, countCap: number) => {
      const pages: number[][] = [];
      let current = await countedPage<DB, never, Row>(database.db, rows(), odd(), KEYS, keyOf, { limit: 4, countCap, sparse });
      const first = current;
      for (;;) {
        pages.push(current.rows.map((r) => Number(r.id)));
        if (!current.next) break;
        current = await countedPage<DB, never, Row>(database.db, rows(), odd(), KEYS, keyOf, {
          limit: 4,
          countCap,
          sparse,
          after: decodeCursor(current.next, KEYS)!,
        });
      }
      const back = await countedPage<DB, never, Row>(database.db, rows(), odd(), KEYS, keyOf, {
        limit: 4,
        countCap,
        sparse,
        before: decodeCursor(current.prev!, KEYS)!,
      });
      return { pages, total: first.total, capped: first.totalCapped, back: back.rows.map((r) => Number(r.id)) };
    };
    const listed = await walk(false, 100);
    expect(listed.pages.flat()).toEqual([23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1]);
    // Counted short of the cap: sorted from the matches. Counted to the cap: the list's walk. The same pages.
    expect(await walk(true, 100)).toEqual(listed);
    expect(await walk(true, 5)).toEqual({ ...listed, total: 5, capped: true });
  });

  it('counts up to a cap', async () => {
    const all = database.db.selectFrom(sql.table(table).as('items') as never).selectAll() as never;
    expect(await cappedCount(database.db, all, 100)).toEqual({ total: ROWS, capped: false });
    expect(await cappedCount(database.db, all, 10)).toEqual({ total: 10, capped: true });
    expect(await cappedCount(database.db, all, ROWS)).toEqual({ total: ROWS, capped: false });
  });
}

describe('keyset pages on PGlite', () => {
  let shared: Awaited<ReturnType<typeof openPglite>>;
  contract(async () => {
    shared = await openPglite();
    return { database: openDatabase<DB>({ kind: 'pglite', shared }, 'paging'), dispose: () => shared.close() };
  });
});

describeWithPostgres()('keyset pages on PostgreSQL', () => {
  contract(async () => {
    const database = openDatabase<DB>({ kind: 'postgres', url: TEST_DATABASE_URL }, 'public');
    return { database, dispose: () => database.close() };
  });
});
