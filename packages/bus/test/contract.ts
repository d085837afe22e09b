// The contract every transport keeps, run against RabbitMQ (+ PostgreSQL for
// the outbox/inbox) and against the in-process transport (PGlite and PostgreSQL).
import type { EventEnvelope } from '@persona/contracts';
import { uniqueName } from '@persona/test-kit';
import { sql, type Kysely } from 'kysely';
import { createOutboxRelay, enqueueEvent, handleOnce, type EventBus, type EventContext, type Subscription } from '../src';
import { envelope, gate, sleep, waitFor } from './helpers';

export interface BusFixture {
  bus: EventBus;
  /** A service database (own schema) with the outbox migrations applied. */
  db: Kysely<unknown>;
}

interface Received {
  event: EventEnvelope;
  ctx: EventContext;
}

export function busContract(getFixture: () => BusFixture, queueNames: string[]) {
  const open: Subscription[] = [];
  const newQueue = (prefix: string) => {
    const name = uniqueName(prefix);
    queueNames.push(name);
    return name;
  };
  const bus = () => getFixture().bus;
  const db = () => getFixture().db;

  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  async function subscribe(spec: Parameters<EventBus['subscribe']>[0]): Promise<Subscription> {
    const sub = await bus().subscribe(spec);
    open.push(sub);
    return sub;
  }

  function recorder() {
    const seen: Received[] = [];
    return { seen, handler: async (event: EventEnvelope, ctx: EventContext) => void seen.push({ event, ctx }) };
  }

  it('routes by topic: a queue bound to book.* gets book.created but not order.paid', async () => {
    const books = recorder();
    const all = recorder();
    await subscribe({ queue: newQueue('t_books'), bindings: ['book.*'], handler: books.handler });
    await subscribe({ queue: newQueue('t_all'), bindings: ['#'], handler: all.handler });
    const paid = envelope('order.paid');
    const deep = envelope('book.created.v2');
    const created = envelope('book.created');
    await bus().publish(paid);
    await bus().publish(deep);
    await bus().publish(created);
    await waitFor(() => books.seen.length >= 1 && all.seen.length >= 3, 'deliveries');
    await sleep(150);
    expect(books.seen.map((r) => r.event.id)).toEqual([created.id]);
    expect(books.seen[0]!.event).toEqual(created);
    expect(books.seen[0]!.ctx).toEqual({ attempt: 1, redelivered: false });
    expect(all.seen.map((r) => r.event.id).sort()).toEqual([paid.id, deep.id, created.id].sort());
  });

  it('hands a message back to the queue when the subscription closes before acking', async () => {
    const queue = newQueue('t_close');
    const held = gate();
    const first: string[] = [];
    const sub = await bus().subscribe({
      queue,
      bindings: ['book.updated'],
      handler: async (event) => {
        first.push(event.id);
        await held.promise; // never acks while the subscription is open
      },
    });
    const event = envelope('book.updated');
    await bus().publish(event);
    await waitFor(() => first.length === 1, 'first delivery');
    await sub.close();
    held.open();

    const second = recorder();
    await subscribe({ queue, bindings: ['book.updated'], handler: second.handler });
    await waitFor(() => second.seen.length === 1, 'redelivery');
    await sleep(150);
    expect(second.seen).toHaveLength(1);
    expect(second.seen[0]!.event.id).toBe(event.id);
    expect(second.seen[0]!.ctx).toEqual({ attempt: 1, redelivered: true });
  });

  describe('graceful shutdown: a message being handled when the subscription closes is completed or redelivered, never lost', () => {
    it('lets a running handler finish within the grace and acknowledges it, taking nothing new meanwhile', async () => {
      const queue = newQueue('t_drain');
      const held = gate();
      const started: string[] = [];
      const finished: string[] = [];
      const sub = await bus().subscribe({
        queue,
        bindings: ['order.paid'],
        handler: async (event) => {
          started.push(event.id);
          await held.promise;
          // The effect commits with the inbox row, as a real consumer's does.
          await handleOnce(db(), queue, event, async (trx) => {
            await sql`INSERT INTO effects (consumer, value) VALUES (${queue}, ${event.id})`.execute(trx);
          });
          finished.push(event.id);
        },
      });
      const inFlight = envelope('order.paid');
      await bus().publish(inFlight);
      await waitFor(() => started.length === 1, 'the first delivery');

      let closed = false;
      const closing = sub.close({ graceMs: 10_000 }).then(() => (closed = true));
      await sleep(150);
      // Shutdown has begun: a message published now is not taken by the closing subscription.
      const later = envelope('order.paid');
      await bus().publish(later);
      await sleep(250);
      expect(closed).toBe(false);
      expect(started).toEqual([inFlight.id]);

      held.open();
      await closing;
      expect(finished).toEqual([inFlight.id]);

      // The next consumer (another instance, or this one restarted) gets only what was not acknowledged.
      const next = recorder();
      await subscribe({ queue, bindings: ['order.paid'], handler: next.handler });
      await waitFor(() => next.seen.length === 1, 'the message published during shutdown');
      await sleep(300);
      expect(next.seen.map((r) => r.event.id)).toEqual([later.id]);
      expect(next.seen[0]!.ctx.redelivered).toBe(false);
      const { rows } = await sql<{ value: string }>`SELECT value FROM effects WHERE consumer = ${queue}`.execute(db());
      expect(rows.map((r) => r.value)).toEqual([inFlight.id]);
    });

    it('hands a handler still running at the deadline back to the queue, and its effect happens exactly once', async () => {
      const queue = newQueue('t_deadline');
      const held = gate();
      const seen: string[] = [];
      const sub = await bus().subscribe({
        queue,
        bindings: ['order.paid'],
        handler: async (event) => {
          seen.push(event.id);
          await held.promise; // a PDF that takes longer than the shutdown allows
          await handleOnce(db(), queue, event, async (trx) => {
            await sql`INSERT INTO effects (consumer, value) VALUES (${queue}, ${event.id})`.execute(trx);
          });
        },
      });
      const event = envelope('order.paid');
      await bus().publish(event);
      await waitFor(() => seen.length === 1, 'the first delivery');

      const started = Date.now();
      await sub.close({ graceMs: 300 });
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(250);
      expect(took).toBeLessThan(15_000); // the handler never ends: a close that waited for it would not

      const next = recorder();
      await subscribe({
        queue,
        bindings: ['order.paid'],
        handler: async (e, ctx) => {
          await next.handler(e, ctx);
          await handleOnce(db(), queue, e, async (trx) => {
            await sql`INSERT INTO effects (consumer, value) VALUES (${queue}, ${e.id})`.execute(trx);
          });
        },
      });
      await waitFor(() => next.seen.length === 1, 'the redelivery');
      expect(next.seen[0]!.event.id).toBe(event.id);
      expect(next.seen[0]!.ctx).toEqual({ attempt: 1, redelivered: true });

      // The old handler finishing late has no second effect.
      held.open();
      await sleep(300);
      const { rows } = await sql<{ value: string }>`SELECT value FROM effects WHERE consumer = ${queue}`.execute(db());
      expect(rows.map((r) => r.value)).toEqual([event.id]);
      expect(next.seen).toHaveLength(1);
    });
  });

  it('dead-letters a message that fails maxAttempts times, with its attempt count and last error', async () => {
    const queue = newQueue('t_dlq');
    const attempts: number[] = [];
    await subscribe({
      queue,
      bindings: ['book.deleted'],
      maxAttempts: 3,
      retryDelaysMs: [50, 100],
      handler: async (_event, ctx) => {
        attempts.push(ctx.attempt);
        throw new Error(`boom on attempt ${ctx.attempt}`);
      },
    });
    const event = envelope('book.deleted', { bookId: 'b1', title: 'Poison' });
    await bus().publish(event);
    await waitFor(async () => (await bus().deadLetters(queue)).length === 1, 'the dead letter');
    expect(attempts).toEqual([1, 2, 3]);
    const [dead] = await bus().deadLetters(queue);
    expect(dead).toEqual({ event, attempts: 3, lastError: 'boom on attempt 3', queue });
    // Inspecting does not consume.
    expect(await bus().deadLetters(queue)).toHaveLength(1);
    await sleep(200);
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('retries a message that fails once and then handles it exactly once', async () => {
    const queue = newQueue('t_retry');
    const tries: EventContext[] = [];
    let handled = 0;
    await subscribe({
      queue,
      bindings: ['category.updated'],
      retryDelaysMs: [50],
      handler: async (_event, ctx) => {
        tries.push(ctx);
        if (ctx.attempt === 1) throw new Error('transient');
        handled++;
      },
    });
    await bus().publish(envelope('category.updated'));
    await waitFor(() => handled === 1, 'the retry');
    await sleep(250);
    expect(handled).toBe(1);
    expect(tries.map((c) => c.attempt)).toEqual([1, 2]);
    expect(await bus().deadLetters(queue)).toEqual([]);
  });

  it('publishes exactly the committed outbox events, once each, and nothing from a rolled-back transaction', async () => {
    const queue = newQueue('t_outbox');
    const got = recorder();
    await subscribe({ queue, bindings: ['category.*'], handler: got.handler });
    const committedA = envelope('category.created', { n: 1 });
    const rolledBack = envelope('category.created', { n: 2 });
    const committedB = envelope('category.deleted', { n: 3 });
    await db()
      .transaction()
      .execute((trx) => enqueueEvent(trx, committedA));
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await enqueueEvent(trx, rolledBack);
          throw new Error('business rule failed');
        }),
    ).rejects.toThrow('business rule failed');
    await db()
      .transaction()
      .execute((trx) => enqueueEvent(trx, committedB));

    const relay = createOutboxRelay({ db: db(), bus: bus(), batchSize: 1 });
    await relay.drain();
    await relay.drain(); // nothing left: no second publish
    await waitFor(() => got.seen.length >= 2, 'outbox deliveries');
    await sleep(200);
    expect(got.seen.map((r) => r.event)).toEqual([committedA, committedB]);

    const { rows } = await sql<{ event_id: string; published_at: Date | null }>`
      SELECT event_id, published_at FROM outbox WHERE event_id IN (${committedA.id}, ${rolledBack.id}, ${committedB.id}) ORDER BY id`.execute(db());
    expect(rows.map((r) => r.event_id)).toEqual([committedA.id, committedB.id]);
    expect(rows.every((r) => r.published_at instanceof Date)).toBe(true);
  });

  it('relays in the background: nudge() publishes right after commit', async () => {
    const queue = newQueue('t_nudge');
    const got = recorder();
    await subscribe({ queue, bindings: ['book.created'], handler: got.handler });
    const relay = createOutboxRelay({ db: db(), bus: bus(), pollIntervalMs: 60_000 });
    relay.start();
    try {
      await sleep(50); // the first idle round has run; only a nudge wakes it now
      const event = envelope('book.created', { n: 'nudged' });
      await db()
        .transaction()
        .execute((trx) => enqueueEvent(trx, event));
      const started = Date.now();
      relay.nudge();
      // Long before the 60 s poll would have published it.
      await waitFor(() => got.seen.length === 1, 'nudged delivery', 20_000);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(got.seen[0]!.event).toEqual(event);
    } finally {
      await relay.stop();
    }
  });

  it('inbox: a duplicate delivery has no second effect; a failed effect is not recorded', async () => {
    const consumer = uniqueName('inbox_consumer');
    const event = envelope('book.created');
    const effect = (value: string) => async (trx: Kysely<unknown>) => {
      await sql`INSERT INTO effects (consumer, value) VALUES (${consumer}, ${value})`.execute(trx);
    };
    const count = async () => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM effects WHERE consumer = ${consumer}`.execute(db())).rows[0]!.n);

    await expect(
      handleOnce(db(), consumer, event, async (trx) => {
        await effect('doomed')(trx);
        throw new Error('effect failed');
      }),
    ).rejects.toThrow('effect failed');
    expect(await count()).toBe(0);

    expect(await handleOnce(db(), consumer, event, effect('first'))).toBe('handled');
    expect(await handleOnce(db(), consumer, event, effect('second'))).toBe('duplicate');
    expect(await count()).toBe(1);
    // Another consumer of the same event is independent.
    expect(await handleOnce(db(), `${consumer}_other`, event, async () => undefined)).toBe('handled');
  });

  it('inbox + bus: the same event published twice has one effect', async () => {
    const queue = newQueue('t_inbox');
    const results: string[] = [];
    await subscribe({
      queue,
      bindings: ['category.deleted'],
      handler: async (event) => {
        results.push(
          await handleOnce(db(), queue, event, async (trx) => {
            await sql`INSERT INTO effects (consumer, value) VALUES (${queue}, ${event.id})`.execute(trx);
          }),
        );
      },
    });
    const event = envelope('category.deleted');
    await bus().publish(event);
    await bus().publish(event);
    await waitFor(() => results.length === 2, 'both deliveries');
    expect(results.sort()).toEqual(['duplicate', 'handled']);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM effects WHERE consumer = ${queue}`.execute(db());
    expect(rows[0]!.n).toBe(1);
  });

  it('reports the depth of a queue: messages ready, and dead letters', async () => {
    const queue = newQueue('t_depth');
    // Declare and bind, then stop consuming (as during a deploy).
    await (await bus().subscribe({ queue, bindings: ['book.deleted'], handler: async () => undefined })).close();
    expect(await bus().queueDepth(queue)).toEqual({ ready: 0, delayed: 0, dead: 0 });
    for (let i = 0; i < 3; i++) await bus().publish(envelope('book.deleted'));
    await waitFor(async () => (await bus().queueDepth(queue)).ready === 3, 'three ready messages');

    await subscribe({
      queue,
      bindings: ['book.deleted'],
      maxAttempts: 1,
      handler: async () => {
        throw new Error('poison');
      },
    });
    await waitFor(async () => (await bus().queueDepth(queue)).dead === 3, 'three dead letters');
    expect(await bus().queueDepth(queue)).toEqual({ ready: 0, delayed: 0, dead: 3 });
  });

  it('is ready while connected', () => {
    expect(bus().isReady()).toBe(true);
  });
}

/** The service schema every contract run uses: outbox/inbox plus a table for effects. */
export async function createEffectsTable(db: Kysely<unknown>) {
  await sql`CREATE TABLE IF NOT EXISTS effects (id bigserial PRIMARY KEY, consumer text NOT NULL, value text NOT NULL)`.execute(db);
}
