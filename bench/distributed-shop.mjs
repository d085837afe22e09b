// The distributed mode on a database of its own, for the benches that measure it (`latency`,
// `webhooks`): every service a process, on PostgreSQL and RabbitMQ, one client standing for every
// buyer (the gateway's per-client limit off), the database dropped afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const require = createRequire(import.meta.url);
const { startCluster, startDistributed } = require('@persona/launcher');

/**
 * Runs `use({ url, databaseUrl, post })` against a fresh distributed shop, then takes it all down.
 * With `redisUrl`, the cluster instead (`startCluster`: two processes of every service and two
 * gateways behind nginx, Redis, an s3rver store), its `url` nginx's.
 */
export async function withDistributedShop({ databaseUrl, amqpUrl, redisUrl }, use) {
  const dbName = `persona_bench_${Date.now().toString(36)}`;
  const root = new pg.Client({ connectionString: databaseUrl });
  await root.connect();
  await root.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${dbName}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-distributed-'));
  try {
    const start = redisUrl ? (options) => startCluster({ ...options, redisUrl }) : startDistributed;
    const shop = await start({
      databaseUrl: url.toString(),
      amqpUrl,
      dataDir,
      port: 0, // the gateway and every service on a free port
      logLevel: 'error',
      output: () => undefined,
      serviceEnv: {
        // The cluster's two personalisation processes share the cores the one would have.
        personalization: { PDF_WORKERS: String(Math.max(1, Math.floor((os.cpus().length - 1) / (redisUrl ? 2 : 1)))) },
        // One client here stands for every buyer: the gateway's per-client limit (1,200 requests a
        // minute) refused half of the latency bench's 20 orders a second until 2026-11-27, and the
        // figure counted the rest.
        gateway: { RATE_LIMIT_MAX: '0' },
      },
    });
    const post = async (p, body) => {
      const res = await fetch(`${shop.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${p} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      return res.json();
    };
    try {
      return await use({ url: shop.url, databaseUrl: url.toString(), post });
    } finally {
      await shop.close();
    }
  } finally {
    await root.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await root.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The p-th percentile (nearest rank) of `values`. */
export function rank(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
