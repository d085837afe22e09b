// The `scale` group: the shop with a real catalogue (100,000 books, 1,000,000 orders; the data
// set of `npm run seed:scale`) beside the 14-book demo, both in the distributed mode on
// PostgreSQL, measured in one run: first book card in Chromium, API bytes per page view,
// search and suggestion latency over distinct uncached words, admin list latency over pages,
// deep pages, filters and searches, the 1,000,000-order CSV export (time and the orders
// service's peak RSS), Lighthouse at both sizes, and the embedded shop (PGlite) at its default
// scale size. The seeded database is kept between runs (seeding takes minutes); BENCH_SCALE_FRESH=1
// makes it again.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const require = createRequire(import.meta.url);
const { startDistributed } = require('@persona/launcher');

export const ADMIN = { email: 'bench@persona-books.in', password: 'bench password 2026', name: 'Bench' };

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const median = (values) => percentile(values, 50);

function databaseUrl(base, name) {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient(url, fn) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Runs `node infra/launcher/dist/seed-scale.js` with `args`, printing its progress indented. */
function runSeed(root, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'infra/launcher/dist/seed-scale.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const relay = (stream) => stream.on('data', (chunk) => process.stdout.write(String(chunk).replace(/^/gm, '        seed: ')));
    relay(child.stdout);
    relay(child.stderr);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`seed-scale exited with ${code}`))));
  });
}

/**
 * The scale database: made once (migrated and seeded by the seed command) and kept, with a
 * marker of what it holds, so later runs measure at once.
 */
async function ensureScaleDatabase(root, baseUrl, { books, orders }) {
  const name = `persona_bench_scale_${books}_${orders}`;
  const url = databaseUrl(baseUrl, name);
  const exists = await withClient(baseUrl, async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount > 0);
  const ready = exists && (await withClient(url, async (c) => (await c.query(`SELECT to_regclass('public.bench_scale_ready') AS t`)).rows[0].t !== null));
  if (ready && process.env.BENCH_SCALE_FRESH !== '1') return { url, name, seededSeconds: null };
  await withClient(baseUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
  });
  const started = performance.now();
  await runSeed(root, ['--database-url', url, '--books', String(books), '--orders', String(orders)]);
  await withClient(url, (c) => c.query('CREATE TABLE public.bench_scale_ready (at timestamptz DEFAULT now())'));
  return { url, name, seededSeconds: (performance.now() - started) / 1000 };
}

