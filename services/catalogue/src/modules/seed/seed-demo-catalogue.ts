// Seeds the demo catalogue once per database (idempotent: a marker row
// records that it ran, so books an admin deletes later stay deleted).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { DEFAULT_BOOK_LANGUAGE, rupeesToPaise, type SampleContent } from '@persona/contracts';
import type { CatalogueDB } from '../../db';
import { bumpCatalogueVersion } from '../catalogue-version.repository';
import type { FileStorage } from '../files/file-storage';
import { insertBook } from '../books/books.repository';
import { refreshTagCounts } from '../books/tags.repository';
import { normaliseTags } from '../books/parse-book-form';

export interface DemoCatalogue {
  categories: Array<{ key: string; name: string; description: string }>;
  books: Array<{
    key: string;
    title: string;
    author: string;
    description: string;
    price: number;
    printingCost: number;
    tags: string[];
    ratings: number;
    category: string;
    trailLimit: number;
    cover: string;
    sampleContent: SampleContent;
    content: string[];
  }>;
}

export const DEMO_SEED_DIR = path.resolve(__dirname, __dirname.includes(`${path.sep}dist${path.sep}`) ? '../../../../seed' : '../../../seed');

export async function loadDemoCatalogue(dir = DEMO_SEED_DIR): Promise<DemoCatalogue> {
  return JSON.parse(await readFile(path.join(dir, 'demo-catalogue.json'), 'utf8')) as DemoCatalogue;
}

/** Returns the number of books seeded (0 when the demo was seeded before). */
export async function seedDemoCatalogue(db: Kysely<CatalogueDB>, storage: FileStorage, dir = DEMO_SEED_DIR): Promise<number> {
  const demo = await loadDemoCatalogue(dir);
  const covers = new Map<string, Buffer>();
  for (const book of demo.books) covers.set(book.cover, await readFile(path.join(dir, 'covers', book.cover)));

  const written: string[] = [];
  try {
    return await db.transaction().execute(async (trx) => {
      // Claim the seed inside the transaction; a concurrent starter waits on the row lock and then sees it taken.
      const claimed = await trx
        .updateTable('catalogue_meta')
        .set({ demo_seeded_at: sql`now()` })
        .where('id', '=', 1)
        .where('demo_seeded_at', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) return 0;

      const categoryIds = new Map<string, string>();
      for (const category of demo.categories) {
        const row = await trx
          .insertInto('categories')
          .values({ name: category.name, description: category.description })
          .onConflict((oc) => oc.expression(sql`lower(name)`).doUpdateSet({ updated_at: sql`now()` }))
          .returning('id')
          .executeTakeFirstOrThrow();
        categoryIds.set(category.key, row.id);
      }
      // The first book in the file gets the newest timestamp, so the listing (newest first) keeps file order.
      const base = Date.now() - demo.books.length * 1000;
      for (const [i, book] of demo.books.entries()) {
        const coverKey = await storage.put('covers', 'jpg', covers.get(book.cover)!);
        written.push(coverKey);
        const id = await insertBook(trx, {
          title: book.title,
          author: book.author,
          description: book.description,
          pricePaise: rupeesToPaise(book.price),
          printingCostPaise: rupeesToPaise(book.printingCost),
          tags: normaliseTags(book.tags),
          rating: book.ratings,
          categoryId: categoryIds.get(book.category) ?? null,
          sampleContent: book.sampleContent,
          trailLimit: book.trailLimit,
          coverKey,
          imageKeys: [],
          samplePdfKey: null,
          fullPdfKey: null,
          authorSignatureKey: null,
          language: DEFAULT_BOOK_LANGUAGE,
          pageCount: null,
          content: book.content,
        });
        const at = new Date(base + (demo.books.length - i) * 1000);
        await trx.updateTable('books').set({ created_at: at, updated_at: at }).where('id', '=', id).execute();
      }
      await bumpCatalogueVersion(trx);
      await refreshTagCounts(
        trx,
        demo.books.flatMap((book) => normaliseTags(book.tags)),
      );
      return demo.books.length;
    });
  } catch (err) {
    await Promise.all(written.map((k) => storage.delete(k).catch(() => undefined)));
    throw err;
  }
}
