// The mail relay against a real database: relays in two processes share the queue without sending
// an e-mail twice; an e-mail another relay holds waits for its claim to expire; a relay whose lease
// ran out mid-batch leaves the rest to the relay that took them over; a failed send is recorded and
// tried again later.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import { migrateToLatest, sql, type Database } from '@persona/db';
import { createLogger } from '@persona/service-kit';
import { describeWithPostgres } from '@persona/test-kit';
import { openTestStack } from '@persona/test-stack';
import type { OrdersDB } from '../../../src/db';
import { claimUnsent, holdClaim, markSent, queueEmail } from '../../../src/modules/mail/emails.repository';
import { createMailRelay, retryDelayMs } from '../../../src/modules/mail/mail-relay';
import { personaReadyEmail } from '../../../src/modules/mail/order-emails';
import { insertOrder } from '../../../src/modules/order-records/orders.repository';
import { ordersMigrations } from '../../../src/service';

const logger = createLogger('mail-test', 'silent');

async function queueOrders(database: Database<OrdersDB>, count: number): Promise<string[]> {
  const personaIds: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const personaId = `PRS-MAIL-${String(i).padStart(4, '0')}`;
    const order = await insertOrder(database.db, {
      persona_id: personaId,
      book_id: randomUUID(),
      book_title: 'Gitanjali',
      book_author: 'Rabindranath Tagore',
      full_name: `Reader ${i}`,
      email: `reader${i}@example.com`,
      phone: '9876543210',
      delivery_type: 'digital',
      address: null,
      base_paise: 34950,
      printing_paise: 0,
      delivery_paise: 0,
      amount_paise: 34950,
      idempotency_key: null,
      request_hash: null,
    });
    const shop = { publicUrl: 'https://shop.example', supportEmail: 'help@shop.example' };
    await queueEmail(database.db, personaReadyEmail(order, shop, null));
    await queueEmail(database.db, personaReadyEmail(order, shop, null)); // once per order and kind
    personaIds.push(personaId);
  }
  return personaIds;
}