async function freshDatabase(baseUrl, prefix) {
  const name = `${prefix}_${Date.now().toString(36)}`;
  await withClient(baseUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  return { url: databaseUrl(baseUrl, name), drop: () => withClient(baseUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) };
}

/** The distributed shop (a process per service) on `databaseUrl`, with the bench's administrator. */
export async function startStack(databaseUrl, amqpUrl) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-scale-'));
  const adminEnv = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: ADMIN.name };
  const shop = await startDistributed({
    databaseUrl,
    amqpUrl,
    dataDir,
    port: 0, // the gateway and every service on a free port
    logLevel: 'error',
    output: () => undefined,
    readyTimeoutMs: 120_000,
    serviceEnv: { admin: adminEnv, gateway: { RATE_LIMIT_MAX: '0' } },
  });
  const login = await fetch(`${shop.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  if (!login.ok) throw new Error(`admin login answered ${login.status}`);
  const token = (await login.json()).data.token;
  return {
    url: shop.url,
    auth: { authorization: `Bearer ${token}` },
    pid: (service) => shop.processes[service]?.pid,
    async close() {
      await shop.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Milliseconds of one GET, and its answer. */
async function timed(url, headers = {}) {
  const started = performance.now();
  const res = await fetch(url, { headers });
  const body = await res.arrayBuffer();
  const ms = performance.now() - started;
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  return { ms, body: Buffer.from(body) };
}

/** Distinct search words taken from the catalogue itself (title words, author surnames) and typos of them. */
export async function searchWords(url, count) {
  const words = new Set();
  for (let page = 1; words.size < count * 2 && page <= 40; page += 1) {
    // Pages 1, 8, 15…: spread over a large catalogue, and the whole of a small one.
    const { body } = await timed(`${url}/api/books?sort=rating&limit=100&page=${(page - 1) * 7 + 1}`);
    for (const book of JSON.parse(body).data) {
      for (const w of `${book.title} ${book.author}`.split(/[^\p{L}]+/u)) if (w.length >= 5) words.add(w.toLowerCase());
    }
  }
  const picked = [...words].slice(0, count);
  // Every fourth word misspelt: a letter dropped, or two swapped.
  return picked.map((w, i) => (i % 4 === 3 ? (i % 8 === 3 ? w.slice(0, 2) + w.slice(3) : w.slice(0, 3) + w[4] + w[3] + w.slice(5)) : w));
}

async function latencies(paths, base, headers) {
  const out = [];
  for (const p of paths) out.push((await timed(`${base}${p}`, headers)).ms);
  return out;
}

const SEARCH_WORDS = Number(process.env.BENCH_SCALE_WORDS ?? 48);

export async function searchLatency(url) {
  const words = await searchWords(url, SEARCH_WORDS);
  const search = await latencies(
    words.map((w) => `/api/books?search=${encodeURIComponent(w)}&limit=24`),
    url,
  );
  const prefixes = [...new Set(words.map((w, i) => w.slice(0, 2 + (i % 4))))];
  const suggest = await latencies(
    prefixes.map((q) => `/api/books/suggest?q=${encodeURIComponent(q)}`),
    url,
  );
  return { words: words.length, search, suggest, prefixes: prefixes.length };
}

/** Admin reads: the dashboard's numbers, first pages, a deep page, each filter and each kind of search. */
export async function adminLatency(url, auth) {
  const first = JSON.parse((await timed(`${url}/api/orders?limit=20`, auth)).body);
  const sample = first.data[Math.min(5, first.data.length - 1)]; // undefined on an empty list
  const paths = [
    '/api/orders?limit=20',
    '/api/orders?limit=20&paymentStatus=paid',
    '/api/orders?limit=20&status=shipped',
    '/api/orders?limit=20&status=cancelled&paymentStatus=paid',
    '/api/orders?limit=20&deliveryType=physical',
    '/api/orders?limit=20&paymentStatus=failed',
    `/api/orders?limit=20&from=${new Date(Date.now() - 400 * 86400_000).toISOString().slice(0, 10)}&to=${new Date(Date.now() - 300 * 86400_000).toISOString().slice(0, 10)}`,
    // The dashboard: its numbers, and the lists its tiles lead to.
    '/api/orders/summary',
    '/api/orders?limit=20&paymentStatus=paid&personaStatus=failed',
    '/api/orders?limit=20&paymentStatus=paid&deliveryType=physical&status=pending',
    `/api/feedback/all?limit=1&from=${new Date(Date.now() - 6 * 86400_000).toISOString().slice(0, 10)}`,
    '/api/books?limit=24',
    '/api/books?limit=24&page=2000',
    '/api/books?limit=24&page=4000',
    '/api/books?limit=24&search=ledger',
    '/api/feedback/all?limit=20',
    '/api/admin/subscribers?limit=20',
    '/api/admin/audit?limit=20',
  ];
  // Each kind of search, for a buyer the list holds (the demo has no orders).
  if (sample) {
    paths.push(
      `/api/orders?limit=20&search=${encodeURIComponent(sample.personaId)}`,
      `/api/orders?limit=20&search=${encodeURIComponent(sample.email)}`,
      `/api/orders?limit=20&search=${encodeURIComponent(sample.email.slice(0, 5))}`,
      `/api/orders?limit=20&search=${encodeURIComponent(sample.fullName.split(' ').pop())}`,
      `/api/orders?limit=20&search=${encodeURIComponent(sample.fullName)}`,
      `/api/feedback/all?limit=20&search=${encodeURIComponent(sample.fullName.split(' ')[0])}`,
      `/api/admin/subscribers?limit=20&search=${encodeURIComponent(sample.email.slice(0, 4))}`,
    );
  }
  // Deep pages by cursor: follow `next` from a page far down the list (the oldest orders, reached by date).
  let deep = JSON.parse((await timed(`${url}/api/orders?limit=20&to=${new Date(Date.now() - 700 * 86400_000).toISOString().slice(0, 10)}`, auth)).body);
  for (let i = 0; i < 3 && deep.meta.next; i += 1) {
    paths.push(`/api/orders?limit=20&after=${encodeURIComponent(deep.meta.next)}`);
    deep = JSON.parse((await timed(`${url}/api/orders?limit=20&after=${encodeURIComponent(deep.meta.next)}`, auth)).body);
  }
  if (first.meta.next) paths.push(`/api/orders?limit=20&after=${encodeURIComponent(first.meta.next)}`);
  // Each read twice, the first uncached; p95 over all of them.
  const ms = [];
  for (const p of paths) for (let i = 0; i < 2; i += 1) ms.push((await timed(`${url}${p}`, auth)).ms);
  return { ms, reads: paths.length, totalOrders: first.meta };
}

/**
 * Deep pages by number, as the admin app asks for them (20 a page, a page number typed in, no
 * cursor): page 25,000 and the last of every order, of the paid ones, and the dispatch list's
 * last; each twice, the first uncached. A list shorter than 25,000 pages has its last page read.
 */
export async function deepPageLatency(url, auth) {
  const cases = [];
  for (const filter of ['', '&paymentStatus=paid', '&deliveryType=physical&status=pending']) {
    const { meta } = JSON.parse((await timed(`${url}/api/orders?limit=20${filter}`, auth)).body);
    const last = Math.max(1, Math.ceil(meta.total / 20));
    const pages = filter.includes('status=pending') ? [last] : [Math.min(25_000, last), last];
    for (const page of pages) {
      const path = `/api/orders?limit=20${filter}&page=${page}`;
      const ms = [];
      for (let i = 0; i < 2; i += 1) ms.push((await timed(`${url}${path}`, auth)).ms);
      cases.push({ path, ms });
    }
  }
  return { cases, ms: cases.flatMap((c) => c.ms) };
}

function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
  } catch {
    return NaN;
  }
}

/** GET /api/orders/export for every order, streamed and counted; the orders process's RSS sampled every 100 ms. */
export async function exportOrders(url, auth, pid) {
  let peak = rssMb(pid);
  const before = peak;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 100);
  const started = performance.now();
  const res = await fetch(`${url}/api/orders/export`, { headers: auth });
  if (!res.ok) throw new Error(`GET /api/orders/export answered ${res.status}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines += 1;
  }
  clearInterval(sampler);
  return { seconds: (performance.now() - started) / 1000, bytes, rows: lines - 1, peakMb: peak, beforeMb: before };
}

