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
    serviceEnv: { personalization: { PDF_WORKERS: String(Math.max(1, os.cpus().length - 1)) } },
  });
  const post = async (p, body) =>
    (await fetch(`${shop.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
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
        })().catch(() => undefined),
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
        await db.end();
        const sorted = rows.sort((a, b) => a - b);
        const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
        return { orders: total, paid, ready: rows.length, p50: at(50), p99: at(99) };
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
