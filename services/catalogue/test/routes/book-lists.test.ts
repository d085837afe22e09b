// Every list question the storefront asks, answered by the catalogue (DESIGN §11): search
// (ranking, accents, typos, hostile text), the home tabs' and chips' rules (spec §5), sort,
// pages, tag counts, related books, suggestions and the sitemap listing, on PGlite and on
// the real PostgreSQL.
import { randomUUID } from 'node:crypto';
import { describeWithPostgres } from '@persona/test-kit';
import { bumpCatalogueVersion } from '../../src/modules/catalogue-version.repository';
import { listBooks } from '../../src/modules/books/book-lists.repository';
import { insertBook } from '../../src/modules/books/books.repository';
import { refreshTagCounts } from '../../src/modules/books/tags.repository';
import { multipart, startHarness, type Harness } from '../support';

interface Fixture {
  title: string;
  author: string;
  tags: string[];
  category: 'novels' | 'lives' | 'help';
  price: number;
  rating: number;
}

/** Newest first as listed (each is created a minute after the next one). */
const BOOKS: Fixture[] = [
  { title: 'Tiffin', author: 'Meera Nair', tags: ['Fiction', 'Food'], category: 'novels', price: 199, rating: 4.8 },
  { title: 'Zoë and the Tiffin Box', author: 'Anaya Rao', tags: ['Fiction', "Children's"], category: 'novels', price: 299, rating: 4.5 },
  { title: 'Monsoon Ledger', author: 'Ravi Tiffinwala', tags: ['Mystery'], category: 'novels', price: 410, rating: 3.2 },
  { title: 'The Tiffin Carrier', author: 'Vikram Seth-Iyer', tags: ['Historical Fiction', 'Mumbai'], category: 'novels', price: 499, rating: 3.9 },
  { title: 'Tiffins of Madras', author: 'Lakshmi Rao', tags: ['Memoir', 'Food'], category: 'lives', price: 350, rating: 4.1 },
  { title: 'Self-Help for Cooks', author: 'Dr. Zoe Fernandes', tags: ['Self-Help', 'Food'], category: 'help', price: 150, rating: 4.0 },
  { title: 'A Life in Letters', author: 'José Martí', tags: ['Biography', 'Poetry'], category: 'lives', price: 620, rating: 4.9 },
  { title: 'Crème de la Crème', author: 'Renée Dubois', tags: ['self-help', 'French'], category: 'help', price: 275, rating: 3.5 },
  { title: 'Field Notes', author: 'Kabir Das', tags: ['fiction', 'Nature'], category: 'novels', price: 180, rating: 2.9 },
  { title: 'The Memoirist', author: 'Asha Pillai', tags: ['Literary Memoirs'], category: 'lives', price: 380, rating: 3.7 },
  { title: 'Historically Speaking', author: 'Neel Menon', tags: ['historical'], category: 'lives', price: 240, rating: 3.3 },
  { title: '50% Off_Wisdom \\ Done', author: "O'Brien & Sons", tags: ['100% Pure'], category: 'help', price: 99, rating: 2.5 },
];