/** Chromium: how long until a page shows its first book (or its book's title), and the API bytes it carried. */
export async function pageViews(browser, url, bookId, runs) {
  const pages = [
    ['/', '[data-book-id]'],
    ['/books', 'article[data-book-id]'],
    [`/book/${bookId}`, '.book-detail__title'],
  ];
  const out = {};
  for (const [p, selector] of pages) {
    const times = [];
    let apiBytes = 0;
    // One visit more than counted: the first warms the server's page cache and the database's pages of this view,
    // as the visitors before yours have in a shop in use; demo and scale alike.
    for (let i = -1; i < runs; i += 1) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
      const page = await context.newPage();
      await page.addInitScript((sel) => {
        const seen = () => {
          if (document.querySelector(sel)) {
            window.__firstCard = performance.now();
            return true;
          }
          return false;
        };
        if (!seen()) {
          const observer = new MutationObserver(() => {
            if (seen()) observer.disconnect();
          });
          document.addEventListener('readystatechange', () => seen() && observer.disconnect());
          observer.observe(document, { childList: true, subtree: true });
        }
      }, selector);
      await page.goto(`${url}${p}`, { waitUntil: 'networkidle' });
      await page.waitForFunction(() => window.__firstCard !== undefined, null, { timeout: 30_000 });
      if (i >= 0) times.push(await page.evaluate(() => window.__firstCard));
      // API data a view carries: what it fetched from /api (as sent) and what came inside the page.
      apiBytes = await page.evaluate(() => {
        const fetched = performance
          .getEntriesByType('resource')
          .filter((e) => new URL(e.name).pathname.startsWith('/api/') && !new URL(e.name).pathname.startsWith('/api/files/'));
        const embedded = document.getElementById('persona-page-data')?.textContent ?? '';
        return fetched.reduce((n, e) => n + (e.encodedBodySize || e.transferSize), 0) + new TextEncoder().encode(embedded).length;
      });
      await context.close();
    }
    out[p.startsWith('/book/') ? '/book/:id' : p] = { ms: median(times), all: times.map(Math.round), apiBytes };
  }
  return out;
}

export { ensureScaleDatabase, freshDatabase, runSeed };
