// Repository behaviour and seeding on both databases the shop runs on.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describeWithPostgres } from '@persona/test-kit';
import type { Database } from '@persona/db';
import type { CatalogueDB } from '../../../src/db';
import { listBooks, suggest } from '../../../src/modules/books/book-lists.repository';
import { toBook } from '../../../src/modules/books/books.mapper';
import { findBook } from '../../../src/modules/books/books.repository';
import { LocalFileStorage } from '../../../src/modules/files/file-storage';
import { seedDemoCatalogue, loadDemoCatalogue } from '../../../src/modules/seed/seed-demo-catalogue';
import { openTestDatabase } from '../../support';

function contract(kind: 'pglite' | 'postgres') {
  let database: Database<CatalogueDB>;
  let dispose: () => Promise<void>;
  let filesDir: string;

  beforeAll(async () => {
    ({ database, dispose } = await openTestDatabase(kind));
    filesDir = await mkdtemp(path.join(os.tmpdir(), 'catalogue-seed-'));
  });
  afterAll(async () => {
    await dispose();
    await rm(filesDir, { recursive: true, force: true });
  });

  it('seeds the demo catalogue once, even when two starts race', async () => {
    const storage = new LocalFileStorage(filesDir);
    const demo = await loadDemoCatalogue();
    const results = await Promise.all([seedDemoCatalogue(database.db, storage), seedDemoCatalogue(database.db, storage)]);
    expect(results.sort()).toEqual([0, demo.books.length]);
    expect(await seedDemoCatalogue(database.db, storage)).toBe(0);
    const { total, books } = await listBooks(database.db, {}, { page: 1, limit: 100 });
    expect(total).toBe(demo.books.length);
    expect(books[0].title).toBe(demo.books[0].title);
  });

  it('suggests the same books whether the strong matches answer alone or every match is ranked', async () => {
    // The ranking written out: exact title, title beginning, author's beginning or a word's, any other match; then rating, id.
    const { books } = await listBooks(database.db, {}, { page: 1, limit: 100 });
    const ranked = (q: string) =>
      books
        .map((b) => {
          const title = b.title.toLowerCase();
          const author = b.author.toLowerCase();
          const tier = title === q ? 0 : title.startsWith(q) ? 1 : author.startsWith(q) || author.includes(` ${q}`) ? 2 : 3;
          const hit = title.includes(q) || author.includes(q) || `${title} ${author}`.split(/[^a-z]+/).some((w) => w.startsWith(q));
          return { b, tier, hit };
        })
        .filter((r) => r.hit)
        .sort((x, y) => x.tier - y.tier || y.b.rating - x.b.rating || (x.b.id < y.b.id ? -1 : 1))
        .map((r) => r.b.title);
    const titles = async (q: string, max: number) => (await suggest(database.db, q, max)).books.map((b) => b.title);
    const strongCount = books.filter((b) => b.title.toLowerCase().startsWith('the')).length;
    expect(strongCount).toBeGreaterThanOrEqual(3);
    // Enough titles begin with "the": they answer alone.
    expect(await titles('the', 3)).toEqual(ranked('the').slice(0, 3));
    // Fewer than asked: titles that only contain "the" fill the rest, ranked after them.
    const filled = await titles('the', 14);
    expect(filled.length).toBeGreaterThan(strongCount);
    expect(filled).toEqual(ranked('the').slice(0, filled.length));
  });

  describe('a typo never dead-ends a search', () => {
    const search = (text: string) => listBooks(database.db, { search: text }, { page: 1, limit: 100 });
    const titles = async (text: string) => (await search(text)).books.map((b) => b.title);

    it('finds "backwatr" (a typo before the word was finished): The Backwaters Ledger, and says so', async () => {
      const answer = await search('backwatr');
      expect(answer.books.map((b) => b.title)).toEqual(['The Backwaters Ledger']);
      expect(answer.didYouMean).toBe('The Backwaters Ledger');
      expect(await titles('The Bakwaters Ledger')).toEqual(['The Backwaters Ledger']);
      expect((await suggest(database.db, 'backwatr', 8)).books.map((b) => b.title)).toEqual(['The Backwaters Ledger']);
    });

    it("forgives a typo in the author's name, whole or unfinished", async () => {
      expect(await titles('kuruvila')).toEqual(['The Backwaters Ledger']);
      expect(await titles('meera kuruvll')).toEqual(['The Backwaters Ledger']);
      expect(await titles('tagroe')).toEqual(['Gitanjali: Song Offerings']);
    });

    it('ranks what matches as written first and never adds corrections to it', async () => {
      const answer = await search('ledg');
      expect(answer.books.map((b) => b.title).sort()).toEqual(['Rain Ledger', 'The Backwaters Ledger']);
      expect(answer.didYouMean).toBeUndefined();
      expect((await search('rain ledgr')).books[0]?.title).toBe('Rain Ledger');
    });

    it('floods nothing for a short or made-up word', async () => {
      expect((await titles('lefg')).sort()).toEqual(['Rain Ledger', 'The Backwaters Ledger']);
      for (const made of ['qzx', 'zzzzqqqq']) {
        const answer = await search(made);
        expect(answer).toMatchObject({ books: [], total: 0 });
        expect(answer.didYouMean).toBeUndefined();
      }
    });

    it('names the closest title when nothing matches even corrected', async () => {
      expect(await search('the backwaterrrs ledger')).toMatchObject({ books: [], didYouMean: 'The Backwaters Ledger' });
    });
  });

  it('searches, filters and pages', async () => {
    const demo = await loadDemoCatalogue();
    const sample = demo.books[1];
    const bySearch = await listBooks(database.db, { search: sample.title.slice(2, 9).toUpperCase() }, { page: 1, limit: 100 });
    expect(bySearch.books.map((b) => b.title)).toContain(sample.title);
    const byTag = await listBooks(database.db, { tag: 'self-help' }, { page: 1, limit: 100 });
    expect(byTag.books.every((b) => b.tags.some((t) => t.toLowerCase().includes('self-help')))).toBe(true);
    expect(byTag.total).toBe(demo.books.filter((b) => b.tags.some((t) => t.toLowerCase().includes('self-help'))).length);
    const page2 = await listBooks(database.db, {}, { page: 2, limit: 5 });
    expect(page2.books).toHaveLength(5);
    expect(page2.total).toBe(demo.books.length);
    const one = await findBook(database.db, page2.books[0].id);
    expect(one?.title).toBe(page2.books[0].title);
    // The row becomes the API's book in books.mapper: its cover as a file address.
    expect(toBook(one!).coverImage?.url).toMatch(/^\/api\/files\/covers\//);
  });
}

describe('books repository on PGlite', () => contract('pglite'));
describeWithPostgres()('books repository on PostgreSQL', () => contract('postgres'));