function relayCases(open: () => Promise<{ database: Database<OrdersDB>; close(): Promise<void> }>) {
  let env: Awaited<ReturnType<typeof open>>;
  let dir: string;
  beforeEach(async () => {
    env = await open();
    await migrateToLatest(env.database, ordersMigrations);
    dir = await mkdtemp(path.join(os.tmpdir(), 'mail-relay-'));
  });
  afterEach(async () => {
    await env.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('two relays draining at once send every e-mail exactly once', async () => {
    const personaIds = await queueOrders(env.database, 45);
    const options = { dir, from: 'Persona Books <shop@example.com>' };
    const a = createMailRelay(env.database.db, options, logger);
    const b = createMailRelay(env.database.db, options, logger);
    try {
      // Each round takes at most 20; three rounds each, at the same time, cover 45.
      for (let round = 0; round < 3; round += 1) await Promise.all([a.drain(), b.drain()]);
      const files = await readdir(dir);
      expect(files).toHaveLength(45);
      const seen = await Promise.all(files.map(async (f) => /Persona ID: +(PRS-MAIL-\d+)/.exec(await readFile(path.join(dir, f), 'utf8'))?.[1]));
      expect(new Set(seen)).toEqual(new Set(personaIds));
      const { rows } = await sql<{ sent: number; attempts: number }>`
        SELECT count(*) FILTER (WHERE sent_at IS NOT NULL)::int AS sent, sum(attempts)::int AS attempts FROM emails`.execute(env.database.db);
      expect(rows[0]).toEqual({ sent: 45, attempts: 45 });
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('leaves an e-mail another relay holds until its claim expires', async () => {
    await queueOrders(env.database, 1);
    const [held] = (await claimUnsent(env.database.db, 10, 60_000)).emails; // a relay that then died
    expect(held).toBeDefined();
    const relay = createMailRelay(env.database.db, { dir, from: 'shop@example.com' }, logger);
    try {
      expect(await relay.drain()).toBe(0);
      await sql`UPDATE emails SET claimed_until = now() - interval '1 second'`.execute(env.database.db);
      expect(await relay.drain()).toBe(1);
      expect(await readdir(dir)).toEqual([`${held!.id}.eml`]);
    } finally {
      await relay.stop();
    }
  });

  it('a relay whose lease ran out mid-batch sends nothing more of what another relay took over, nor records over it', async () => {
    await queueOrders(env.database, 3);
    const sends: Array<{ relay: string; to: string }> = [];
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let sendingFirst!: () => void;
    const firstStarted = new Promise<void>((resolve) => (sendingFirst = resolve));
    // Relay A's SMTP server stalls on its first e-mail; B's answers at once.
    const transport = (relay: string, stall: boolean) =>
      ({
        sendMail: async (message: { to: string }) => {
          sends.push({ relay, to: message.to });
          if (stall && sends.filter((s) => s.relay === relay).length === 1) {
            sendingFirst();
            await firstHeld;
          }
          return { messageId: 'x' };
        },
        close: () => undefined,
      }) as unknown as Transporter;
    const a = createMailRelay(env.database.db, { dir, from: 'shop@example.com', transport: transport('a', true), leaseMs: 60_000 }, logger);
    const b = createMailRelay(env.database.db, { dir, from: 'shop@example.com', transport: transport('b', false), leaseMs: 60_000 }, logger);
    try {
      const draining = a.drain();
      await firstStarted;
      // A's leases on the e-mails it has not reached run out while its first send hangs.
      const [first] = sends;
      await sql`UPDATE emails SET claimed_until = now() - interval '1 second' WHERE to_address <> ${first!.to}`.execute(env.database.db);
      expect(await b.drain()).toBe(2);
      releaseFirst();
      expect(await draining).toBe(1);
      // Each e-mail went once: A's first, and B the two A no longer held.
      expect(sends.map((s) => s.to).sort()).toEqual(['reader0@example.com', 'reader1@example.com', 'reader2@example.com']);
      expect(sends.filter((s) => s.relay === 'b')).toHaveLength(2);
      const { rows } = await sql<{ to_address: string; attempts: number; sent: boolean; token: string | null }>`
        SELECT to_address, attempts, sent_at IS NOT NULL AS sent, claim_token AS token FROM emails ORDER BY to_address`.execute(env.database.db);
      expect(rows).toEqual(rows.map((r) => ({ to_address: r.to_address, attempts: 1, sent: true, token: null })));
    } finally {
      releaseFirst();
      await a.stop();
      await b.stop();
    }
  });

  it('keeps the lease of an e-mail whose send outlives it: an SMTP server slower than the lease sends nothing twice', async () => {
    await queueOrders(env.database, 1);
    const sends: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const sending = new Promise<void>((resolve) => (started = resolve));
    const slow = {
      sendMail: async (message: { to: string }) => {
        sends.push(`a:${message.to}`);
        started();
        await held;
        return { messageId: 'x' };
      },
      close: () => undefined,
    } as unknown as Transporter;
    const quick = {
      sendMail: async (message: { to: string }) => (sends.push(`b:${message.to}`), { messageId: 'y' }),
      close: () => undefined,
    } as unknown as Transporter;
    // A lease of 600 ms; A's one send takes three of them.
    const a = createMailRelay(env.database.db, { dir, from: 'shop@example.com', transport: slow, leaseMs: 600 }, logger);
    const b = createMailRelay(env.database.db, { dir, from: 'shop@example.com', transport: quick, leaseMs: 600 }, logger);
    try {
      const draining = a.drain();
      await sending;
      for (let i = 0; i < 6; i += 1) {
        await new Promise((r) => setTimeout(r, 300));
        expect(await b.drain()).toBe(0);
      }
      release();
      expect(await draining).toBe(1);
      expect(sends).toEqual(['a:reader0@example.com']);
      expect(await b.drain()).toBe(0);
      const { rows } = await sql<{ sent: boolean; attempts: number }>`SELECT sent_at IS NOT NULL AS sent, attempts FROM emails`.execute(env.database.db);
      expect(rows).toEqual([{ sent: true, attempts: 1 }]);
    } finally {
      release();
      await a.stop();
      await b.stop();
    }
  });

  it('records a send only under the claim that made it: a stale claim records nothing', async () => {
    await queueOrders(env.database, 1);
    const stale = await claimUnsent(env.database.db, 10, 60_000);
    await sql`UPDATE emails SET claimed_until = now() - interval '1 second'`.execute(env.database.db);
    const fresh = await claimUnsent(env.database.db, 10, 60_000);
    const id = fresh.emails[0]!.id;
    expect(await holdClaim(env.database.db, id, stale.token, 60_000)).toBe(false);
    await markSent(env.database.db, id, stale.token);
    expect((await sql<{ sent: boolean }>`SELECT sent_at IS NOT NULL AS sent FROM emails`.execute(env.database.db)).rows[0]!.sent).toBe(false);
    expect(await holdClaim(env.database.db, id, fresh.token, 60_000)).toBe(true);
    await markSent(env.database.db, id, fresh.token);
    expect((await sql<{ sent: boolean }>`SELECT sent_at IS NOT NULL AS sent FROM emails`.execute(env.database.db)).rows[0]!.sent).toBe(true);
  });

  it('records a failed send and tries it again only after its wait', async () => {
    await queueOrders(env.database, 1);
    // The mail folder is a file: writing the .eml fails.
    const blocked = path.join(dir, 'blocked');
    await writeFile(blocked, '');
    const relay = createMailRelay(env.database.db, { dir: blocked, from: 'shop@example.com' }, logger);
    try {
      expect(await relay.drain()).toBe(0);
      const { rows } = await sql<{ attempts: number; last_error: string; wait: number }>`
        SELECT attempts, last_error, extract(epoch FROM claimed_until - now())::float AS wait FROM emails`.execute(env.database.db);
      expect(rows[0]!.attempts).toBe(1);
      expect(rows[0]!.last_error).toMatch(/EEXIST|ENOTDIR/);
      expect(rows[0]!.wait).toBeGreaterThan(3);
      expect(await relay.drain()).toBe(0); // still waiting: not tried again
      expect((await sql<{ attempts: number }>`SELECT attempts FROM emails`.execute(env.database.db)).rows[0]!.attempts).toBe(1);
    } finally {
      await relay.stop();
    }
  });
}

describe('retryDelayMs', () => {
  it('doubles from 5 s and stops at an hour', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([5000, 10_000, 20_000, 40_000]);
    expect(retryDelayMs(20)).toBe(3_600_000);
  });
});

describe('the mail relay on PGlite', () => {
  relayCases(() => openTestStack<OrdersDB>('pglite', 'orders'));
});

describeWithPostgres()('the mail relay on PostgreSQL', () => {
  relayCases(() => openTestStack<OrdersDB>('postgres', 'orders'));
});
