// The catalogue behind a real PgBouncer in transaction mode (issue 25): its migrations, its raw-SQL
// search (pg_trgm and unaccent, in schema public) and its writes answer as on a direct connection,
// with no session setting to lean on.
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { migrateToLatest, openDatabase, sql, type Database } from '@persona/db';
import { createAdminVerifier, type ServiceApp } from '@persona/service-kit';
import { describeWithPgBouncer, mintAdminToken, startPgBouncer, TEST_JWT_SECRET, uniqueName, type TestPgBouncer } from '@persona/test-kit';
import { buildApp } from '../../src/app';
import type { CatalogueDB } from '../../src/db';
import { LocalFileStorage } from '../../src/modules/files/file-storage';
import { seedDemoCatalogue } from '../../src/modules/seed/seed-demo-catalogue';
import { catalogueMigrations } from '../../src/service';
import { openTestDatabase } from '../support';

const auth = { authorization: `Bearer ${mintAdminToken()}` };

describeWithPgBouncer()('the catalogue through PgBouncer (transaction mode)', () => {
  let bouncer: TestPgBouncer;
  let pooled: Database<CatalogueDB>;
  let direct: { database: Database<CatalogueDB>; dispose(): Promise<void> };
  let filesDir: string;
  let app: ServiceApp;
  let reference: ServiceApp;

  beforeAll(async () => {
    bouncer = await startPgBouncer(2);
    filesDir = await mkdtemp(path.join(os.tmpdir(), 'catalogue-pooler-'));
    pooled = openDatabase<CatalogueDB>({ kind: 'postgres', url: bouncer.url(), pooler: 'transaction', poolSize: 6 }, uniqueName('catalogue_pooled'));
    // Migrated and seeded through the pooler.
    await migrateToLatest(pooled, catalogueMigrations);
    expect(await seedDemoCatalogue(pooled.db, new LocalFileStorage(filesDir))).toBeGreaterThan(0);
    direct = await openTestDatabase('postgres');
    await seedDemoCatalogue(direct.database.db, new LocalFileStorage(filesDir));
    const build = (database: Database<CatalogueDB>) =>
      buildApp({
        db: database.db,
        reads: database,
        storage: new LocalFileStorage(filesDir),
        uploadsDir: path.join(filesDir, '.incoming'),
        verifier: createAdminVerifier({ secret: TEST_JWT_SECRET }),
      });
    app = await build(pooled);
    reference = await build(direct.database);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await reference?.close();
    if (pooled) {
      await sql`DROP SCHEMA IF EXISTS ${sql.id(pooled.schema)} CASCADE`.execute(pooled.db);
      await pooled.close();
    }
    await direct?.dispose();
    await bouncer?.close();
    if (filesDir) await rm(filesDir, { recursive: true, force: true });
  }, 60_000);

  const body = async (target: ServiceApp, url: string) => {
    const res = await target.inject({ url });
    expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
    // Ids, file names and times differ between the two schemas; titles, order and counts must not.
    const generated = ['_id', 'id', 'createdAt', 'updatedAt', 'category', 'url'];
    return JSON.parse(JSON.stringify(res.json(), (key, value) => (generated.includes(key) ? undefined : value)));
  };

  it('answers lists, accent-folded and misspelt search, suggestions and tags as a direct connection does', async () => {
    for (const url of [
      '/api/books?limit=6',
      '/api/books?search=tiffin',
      '/api/books?search=tifin',
      '/api/books?search=Zo%C3%AB',
      '/api/books/suggest?q=ti',
      '/api/tags?limit=10',
    ]) {
      expect(await body(app, url)).toEqual(await body(reference, url));
    }
    const some = await body(app, '/api/books?search=tiffin');
    expect(some.data.length).toBeGreaterThan(0);
  });

  it('writes through the pooler, concurrently, each in the schema it belongs to', async () => {
    const created = await Promise.all(
      ['Pooled Poems', 'Pooled Plays', 'Pooled Prose'].map((name) => app.inject({ method: 'POST', url: '/api/categories', payload: { name }, headers: auth })),
    );
    expect(created.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    const names = (await app.inject({ url: '/api/categories' })).json().data.map((c: { name: string }) => c.name);
    expect(names).toEqual(expect.arrayContaining(['Pooled Poems', 'Pooled Plays', 'Pooled Prose']));
    const elsewhere = (await reference.inject({ url: '/api/categories' })).json().data.map((c: { name: string }) => c.name);
    expect(elsewhere).not.toContain('Pooled Poems');
  });
});
