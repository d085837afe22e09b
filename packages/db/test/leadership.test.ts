// One replica at a time, on the real PostgreSQL: of three replicas sharing a schema exactly one
// leads; when the leader's connection dies (a killed process), another takes the lead within its
// retry; a stopped leader hands the lead on; services (and test schemas) never contend; PGlite leads.
import { sql } from 'kysely';
import { describeWithPostgres, TEST_DATABASE_URL, uniqueName } from '@persona/test-kit';
import { leadership, openDatabase, openPglite, whileLeading, type Database, type Leadership } from '../src';

const until = async (what: () => boolean, timeoutMs = 5000) => {
  for (const end = Date.now() + timeoutMs; !what(); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() > end) throw new Error('timed out');
  }
};

describeWithPostgres()('leadership on PostgreSQL', () => {
  const schema = uniqueName('leadtest');
  const replicas: Array<{ database: Database<unknown>; lead: Leadership }> = [];
  const replica = (name = 'orders', db?: Database<unknown>) => {
    const database = db ?? openDatabase<unknown>({ kind: 'postgres', url: TEST_DATABASE_URL, poolSize: 3 }, schema);
    const lead = leadership(database, name, { retryMs: 100, checkMs: 50 });
    replicas.push({ database, lead });
    return { database, lead };
  };

  afterEach(async () => {
    for (const { lead, database } of replicas.splice(0)) {
      await lead.stop();
      await database.close().catch(() => undefined);
    }
  });

  it('lets exactly one of three replicas lead, and knows it as soon as start resolves', async () => {
    const three = [replica(), replica(), replica()];
    for (const { lead } of three) await lead.start();
    expect(three.filter(({ lead }) => lead.leading)).toHaveLength(1);
    // The one-at-a-time work runs there only.
    const ran: number[] = [];
    await Promise.all(three.map(({ lead }, i) => whileLeading(lead, async () => (ran.push(i), 1))()));
    expect(ran).toHaveLength(1);
  });

  it("hands the lead on when the leader's connection dies, and when it stops", async () => {
    const [a, b] = [replica(), replica()];
    await a.lead.start();
    await b.lead.start();
    expect([a.lead.leading, b.lead.leading]).toEqual([true, false]);
    // A killed process: PostgreSQL ends its session, and the session's lock with it.
    const killer = openDatabase<unknown>({ kind: 'postgres', url: TEST_DATABASE_URL }, schema);
    try {
      const { rows } = await sql<{ pid: number }>`
        SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = (hashtextextended(${`${schema}:orders`}, 0) & 4294967295)::oid`.execute(
        killer.db,
      );
      expect(rows).toHaveLength(1);
      await sql`SELECT pg_terminate_backend(${rows[0]!.pid})`.execute(killer.db);
    } finally {
      await killer.close();
    }
    await until(() => b.lead.leading && !a.lead.leading);
    // A replica that stops gives the lock back at once; the other (a, trying again) takes it.
    await b.lead.stop();
    await until(() => a.lead.leading);
  });

  it('stops without waiting for its next try, leader or not', async () => {
    // A retry a day away: a stop that waited for it (a sleep begun after the abort) would never end.
    const day = 24 * 3600_000;
    const database = openDatabase<unknown>({ kind: 'postgres', url: TEST_DATABASE_URL, poolSize: 3 }, schema);
    const [leader, follower] = [
      leadership(database, 'patient', { retryMs: day, checkMs: day }),
      leadership(database, 'patient', { retryMs: day, checkMs: day }),
    ];
    try {
      await leader.start();
      await follower.start();
      expect([leader.leading, follower.leading]).toEqual([true, false]);
      await Promise.all([leader.stop(), follower.stop()]);
      expect(leader.leading).toBe(false);
    } finally {
      await database.close();
    }
  }, 10_000);

  it('never makes two services, or two schemas, contend', async () => {
    const orders = replica('orders');
    const catalogue = replica('catalogue');
    const other = openDatabase<unknown>({ kind: 'postgres', url: TEST_DATABASE_URL, poolSize: 2 }, uniqueName('leadother'));
    const elsewhere = replica('orders', other);
    for (const { lead } of [orders, catalogue, elsewhere]) await lead.start();
    expect([orders.lead.leading, catalogue.lead.leading, elsewhere.lead.leading]).toEqual([true, true, true]);
  });
});

describe('leadership embedded', () => {
  it('leads at once on PGlite: there is one process', async () => {
    const shared = await openPglite();
    const database = openDatabase<unknown>({ kind: 'pglite', shared }, 'leadtest');
    try {
      const lead = leadership(database, 'orders');
      await lead.start();
      expect(lead.leading).toBe(true);
      expect(await whileLeading(lead, async () => 3)()).toBe(3);
      await lead.stop();
    } finally {
      await database.close();
      await shared.close();
    }
  });
});
