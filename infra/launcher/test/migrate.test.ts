// `npm run migrate` on the real PostgreSQL: a fresh database gets every service's schema, a second
// run (or a second machine at once) applies nothing, and a service started with MIGRATIONS=check
// starts on it, yet refuses, naming what is missing and what to run, on a database never migrated.
import type { EventBus } from '@persona/bus';
import os from 'node:os';
import { openDatabase, pendingMigrations, sql } from '@persona/db';
import { ordersMigrations } from '@persona/orders';
import { startCatalogueService, CATALOGUE_SCHEMA, type CatalogueDB } from '@persona/catalogue';
import { createLogger } from '@persona/service-kit';
import { describeWithPostgres, TEST_DATABASE_URL, uniqueName } from '@persona/test-kit';
import { migrateAll, migrateTarget, SERVICE_SCHEMAS } from '../src/migrate';

describe('npm run migrate: its options', () => {
  it('takes --database-url, else DATABASE_URL, and refuses anything else clearly', () => {
    expect(migrateTarget(['--database-url', 'postgres://u@h/db'], {})).toBe('postgres://u@h/db');
    expect(migrateTarget([], { DATABASE_URL: 'postgresql://u@h/db' })).toBe('postgresql://u@h/db');
    expect(() => migrateTarget([], {})).toThrow('set DATABASE_URL (or --database-url): the PostgreSQL whose schemas to migrate');
    expect(() => migrateTarget(['--database-url', 'mysql://x'], {})).toThrow('the database must be a postgres:// address, not "mysql://x"');
    expect(() => migrateTarget(['--force'], { DATABASE_URL: 'postgres://u@h/db' })).toThrow('unknown option "--force"');
  });
});

describeWithPostgres()('npm run migrate on PostgreSQL', () => {
  const name = uniqueName('migrate');
  let url: string;
  const admin = openDatabase<unknown>({ kind: 'postgres', url: TEST_DATABASE_URL }, 'public');

  beforeAll(async () => {
    await sql`CREATE DATABASE ${sql.id(name)}`.execute(admin.db);
    const target = new URL(TEST_DATABASE_URL);
    target.pathname = `/${name}`;
    url = target.toString();
  });
  afterAll(async () => {
    await sql`DROP DATABASE IF EXISTS ${sql.id(name)} WITH (FORCE)`.execute(admin.db);
    await admin.close();
  });

  it('refuses to start a service on a schema never migrated, with MIGRATIONS=check', async () => {
    const database = openDatabase<CatalogueDB>({ kind: 'postgres', url }, CATALOGUE_SCHEMA);
    const logger = createLogger('migrate-test', 'silent');
    // Never reached: the schema is checked before the service touches its bus.
    const bus = {} as EventBus;
    try {
      await expect(
        startCatalogueService({ database, bus, logger, jwtSecret: 'x'.repeat(32), filesDir: os.tmpdir(), seedDemo: false, migrationMode: 'check' }),
      ).rejects.toThrow(
        /the catalogue schema "catalogue" lacks \d+ migration\(s\) this version needs \(.*\): run `npm run migrate` \(the release step\) first/,
      );
    } finally {
      await database.close();
    }
  });

  it('migrates every schema once; a second run, even two at once, applies nothing', async () => {
    const first = await migrateAll(url);
    expect(Object.keys(first)).toEqual(SERVICE_SCHEMAS.map((s) => s.service));
    for (const names of Object.values(first)) expect(names.length).toBeGreaterThan(0);
    const again = await Promise.all([migrateAll(url), migrateAll(url)]);
    expect(again).toEqual([0, 1].map(() => Object.fromEntries(SERVICE_SCHEMAS.map((s) => [s.service, []]))));
    const orders = openDatabase<unknown>({ kind: 'postgres', url }, 'orders');
    try {
      expect(await pendingMigrations(orders, ordersMigrations)).toEqual([]);
    } finally {
      await orders.close();
    }
  });
});
