// Razorpay's webhooks under load, on the distributed mode (issue 23): `orders` checkouts are made
// through the gateway, then each one's signed `payment.captured` is delivered — and a tenth of them
// twice, as Razorpay redelivers — by `concurrency` senders at once, each sending its next as soon
// as its last is answered. Measured: every delivery's answer time, and how long after the last
// answer the inbox had made every payment; checked: every answer 2xx, every order paid once.
import { createHmac, randomUUID } from 'node:crypto';
import pg from 'pg';
import { rank, withDistributedShop } from './distributed-shop.mjs';

/** Test mode's documented webhook secret (services/orders/README.md). */
const WEBHOOK_SECRET = process.env.RAZORPAY_WEBHOOK_SECRET || 'persona_test_webhook_secret';

/** A delivery of `body` as Razorpay makes one: a new event id, signed with the webhook secret. */
function signed(body) {
  return { body, eventId: `evt_${randomUUID().replace(/-/g, '').slice(0, 14)}`, signature: createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex') };
}

export function webhookDeliveries({ databaseUrl, amqpUrl, orders = 500, concurrency = 50 }) {
  return withDistributedShop({ databaseUrl, amqpUrl }, async (shop) => {
    const books = (await (await fetch(`${shop.url}/api/books?limit=100`)).json()).data;
    const made = [];
    // The checkouts, ten at a time (not measured).
    for (let i = 0; i < orders; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, orders - i) }, (_, k) =>
          shop.post('/api/payments/initiate', {
            book: books[(i + k) % books.length]._id,
            fullName: `Reader ${i + k}`,
            email: `r${i + k}@example.com`,
            phone: '+91 98765 43210',
            deliveryType: 'digital',
            address: null,
          }),
        ),
      );
      made.push(...batch.map((answer) => answer.data));
    }
    const deliveries = made.map(({ razorpayOrderId, amount }) => {
      const paymentId = `pay_${randomUUID().replace(/-/g, '').slice(0, 14)}`;
      const body = JSON.stringify({
        entity: 'event',
        event: 'payment.captured',
        payload: { payment: { entity: { id: paymentId, order_id: razorpayOrderId, amount, status: 'captured' } } },
        created_at: Math.floor(Date.now() / 1000),
      });
      return signed(body);
    });
    // Razorpay redelivers what it thinks was not received: a tenth again, with the same event id.
    const queue = [...deliveries, ...deliveries.filter((_, i) => i % 10 === 0)];
    const send = async (delivery) => {
      const res = await fetch(`${shop.url}/api/payments/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': delivery.signature, 'x-razorpay-event-id': delivery.eventId },
        body: delivery.body,
      });
      await res.arrayBuffer();
      return res.status;
    };
    const sendAll = async (list, each) => {
      let next = 0;
      const sender = async () => {
        while (next < list.length) {
          const delivery = list[next++];
          const started = performance.now();
          each(await send(delivery), performance.now() - started);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, sender));
    };
    // A running shop's webhook route has answered before: 200 events it records and does not act
    // on (Razorpay sends those too) warm the route, its code and its database connections first.
    // The first burst a just-started shop sees read p99 560–790 ms on 2026-11-27, the next 120–200.
    await sendAll(
      Array.from({ length: 200 }, (_, i) =>
        signed(JSON.stringify({ entity: 'event', event: 'settlement.processed', payload: { settlement: { entity: { id: `setl_${i}` } } } })),
      ),
      () => undefined,
    );
    const times = [];
    const statuses = new Map();
    await sendAll(queue, (status, took) => {
      times.push(took);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
    const db = new pg.Client({ connectionString: shop.databaseUrl });
    await db.connect();
    try {
      // The answers came first; the payments are made from the inbox: wait for it to empty (at most a minute).
      const answered = performance.now();
      const pending = async () => Number((await db.query(`SELECT count(*) AS n FROM orders.webhook_events WHERE handled_at IS NULL`)).rows[0].n);
      while ((await pending()) > 0 && performance.now() - answered < 60_000) await new Promise((r) => setTimeout(r, 50));
      const inboxEmptyMs = performance.now() - answered;
      const paid = Number((await db.query(`SELECT count(*) AS n FROM orders.orders WHERE payment_status = 'paid'`)).rows[0].n);
      const transitions = Number((await db.query(`SELECT count(*) AS n FROM orders.outbox WHERE type = 'order.paid'`)).rows[0].n);
      return {
        orders,
        deliveries: queue.length,
        concurrency,
        p50: rank(times, 50),
        p99: rank(times, 99),
        statuses: [...statuses],
        paid,
        transitions,
        inboxEmptyMs,
      };
    } finally {
      await db.end();
    }
  });
}
