// Paid → ready latency on the distributed mode: orders are paid at a fixed
// rate through the gateway (test-mode payments), and each Persona's latency is
// the database's own paid_at → ready_at (one clock, the PostgreSQL server's).
import pg from 'pg';
import { rank, withDistributedShop } from './distributed-shop.mjs';

/** With `redisUrl`, on the cluster (see withDistributedShop); `measure(shop)` runs first on the same shop (the cluster bench's throughput). */
export function paidToReady({ databaseUrl, amqpUrl, redisUrl, rate, seconds, measure }) {
  return withDistributedShop({ databaseUrl, amqpUrl, redisUrl }, async (shop) => {
    const measured = measure ? await measure(shop) : undefined;
    const { post } = shop;
    // Every order that could not be placed or paid, by its reason: the figure is only of those paid.
    const refused = new Map();
    const books = (await (await fetch(`${shop.url}/api/books?limit=100`)).json()).data;
    const total = Math.round(rate * seconds);
    const started = Date.now();
    const inflight = [];
    for (let i = 0; i < total; i += 1) {
      const due = started + (i / rate) * 1000;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      inflight.push(
        (async () => {
          const book = books[i % books.length];
          const init = await post('/api/payments/initiate', {
            book: book._id,
            fullName: `Reader ${i}`,
            email: `r${i}@example.com`,
            phone: '+91 98765 43210',
            deliveryType: 'digital',
            address: null,
          });
          await post('/api/payments/test-mode/pay', { razorpayOrderId: init.data.razorpayOrderId, outcome: 'success' });
        })().catch((err) => refused.set(err.message, (refused.get(err.message) ?? 0) + 1)),
      );
    }
    await Promise.all(inflight);
    const db = new pg.Client({ connectionString: shop.databaseUrl });
    await db.connect();
    let rows;
    const deadline = Date.now() + 120_000;
    for (;;) {
      rows = (
        await db.query(
          `SELECT extract(epoch FROM (p.ready_at - o.paid_at)) * 1000 AS ms FROM orders.orders o JOIN personalization.personas p ON p.persona_id = o.persona_id WHERE o.payment_status = 'paid' AND p.status = 'ready'`,
        )
      ).rows.map((r) => Number(r.ms));
      const paid = Number((await db.query(`SELECT count(*) AS n FROM orders.orders WHERE payment_status = 'paid'`)).rows[0].n);
      // Every order placed is paid by the stand-in's webhook, which may still be on its way for the last few.
      const placed = total - [...refused.values()].reduce((a, b) => a + b, 0);
      if ((rows.length >= paid && paid >= placed) || Date.now() > deadline) {
        const stages = await stagesOf(db);
        await db.end();
        return { orders: total, paid, ready: rows.length, p50: rank(rows, 50), p99: rank(rows, 99), stages, refused: [...refused], measured };
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  });
}

/**
 * Where the wait goes, per Persona (p50 / p99 of each stage, ms): paid → order.paid published by the
 * orders outbox → made and saved by personalization (its inbox row's time: the start of the
 * transaction that records the Persona ready, once its files are written).
 */
async function stagesOf(db) {
  const { rows } = await db.query(`
    SELECT extract(epoch FROM (ob.published_at - o.paid_at)) * 1000 AS published,
           extract(epoch FROM (ib.handled_at - ob.published_at)) * 1000 AS delivered
    FROM orders.orders o
    JOIN orders.outbox ob ON ob.type = 'order.paid' AND ob.envelope->'payload'->>'orderId' = o.id::text
    JOIN personalization.inbox ib ON ib.message_id = ob.event_id
    JOIN personalization.personas p ON p.persona_id = o.persona_id
    WHERE p.status = 'ready'`);
  const stage = (name) => {
    const values = rows.map((r) => Number(r[name]));
    return `${Math.round(rank(values, 50) ?? NaN)} / ${Math.round(rank(values, 99) ?? NaN)}`;
  };
  return { published: stage('published'), delivered: stage('delivered') };
}
