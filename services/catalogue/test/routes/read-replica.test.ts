// The catalogue's public reads on a real streaming replica (issue 25): two instances share the
// primary and the replica; answers are those of the primary, and a write through either instance
// shows at once in both, even while the replica has stopped replaying.
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { openDatabase, sql, type Database } from '@persona/db';
import { createAdminVerifier, type ServiceApp } from '@persona/service-kit';
import { describeWithReadReplica, mintAdminToken, startReadReplica, TEST_DATABASE_URL, TEST_JWT_SECRET, type TestReadReplica } from '@persona/test-kit';
import { buildApp } from '../../src/app';
import type { CatalogueDB } from '../../src/db';
import { LocalFileStorage } from '../../src/modules/files/file-storage';
import { seedDemoCatalogue } from '../../src/modules/seed/seed-demo-catalogue';
import { openTestDatabase } from '../support';

const auth = { authorization: `Bearer ${mintAdminToken()}` };

describeWithReadReplica()('catalogue reads with a read replica', () => {
  let replica: TestReadReplica;
  let primaryOnly: { database: Database<CatalogueDB>; dispose(): Promise<void> };
  let filesDir: string;
  const instances: { database: Database<CatalogueDB>; app: ServiceApp }[] = [];
  let plain: ServiceApp;

  const instance = async (database: Database<CatalogueDB>, reads: boolean) =>
    buildApp({
      db: database.db,
      ...(reads ? { reads: database } : {}),
      storage: new LocalFileStorage(filesDir),
      uploadsDir: path.join(filesDir, '.incoming'),
      verifier: createAdminVerifier({ secret: TEST_JWT_SECRET }),
    });

  beforeAll(async () => {
    replica = await startReadReplica();
    primaryOnly = await openTestDatabase('postgres');
    filesDir = await mkdtemp(path.join(os.tmpdir(), 'catalogue-replica-'));
    expect(await seedDemoCatalogue(primaryOnly.database.db, new LocalFileStorage(filesDir))).toBeGreaterThan(0);
    for (let i = 0; i < 2; i++) {
      const database = openDatabase<CatalogueDB>({ kind: 'postgres', url: TEST_DATABASE_URL, readUrl: replica.url() }, primaryOnly.database.schema);
      instances.push({ database, app: await instance(database, true) });
    }
    plain = await instance(primaryOnly.database, false);
    await replica.catchUp();
  }, 180_000);

  afterAll(async () => {
    await replica?.resumeReplay().catch(() => undefined);
    for (const { app, database } of instances) {
      await app.close();
      await database.close();
    }
    await plain?.close();
    await primaryOnly?.dispose();
    await replica?.close();
    if (filesDir) await rm(filesDir, { recursive: true, force: true });
  }, 60_000);

  const get = (app: ServiceApp, url: string) => app.inject({ url });

  it('serves the public reads from the replica, with the answers the primary gives', async () => {
    const [a] = instances;
    const first = (await get(plain, '/api/books?limit=5')).json();
    expect(first.data.length).toBeGreaterThan(0);
    const id = first.data[0]._id;
    const urls = [
      '/api/books?limit=5',
      '/api/books?search=tiffin',
      `/api/books/${id}`,
      `/api/books/${id}/related`,
      '/api/tags',
      '/api/categories',
      '/api/books/suggest?q=ti',
      '/api/books/sitemap',
      '/api/books/sitemap/1',
    ];
    const before = a!.database.routed.replica;
    for (const url of urls) {
      const [routed, direct] = [await get(a!.app, url), await get(plain, url)];
      expect({ url, status: routed.statusCode }).toEqual({ url, status: direct.statusCode });
      expect(routed.json()).toEqual(direct.json());
    }
    // Every read not answered from the cache ran on the replica (it had replayed the catalogue).
    expect(a!.database.routed.replica).toBeGreaterThanOrEqual(before + urls.length);
    expect(a!.database.routed.primary).toBe(0);
    const { rows } = await a!.database.read((db) => sql<{ standby: boolean }>`SELECT pg_is_in_recovery() AS standby`.execute(db));
    expect(rows[0]!.standby).toBe(true);
  });

  it('reads a write at once through the instance that made it and through the other, while the replica stopped replaying', async () => {
    const [a, b] = instances;
    // Both have the categories cached for the current version.
    await get(a!.app, '/api/categories');
    await get(b!.app, '/api/categories');
    await replica.pauseReplay();
    try {
      const created = await a!.app.inject({ method: 'POST', url: '/api/categories', payload: { name: 'Replica Verse' }, headers: auth });
      expect(created.statusCode).toBe(201);
      const [primaryA, primaryB] = [a!.database.routed.primary, b!.database.routed.primary];
      for (const { app } of [a!, b!]) {
        expect((await get(app, '/api/categories')).json().data.map((c: { name: string }) => c.name)).toContain('Replica Verse');
      }
      // Neither could use the replica (it lacks the new version): both waited, then read the primary.
      expect(a!.database.routed.primary).toBe(primaryA + 1);
      expect(b!.database.routed.primary).toBe(primaryB + 1);
      // And the book list, loaded anew for the new version, is the primary's too.
      expect((await get(b!.app, '/api/books?limit=3')).json()).toEqual((await get(plain, '/api/books?limit=3')).json());
    } finally {
      await replica.resumeReplay();
    }
    await replica.catchUp();
    const replicaReads = b!.database.routed.replica;
    expect((await get(b!.app, '/api/books?limit=4')).json()).toEqual((await get(plain, '/api/books?limit=4')).json());
    expect(b!.database.routed.replica).toBe(replicaReads + 1);
  });
});