function suite(kind: 'pglite' | 'postgres') {
  let h: Harness;
  const ids = new Map<string, string>();
  const categories = new Map<string, string>();

  beforeAll(async () => {
    h = await startHarness(kind);
    for (const name of ['novels', 'lives', 'help']) {
      categories.set(name, (await h.app.inject({ method: 'POST', url: '/api/categories', payload: { name }, headers: h.auth })).json().data._id);
    }
    const start = Date.now() - BOOKS.length * 60_000;
    await h.database.db.transaction().execute(async (trx) => {
      for (const [i, b] of [...BOOKS].reverse().entries()) {
        const id = await insertBook(trx, {
          title: b.title,
          author: b.author,
          description: `${b.title}: a book.`,
          pricePaise: b.price * 100,
          printingCostPaise: 0,
          tags: b.tags,
          rating: b.rating,
          categoryId: categories.get(b.category)!,
          sampleContent: 'One line.',
          trailLimit: 0,
          coverKey: null,
          imageKeys: [],
          samplePdfKey: null,
          fullPdfKey: null,
          authorSignatureKey: null,
          language: 'English',
          pageCount: null,
          content: [],
        });
        const at = new Date(start + i * 60_000);
        await trx.updateTable('books').set({ created_at: at, updated_at: at }).where('id', '=', id).execute();
        ids.set(b.title, id);
      }
      await bumpCatalogueVersion(trx);
      await refreshTagCounts(
        trx,
        BOOKS.flatMap((b) => b.tags),
      );
    });
  });
  afterAll(() => h.close());

  const get = (url: string) => h.app.inject({ url });
  const titles = async (url: string): Promise<string[]> => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    return res.json().data.map((b: { title: string }) => b.title);
  };
  const search = (text: string, extra = '') => titles(`/api/books?search=${encodeURIComponent(text)}${extra}`);

  describe('search', () => {
    it('ranks the exact title, then title prefixes, then authors, then the rest by similarity', async () => {
      expect(await search('tiffin')).toEqual(['Tiffin', 'Tiffins of Madras', 'Monsoon Ledger', 'Zoë and the Tiffin Box', 'The Tiffin Carrier']);
    });

    it('ignores case and accents, both ways', async () => {
      expect(await search('zoe')).toEqual(['Zoë and the Tiffin Box', 'Self-Help for Cooks']);
      expect(await search('ZOË')).toEqual(await search('zoe'));
      expect(await search('creme de la')).toEqual(['Crème de la Crème']);
      expect(await search('jose marti')).toEqual(['A Life in Letters']);
    });

    it.each([
      ['a missing letter', 'tifin'],
      ['an extra letter', 'tiffinn'],
      ['two letters swapped', 'tiffni'],
      ['two letters swapped early', 'tfifin'],
      ['a letter changed', 'tiffon'],
    ])('forgives %s', async (_label, text) => {
      const found = await search(text);
      expect(found).toEqual(expect.arrayContaining(['Tiffin', 'Zoë and the Tiffin Box', 'The Tiffin Carrier', 'Tiffins of Madras']));
      expect(found).not.toContain('Field Notes');
    });

    it('puts the books with every word of a search (across title and author, in any order) before those with some', async () => {
      const found = await search('rao tiffin');
      expect(found.slice(0, 2).sort()).toEqual(['Tiffins of Madras', 'Zoë and the Tiffin Box']);
      expect(await search('tiffin:* | !rao & (')).toEqual(found);
    });

    it('keeps the spec rule: any case-insensitive substring of a title or author', async () => {
      expect(await search('EMOIRI')).toEqual(['The Memoirist']);
      expect(await search('seth-i')).toEqual(['The Tiffin Carrier']);
    });

    it.each([
      ['%', ['50% Off_Wisdom \\ Done']],
      ['_', ['50% Off_Wisdom \\ Done']],
      ['\\', ['50% Off_Wisdom \\ Done']],
      ["o'brien", ['50% Off_Wisdom \\ Done']],
      ['"tiffin"', ['Tiffin', 'Tiffins of Madras', 'Monsoon Ledger', 'Zoë and the Tiffin Box', 'The Tiffin Carrier']],
      ['& sons', ['50% Off_Wisdom \\ Done']],
      ['.*', []],
      ['(tiffin|memoir)[a-z]+$', []],
      ["'; DROP TABLE books; --", []],
      ['x'.repeat(200), []],
    ])('takes %j as plain text', async (text, expected) => {
      expect(await search(text)).toEqual(expected);
    });

    it('finds a word typed with a typo before it was finished, and says which title it meant', async () => {
      const res = await get(`/api/books?search=${encodeURIComponent('monsn ledgr')}`);
      expect(res.json().data.map((b: { title: string }) => b.title)).toEqual(['Monsoon Ledger']);
      expect(res.json().meta).toEqual({ total: 1, page: 1, limit: 24, didYouMean: 'Monsoon Ledger' });
      expect(await search('tiffinwla')).toEqual(['Monsoon Ledger']);
      // Corrected matches rank as the corrected text would: the exact title first.
      const corrected = (await get('/api/books?search=tifin')).json();
      expect(corrected.data[0].title).toBe('Tiffin');
      expect(corrected.meta.didYouMean).toBe('Tiffin');
      // A search that matches as written is not second-guessed.
      expect((await get('/api/books?search=tiffin')).json().meta.didYouMean).toBeUndefined();
    });

    it('names the closest title when nothing matches, and nothing for gibberish', async () => {
      const res = await get(`/api/books?search=${encodeURIComponent('the tiffin carrrrier')}`);
      expect(res.json()).toMatchObject({ data: [], meta: { total: 0, didYouMean: 'The Tiffin Carrier' } });
      expect((await get('/api/books?search=qqqqzzzz')).json().meta).toEqual({ total: 0, page: 1, limit: 24 });
    });

    it("suggests a book for a typo in a word's beginning", async () => {
      const res = await get('/api/books/suggest?q=monsn');
      expect(
        res
          .json()
          .data.filter((s: { kind: string }) => s.kind === 'book')
          .map((s: { title: string }) => s.title),
      ).toEqual(['Monsoon Ledger']);
    });

    it("counts a search's matches only up to a cap, and says so", async () => {
      const capped = await listBooks(h.database.db, { search: 'tiffin' }, { page: 1, limit: 2, countCap: 3 });
      expect(capped).toMatchObject({ total: 3, totalCapped: true });
      expect(capped.books).toHaveLength(2);
      expect(await listBooks(h.database.db, { search: 'tiffin' }, { page: 1, limit: 2 })).toMatchObject({ total: 5, totalCapped: false });
      expect((await get('/api/books?search=tiffin')).json().meta).toEqual({ total: 5, page: 1, limit: 24 });
    });

    it.each([
      ['1,000 characters', 'x'.repeat(1000), 'query field "search" must be at most 200 characters'],
      ['a control character', 'tiffin\u0007', 'query field "search" must be plain text (no control characters)'],
      ['a NUL character', 'tiffin\u0000', 'The address contains a NUL character (%00), which is not allowed'],
    ])('refuses %s with a clear 400', async (_label, text, message) => {
      const res = await get(`/api/books?search=${encodeURIComponent(text)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    });
  });

  describe('the home tabs and the explore chips (spec §5)', () => {
    it.each([
      ['fiction', ['Tiffin', 'Zoë and the Tiffin Box']],
      ['non-fiction', ['The Tiffin Carrier', 'Tiffins of Madras', 'A Life in Letters', 'The Memoirist']],
      ['self-help', ['Self-Help for Cooks']],
    ])('tab=%s keeps exactly the books of its rule, newest first', async (tab, expected) => {
      expect(await titles(`/api/books?tab=${tab}&limit=100`)).toEqual(expected);
    });

    it('a chip keeps the books with a tag containing its text, in any case', async () => {
      expect(await titles('/api/books?tag=fiction')).toEqual(['Tiffin', 'Zoë and the Tiffin Box', 'The Tiffin Carrier', 'Field Notes']);
      expect(await titles('/api/books?tag=SELF-HELP')).toEqual(['Self-Help for Cooks', 'Crème de la Crème']);
      expect(await titles('/api/books?tag=100%25')).toEqual(['50% Off_Wisdom \\ Done']);
      expect(await titles('/api/books?tag=_')).toEqual([]);
    });

    it('combines a tab, a chip, a category and a search', async () => {
      expect(await titles(`/api/books?tab=fiction&search=zoe`)).toEqual(['Zoë and the Tiffin Box']);
      expect(await titles(`/api/books?tag=food&category=${categories.get('lives')}`)).toEqual(['Tiffins of Madras']);
    });

    it('GET /api/tags answers the distinct lower-cased tags with their counts, sorted', async () => {
      const res = await get('/api/tags');
      expect(res.statusCode).toBe(200);
      const { data, meta } = res.json();
      const expected = new Map<string, number>();
      for (const b of BOOKS) for (const t of b.tags) expected.set(t.toLowerCase(), (expected.get(t.toLowerCase()) ?? 0) + 1);
      expect(data).toEqual([...expected].map(([tag, count]) => ({ tag, count })).sort((a, b) => a.tag.localeCompare(b.tag)));
      expect(meta).toEqual({ total: expected.size, page: 1, limit: 100 });
      expect(data.find((t: { tag: string }) => t.tag === 'fiction').count).toBe(3);
    });

    it('GET /api/tags finds tags containing a text, and ranks by count', async () => {
      expect((await get('/api/tags?q=FICT')).json().data).toEqual([
        { tag: 'fiction', count: 3 },
        { tag: 'historical fiction', count: 1 },
      ]);
      const top = (await get('/api/tags?sort=count&limit=2')).json();
      // Ties by name.
      expect(top.data).toEqual([
        { tag: 'fiction', count: 3 },
        { tag: 'food', count: 3 },
      ]);
      expect(top.meta.total).toBeGreaterThan(2);
      expect((await get('/api/tags?q=%25')).json().data).toEqual([{ tag: '100% pure', count: 1 }]);
    });
  });

  describe('sort and pages', () => {
    it.each([
      ['newest', BOOKS.map((b) => b.title)],
      ['price-asc', [...BOOKS].sort((a, b) => a.price - b.price).map((b) => b.title)],
      ['price-desc', [...BOOKS].sort((a, b) => b.price - a.price).map((b) => b.title)],
      ['rating', [...BOOKS].sort((a, b) => b.rating - a.rating).map((b) => b.title)],
    ])('sort=%s', async (sort, expected) => {
      expect(await titles(`/api/books?sort=${sort}&limit=100`)).toEqual(expected);
    });

    it('pages with a total, and a page past the end is empty', async () => {
      const second = (await get('/api/books?limit=5&page=2')).json();
      expect(second.meta).toEqual({ total: BOOKS.length, page: 2, limit: 5 });
      expect(second.data.map((b: { title: string }) => b.title)).toEqual(BOOKS.slice(5, 10).map((b) => b.title));
      const past = (await get('/api/books?limit=5&page=40')).json();
      expect(past).toEqual({ data: [], meta: { total: BOOKS.length, page: 40, limit: 5 } });
    });

    it.each([
      ['/api/books?limit=0', 'query field "limit" must be >= 1'],
      ['/api/books?limit=101', 'query field "limit" must be <= 100'],
      ['/api/books?page=0', 'query field "page" must be >= 1'],
      ['/api/books?tab=poetry', 'query field "tab" must be one of: fiction, non-fiction, self-help'],
      ['/api/books?sort=cheapest', 'query field "sort" must be one of: relevance, newest, price-asc, price-desc, rating'],
      ['/api/tags?limit=501', 'query field "limit" must be <= 500'],
      ['/api/tags?sort=popular', 'query field "sort" must be one of: name, count'],
    ])('refuses %s with a clear 400', async (url, message) => {
      const res = await get(url);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    });
  });

  describe('related books', () => {
    it('answers other books of the same category first, then by shared tags, never the book itself', async () => {
      const res = await get(`/api/books/${ids.get('Tiffin')}/related?limit=4`);
      expect(res.statusCode).toBe(200);
      const related = res.json().data.map((b: { title: string }) => b.title);
      expect(related).toHaveLength(4);
      expect(related).not.toContain('Tiffin');
      // Same category ("novels") and a shared tag (Fiction) first.
      expect(related[0]).toBe('Zoë and the Tiffin Box');
      expect(related.slice(1)).toEqual(expect.arrayContaining(['Monsoon Ledger', 'The Tiffin Carrier']));
    });

    it('defaults to 4, takes up to 12, and knows unknown and malformed ids', async () => {
      expect((await get(`/api/books/${ids.get('Tiffin')}/related`)).json().data).toHaveLength(4);
      // Its own category and nothing else: no other book shares a tag with it.
      const lives = (await get(`/api/books/${ids.get('A Life in Letters')}/related?limit=12`)).json().data.map((b: { title: string }) => b.title);
      expect(lives.sort()).toEqual(['Historically Speaking', 'The Memoirist', 'Tiffins of Madras']);
      expect((await get(`/api/books/${randomUUID()}/related`)).statusCode).toBe(404);
      expect((await get(`/api/books/nope/related`)).statusCode).toBe(400);
      expect((await get(`/api/books/${ids.get('Tiffin')}/related?limit=13`)).json().message).toBe('query field "limit" must be <= 12');
    });
  });

  describe('suggestions', () => {
    const suggest = async (q: string) => {
      const res = await get(`/api/books/suggest?q=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(200);
      return res.json().data as Array<{ kind: string; title?: string; author?: string }>;
    };

    it('suggests the best matching books, then authors, at most 8', async () => {
      const found = await suggest('tiff');
      expect(
        found
          .filter((s) => s.kind === 'book')
          .map((s) => s.title)
          .slice(0, 2),
      ).toEqual(['Tiffin', 'Tiffins of Madras']);
      expect(found).toContainEqual({ kind: 'author', author: 'Ravi Tiffinwala', books: 1 });
      expect(found.length).toBeLessThanOrEqual(8);
      expect(found.findIndex((s) => s.kind === 'author')).toBeGreaterThan(found.findLastIndex((s) => s.kind === 'book'));
    });

    it('suggests authors by any word of their name, accents aside, and forgives a typo', async () => {
      expect(await suggest('rao')).toEqual(
        expect.arrayContaining([
          { kind: 'author', author: 'Anaya Rao', books: 1 },
          { kind: 'author', author: 'Lakshmi Rao', books: 1 },
        ]),
      );
      expect((await suggest('renee')).map((s) => s.author)).toContain('Renée Dubois');
      expect((await suggest('tifin')).map((s) => s.title)).toContain('Tiffin');
    });

    it('answers nothing for less than two characters, and refuses what is not text', async () => {
      expect(await suggest('t')).toEqual([]);
      expect(await suggest('  ')).toEqual([]);
      expect((await get('/api/books/suggest')).statusCode).toBe(400);
      expect((await get(`/api/books/suggest?q=${'a'.repeat(201)}`)).statusCode).toBe(400);
    });
  });

  describe('sitemap listing', () => {
    it('lists the books in files with their last change', async () => {
      const index = (await get('/api/books/sitemap')).json().data;
      expect(index).toMatchObject({ total: BOOKS.length, perFile: 50000 });
      expect(index.files).toHaveLength(1);
      expect(Date.parse(index.files[0].lastModified)).toBeGreaterThan(0);
      const file = (await get('/api/books/sitemap/1')).json().data;
      expect(file.map((e: { _id: string }) => e._id).sort()).toEqual([...ids.values()].sort());
      expect((await get('/api/books/sitemap/2')).statusCode).toBe(404);
      expect((await get('/api/books/sitemap/0')).statusCode).toBe(400);
    });
  });

  describe('after a write', () => {
    it('tag counts, lists and related books follow at once', async () => {
      const body = await multipart([
        ['title', 'Second Tiffin'],
        ['author', 'Meera Nair'],
        ['description', 'd'],
        ['category', categories.get('novels')!],
        ['price', '100'],
        ['tags', JSON.stringify(['Fiction', 'Brand New Tag'])],
      ]);
      const created = await h.app.inject({ method: 'POST', url: '/api/books', payload: body.payload, headers: { ...h.auth, ...body.headers } });
      expect(created.statusCode).toBe(201);
      const id = created.json().data._id;
      const tags = () => get('/api/tags?q=new').then((r) => r.json().data);
      expect(await tags()).toEqual([{ tag: 'brand new tag', count: 1 }]);
      expect((await titles('/api/books?tab=fiction'))[0]).toBe('Second Tiffin');

      const edit = await multipart([['tags', JSON.stringify(['Mystery'])]]);
      await h.app.inject({ method: 'PUT', url: `/api/books/${id}`, payload: edit.payload, headers: { ...h.auth, ...edit.headers } });
      expect(await tags()).toEqual([]);
      expect(await titles('/api/books?tab=fiction')).not.toContain('Second Tiffin');

      await h.app.inject({ method: 'DELETE', url: `/api/books/${id}`, headers: h.auth });
      expect((await get('/api/tags?q=myst')).json().data).toEqual([{ tag: 'mystery', count: 1 }]);
      expect(await search('second tiffin')).not.toContain('Second Tiffin');
    });
  });
}

describe('book lists on PGlite', () => suite('pglite'));
describeWithPostgres()('book lists on PostgreSQL', () => suite('postgres'));
