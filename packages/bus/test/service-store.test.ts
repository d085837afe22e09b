// A service's store: its migrations after the outbox's, the relay running, and at shutdown what
// the outbox still holds published (or, with the bus down, left for the next start).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, openPglite, type Database } from '@persona/db';
import { sql } from 'kysely';
import { createInProcessBus, enqueueEvent, openServiceStore, serviceMigrations, type EventBus } from '../src';
import { envelope, waitFor } from './helpers';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('openServiceStore', () => {
  let shared: Awaited<ReturnType<typeof openPglite>>;
  let database: Database<unknown>;
  let bus: EventBus;
  let folder: string;
  beforeAll(async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'service-migrations-'));
    writeFileSync(
      path.join(folder, '20260101000000_things.js'),
      "exports.up = (db) => db.schema.createTable('things').addColumn('id', 'text', (c) => c.primaryKey()).execute();\n",
    );
    shared = await openPglite();
    database = openDatabase({ kind: 'pglite', shared }, 'svc');
    bus = createInProcessBus({ database: openDatabase({ kind: 'pglite', shared }, 'bus'), pollIntervalMs: 50 });
    await waitFor(() => bus.isReady(), 'bus migrations');
  });
  afterAll(async () => {
    await bus.close();
    await shared.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('migrates the outbox and the service’s own tables, publishes, and flushes at shutdown', async () => {
    const infos: string[] = [];
    const logger = { ...silent, info: (_o: object, msg?: string) => void infos.push(msg ?? '') };
    const migrations = serviceMigrations(folder);
    expect(Object.keys(await migrations.getMigrations()).at(-1)).toBe('20260101000000_things');

    const store = await openServiceStore({ name: 'svc', database, migrations, bus, logger });
    expect(infos).toContain('svc migrations applied');
    await sql`INSERT INTO things (id) VALUES ('a')`.execute(database.db);

    const seen: string[] = [];
    const subscription = await bus.subscribe({ queue: 'svc.books', bindings: ['book.*'], handler: async (e) => void seen.push(e.id) });
    const early = envelope('book.deleted', { bookId: 'b1', title: 'x' });
    await enqueueEvent(database.db, early);
    store.relay.nudge();
    await waitFor(() => seen.includes(early.id), 'the relay to publish');

    // Enqueued just before shutdown: flush publishes it.
    const late = envelope('book.deleted', { bookId: 'b2', title: 'y' });
    await enqueueEvent(database.db, late);
    await store.flush();
    await waitFor(() => seen.includes(late.id), 'the flushed event');
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL`.execute(database.db);
    expect(rows[0]!.n).toBe(0);
    await subscription.close();

    // A second start applies nothing new.
    infos.length = 0;
    const again = await openServiceStore({ name: 'svc', database, migrations, bus, logger });
    expect(infos).not.toContain('svc migrations applied');
    await again.flush();
  });

  it('with MIGRATIONS=check, refuses a schema older than it needs, naming what it lacks, and starts on a current one', async () => {
    const checked = openDatabase({ kind: 'pglite', shared }, 'checked');
    const migrations = serviceMigrations(folder);
    await expect(openServiceStore({ name: 'svc', database: checked, migrations, bus, logger: silent, migrationMode: 'check' })).rejects.toThrow(
      /^the svc schema "checked" lacks 4 migration\(s\) this version needs \(.*20260101000000_things\): run `npm run migrate` \(the release step\) first, or start with MIGRATIONS=apply$/,
    );
    // Nothing was migrated by the refusal.
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'checked'`.execute(checked.db);
    expect(rows[0]!.n).toBe(0);
    // The release step, then the check passes.
    await (await openServiceStore({ name: 'svc', database: checked, migrations, bus, logger: silent })).flush();
    await (await openServiceStore({ name: 'svc', database: checked, migrations, bus, logger: silent, migrationMode: 'check' })).flush();
  });
});
