// Paid → ready latency on the distributed mode: orders are paid at a fixed
// rate through the gateway (test-mode payments), and each Persona's latency is
// the database's own paid_at → ready_at (one clock, the PostgreSQL server's).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { startDistributed } = require('@persona/launcher');

export async function paidToReady({ databaseUrl, amqpUrl, rate, seconds }) {
  const dbName = `persona_bench_${Date.now().toString(36)}`;
  const root = new pg.Client({ connectionString: databaseUrl });
  await root.connect();
  await root.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${dbName}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-latency-'));
  const shop = await startDistributed({
    databaseUrl: url.toString(),
    amqpUrl,
    dataDir,
    port: 0, // the gateway and every service on a free port
    logLevel: 'error',
    output: () => undefined,
    serviceEnv: {
      personalization: { PDF_WORKERS: String(Math.max(1, os.cpus().length - 1)) },
      // One client here stands for every buyer: the gateway's per-client limit (1,200 requests a
      // minute) refused half of the 20 orders a second until 2026-11-27, and the figure counted the rest.
      gateway: { RATE_LIMIT_MAX: '0' },
    },
  });
  const post = async (p, body) => {
    const res = await fetch(`${shop.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${p} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    return res.json();
  };
  // Every order that could not be placed or paid, by its reason: the figure is only of those paid.
  const refused = new Map();
  try {
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
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    let rows = [];
    const deadline = Date.now() + 120_000;
    for (;;) {
      rows = (
        await db.query(
          `SELECT extract(epoch FROM (p.ready_at - o.paid_at)) * 1000 AS ms FROM orders.orders o JOIN personalization.personas p ON p.persona_id = o.persona_id WHERE o.payment_status = 'paid' AND p.status = 'ready'`,
        )
      ).rows.map((r) => Number(r.ms));
      const paid = Number((await db.query(`SELECT count(*) AS n FROM orders.orders WHERE payment_status = 'paid'`)).rows[0].n);
      if (rows.length >= paid || Date.now() > deadline) {
        const stages = await stagesOf(db);
        await db.end();
        const sorted = rows.sort((a, b) => a - b);
        const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
        return { orders: total, paid, ready: rows.length, p50: at(50), p99: at(99), stages, refused: [...refused] };
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await shop.close();
    await root.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await root.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
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
    const sorted = rows.map((r) => Number(r[name])).sort((a, b) => a - b);
    const at = (q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor((q / 100) * sorted.length))] ?? NaN);
    return `${at(50)} / ${at(99)}`;
  };
  return { published: stage('published'), delivered: stage('delivered') };
}
