// The version cache's one promise (read your own writes: every call learns the version from a read
// that started after it was made) and its one economy (calls made together share that read), on both
// databases the shop runs on.
import { describeWithPostgres } from '@persona/test-kit';
import type { Database } from '@persona/db';
import type { KyselyPlugin, PluginTransformQueryArgs, RootOperationNode } from 'kysely';
import type { CatalogueDB } from '../../../src/db';
import { BookCache } from '../../../src/modules/books/book-cache';
import { bumpCatalogueVersion, readCatalogueVersion } from '../../../src/modules/catalogue-version.repository';
import { openTestDatabase } from '../../support';

/** Counts the queries that read the catalogue's version. */
class VersionReads implements KyselyPlugin {
  count = 0;
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (node.kind === 'SelectQueryNode' && JSON.stringify(node.from).includes('"catalogue_meta"')) this.count += 1;
    return node;
  }
  async transformResult<T>({ result }: { result: T }): Promise<T> {
    return result;
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function contract(kind: 'pglite' | 'postgres') {
  let database: Database<CatalogueDB>;
  let dispose: () => Promise<void>;
  let reads: VersionReads;
  let cache: BookCache;

  beforeAll(async () => {
    ({ database, dispose } = await openTestDatabase(kind));
  });
  afterAll(() => dispose());
  beforeEach(() => {
    reads = new VersionReads();
    cache = new BookCache(database.db.withPlugin(reads));
  });

  it('answers calls made together with one read of the version', async () => {
    const current = await readCatalogueVersion(database.db);
    const versions = await Promise.all(Array.from({ length: 50 }, () => cache.version()));
    expect(versions).toEqual(Array.from({ length: 50 }, () => current));
    expect(reads.count).toBe(1);
  });

  it('answers a call made after a write with a read that sees it, while an earlier call’s read is pending or in flight', async () => {
    const before = await readCatalogueVersion(database.db);
    const first = cache.version();
    // The first call's read starts on a later turn: on PostgreSQL it is in flight when the write
    // commits; on PGlite (on this thread) the write may commit before it starts, and both share it.
    await nextTurn();
    const written = await database.db.transaction().execute((trx) => bumpCatalogueVersion(trx));
    const second = cache.version();
    expect(await first).toBeGreaterThanOrEqual(before);
    expect(await second).toBe(written);
    expect(reads.count).toBeLessThanOrEqual(2);
  });

  it('never answers a call with a version older than a write committed before it, however calls and writes interleave', async () => {
    const pending: Promise<void>[] = [];
    for (let i = 0; i < 40; i += 1) {
      const committed = await database.db.transaction().execute((trx) => bumpCatalogueVersion(trx));
      for (let j = 0; j < 1 + (i % 4); j += 1) {
        pending.push(
          cache.version().then((seen) => {
            expect(seen).toBeGreaterThanOrEqual(committed);
          }),
        );
      }
      if (i % 3 === 0) await nextTurn();
    }
    await Promise.all(pending);
    // Shared, not one read a call: 100 calls, at most one read per write.
    expect(reads.count).toBeLessThanOrEqual(41);
  });
}

describe('the catalogue version cache on PGlite', () => contract('pglite'));
describeWithPostgres()('the catalogue version cache on PostgreSQL', () => contract('postgres'));
