// `npm run bench`: each figure measured side by side with its reference in
// this one run, printed as a ratio against its target with PASS/MISS, then a
// summary table of every figure. Not a test: numbers vary with the machine;
// the ratios are what to compare. See bench/README.md.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { paidToReady } from './latency.mjs';
import { webhookDeliveries } from './webhooks.mjs';
import { leakLookup } from './leaks.mjs';
import { underAttack, worstFiles } from './hostile.mjs';
import { PREVIEW_DEBOUNCE_MS, previewUnderTypists } from './preview.mjs';
import { fixedRate, saturate } from './load.mjs';
import { findNginx, cpuSecondsOfTree, startNginx } from './nginx.mjs';

const { ARENA_MAX } = createRequire(import.meta.url)('@persona/launcher');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Scratch space under the repo (gitignored), so a built template resolves react from the root node_modules. */
const TMP = path.join(root, 'bench/.tmp');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5);
const GROUPS = ['cold', 'gateway', 'nginx', 'js', 'lighthouse', 'pdf', 'preview', 'leaks', 'hostile', 'latency', 'webhooks', 'cluster', 'scale', 'log'];
/** Which groups to run (default all). */
const ONLY = new Set(
  (process.env.BENCH_ONLY ?? GROUPS.join(','))
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean),
);
for (const g of ONLY) if (!GROUPS.includes(g)) throw new Error(`BENCH_ONLY: unknown group "${g}" (groups: ${GROUPS.join(', ')})`);
const children = [];
const cleanups = [];

function startServer(script, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'bench/servers', script)], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const line = buffer.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ ...JSON.parse(line), pid: child.pid, cpuSeconds: () => cpuSecondsOfTree(child.pid) });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const rows = [];
function report(figure, measured, reference, ratio, target, pass) {
  const result = pass === null ? 'info' : pass ? 'PASS' : 'MISS';
  rows.push({ figure, measured, reference, ratio, target, result });
  const against = reference === '—' ? '' : ` vs ${reference} → ${ratio}`;
  console.log(`  ${result.padEnd(4)}  ${figure}: ${measured}${against}${target === 'n/a' ? '' : ` (target ${target})`}`);
}
/** A figure that could not be measured in this run: in the summary as SKIP, with the reason. */
function skip(figure, target, reason) {
  rows.push({ figure, measured: '—', reference: '—', ratio: '—', target, result: 'SKIP' });
  console.log(`  SKIP  ${figure}: ${reason}`);
}
const ms = (v) => `${v.toFixed(2)} ms`;
const signedMs = (v) => `${v >= 0 ? '+' : '−'}${ms(Math.abs(v))}`;
const rps = (v) => `${Math.round(v)} req/s`;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function warm(origin, p) {
  await saturate(origin, p, { seconds: 2, connections: 16 });
}

/**
 * Closed-loop saturation of each target in turn, `ROUNDS` rounds, the order
 * rotated every round so none always runs first; medians are compared, so a
 * passing disturbance on the machine cannot pick the winner. Each target's
 * `cpuSeconds()` (when given) is sampled around its runs: CPU per request.
 */
async function rotate(targets, { seconds = SECONDS / 2, connections = 64 } = {}) {
  const runs = new Map(targets.map((t) => [t.name, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (let j = 0; j < targets.length; j += 1) {
      const t = targets[(round + j) % targets.length];
      const cpuBefore = t.cpuSeconds?.();
      const r = await saturate(t.origin, t.path, { seconds, connections });
      if (t.cpuSeconds) r.cpuUsPerRequest = ((t.cpuSeconds() - cpuBefore) * 1e6) / Math.max(1, r.completed);
      runs.get(t.name).push(r);
    }
  }
  return Object.fromEntries(
    targets.map((t) => {
      const rs = runs.get(t.name);
      return [
        t.name,
        {
          rps: median(rs.map((r) => r.rps)),
          p50: median(rs.map((r) => r.p50)),
          errors: rs.reduce((n, r) => n + r.errors, 0),
          cpuUsPerRequest: t.cpuSeconds ? median(rs.map((r) => r.cpuUsPerRequest)) : undefined,
          all: rs.map((r) => Math.round(r.rps)),
        },
      ];
    }),
  );
}

/** The embedded shop (`infra/launcher/dist/main.js`) on a fresh DATA_DIR and a free port; resolves once `/` and `/api/books` answer. */
async function startShop(env = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-shop-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, 'infra/launcher/dist/main.js')], {
    // As `npm start` runs it (its MALLOC_ARENA_MAX: infra/launcher/src/allocator.ts).
    env: { ...process.env, MALLOC_ARENA_MAX: ARENA_MAX, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'error', PUBLIC_URL: url, ...env },
    stdio: 'ignore',
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (;;) {
      if (exited) throw new Error('the embedded shop exited before serving its first page');
      if (performance.now() - started > 60_000) throw new Error('the shop did not serve its first page within 60 s');
      try {
        const page = await fetch(`${url}/`);
        const books = await fetch(`${url}/api/books`);
        if (page.ok && books.ok) {
          const list = (await books.json()).data;
          if (list.length > 0) return { url, pid: child.pid, books: list, seconds: (performance.now() - started) / 1000, stop };
        }
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (err) {
    await stop();
    throw err;
  }
}

async function coldStart() {
  const shop = await startShop();
  await shop.stop();
  return shop.seconds;
}

/** Personalising a 300-page PDF vs qpdf overlaying a one-page stamp on every page of the same file. */
function pdfBench() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-pdf-'));
  try {
    execFileSync(process.execPath, [path.join(root, 'bench/pdf/fixtures.cjs'), dir]);
    const book = path.join(dir, 'book.pdf');
    const ours = [1, 2, 3].map(() =>
      JSON.parse(execFileSync(process.execPath, [path.join(root, 'bench/pdf/measure-persona-pdf.cjs'), 'pdf', book], { encoding: 'utf8' })),
    );
    const text = JSON.parse(execFileSync(process.execPath, [path.join(root, 'bench/pdf/measure-persona-pdf.cjs'), 'text'], { encoding: 'utf8' }));
    const qpdfThere = spawnSync('qpdf', ['--version']).status === 0;
    const oursMs = median(ours.map((r) => r.ms));
    const peak = Math.max(...ours.map((r) => r.peakRssMb), text.peakRssMb);
    const figure = `personalise a ${ours[0].pages - 1}-page PDF vs qpdf --overlay (median of 3)`;
    if (qpdfThere) {
      const times = [1, 2, 3].map(() => {
        const t = performance.now();
        execFileSync('qpdf', [book, '--overlay', path.join(dir, 'stamp.pdf'), '--repeat=1', '--', path.join(dir, 'out.pdf')]);
        return performance.now() - t;
      });
      const qpdfMs = median(times);
      report(figure, `${oursMs.toFixed(0)} ms`, `${qpdfMs.toFixed(0)} ms`, `${(oursMs / qpdfMs).toFixed(2)}×`, '≤ 2.0×', oursMs / qpdfMs <= 2);
    } else {
      skip(figure, '≤ 2.0×', 'qpdf is not installed (apt-get install qpdf)');
    }
    report(
      'Persona build peak RSS (PDF source and 300-page typeset book)',
      `${peak.toFixed(0)} MB`,
      '200 MB budget',
      (peak / 200).toFixed(2),
      '≤ 200 MB',
      peak <= 200,
    );
    report(`typeset a ${text.pages}-page book as a Persona`, `${text.ms.toFixed(0)} ms`, '—', '—', 'n/a', null);
    // A printed copy's files (issue 27): the interior and the cover spread of the same ~300-page book, and their preflight.
    const print = JSON.parse(execFileSync(process.execPath, [path.join(root, 'bench/pdf/measure-print-files.cjs')], { encoding: 'utf8' }));
    report(
      `print files of a ${print.pages}-page book: interior + cover spread vs its Persona PDF (median of 3)`,
      `${(print.interiorMs + print.coverMs).toFixed(0)} ms (${(print.interiorBytes / 1048576).toFixed(1)} + ${(print.coverBytes / 1048576).toFixed(1)} MB)`,
      `${print.personaMs.toFixed(0)} ms`,
      `${((print.interiorMs + print.coverMs) / print.personaMs).toFixed(2)}×`,
      'n/a',
      null,
    );
    report(
      `their preflight (pdf-lib and poppler), spine ${print.spineInches.toFixed(3)} in`,
      `${print.preflightMs.toFixed(0)} ms`,
      print.problems.length === 0 ? 'no problem found' : `${print.problems.length} problems: ${print.problems[0]}`,
      '—',
      'no problem',
      print.problems.length === 0,
    );
    const epub = JSON.parse(execFileSync(process.execPath, [path.join(root, 'bench/pdf/measure-persona-epub.cjs')], { encoding: 'utf8' }));
    report(
      `EPUB Persona of the longest demo book ("${epub.title}", ${epub.paragraphs} paragraphs) vs its PDF Persona (median of 5)`,
      `${epub.epubMs.toFixed(1)} ms (${(epub.epubBytes / 1024).toFixed(0)} KB)`,
      `${epub.pdfMs.toFixed(1)} ms (${(epub.pdfBytes / 1024).toFixed(0)} KB)`,
      `${(epub.epubMs / epub.pdfMs).toFixed(2)}×`,
      '≤ 1×',
      epub.epubMs <= epub.pdfMs,
    );
    report(
      'the same EPUB vs a further PDF Persona of the book (its typesetting cached)',
      `${epub.epubMs.toFixed(1)} ms`,
      `${epub.pdfCachedMs.toFixed(1)} ms`,
      `${(epub.epubMs / epub.pdfCachedMs).toFixed(2)}×`,
      'n/a',
      null,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The bench servers (separate processes), started once on first use: the catalogue alone; a gateway
 * in front of it with its shared cache, and one without (every request makes the upstream hop); and
 * bare Fastify answering the bytes the catalogue answers at each of the catalogue reads measured.
 */
let servers;
async function benchServers() {
  if (!servers) {
    servers = (async () => {
      const catalogue = await startServer('catalogue.cjs');
      const list = await (await fetch(`${catalogue.url}/api/books`)).json();
      const book = list.data[0];
      const word = book.title.split(/\s+/).find((w) => w.length > 3) ?? book.title;
      const reads = [
        { name: 'the book list', path: '/api/books' },
        { name: 'a search', path: `/api/books?search=${encodeURIComponent(word.toLowerCase())}` },
        { name: 'a book page', path: `/api/books/${book._id}` },
      ];
      const [gateway, gatewayUncached, bare] = await Promise.all([
        startServer('gateway.cjs', { CATALOGUE_URL: catalogue.url }),
        startServer('gateway.cjs', { CATALOGUE_URL: catalogue.url, SHARED_CACHE: 'off' }),
        startServer('bare.cjs', { CATALOGUE_URL: catalogue.url, BARE_PATHS: reads.map((r) => r.path).join(',') }),
      ]);
      return { catalogue, gateway, gatewayUncached, bare, reads };
    })();
  }
  return servers;
}

/**
 * Refuses to compare two measurements not taken alike (issue 28): a side measured at a fixed rate it
 * could not keep up with (its requests queued: its latency measures the queue, not the server), or
 * one side answered from a cache the other had not. Answers the reason, or null when comparable.
 */
function notComparable(a, b, { cacheIsTheFigure = false } = {}) {
  for (const side of [a, b]) {
    if (side.rate && side.rps < side.rate * 0.95)
      return `${side.name} kept up with ${Math.round(side.rps)} of the ${side.rate} req/s asked: saturated, its latency is its queue`;
  }
  if (!cacheIsTheFigure && Boolean(a.cached) !== Boolean(b.cached))
    return `${a.cached ? a.name : b.name} was answered from a cache and ${a.cached ? b.name : a.name} was not`;
  return null;
}

/**
 * Reports a comparison, or refuses it (a REFUSED row, counted as a miss) when its sides were not
 * measured alike; `cacheIsTheFigure` for the one comparison whose point is a cache on one side.
 */
function reportPair(a, b, figure, measured, reference, ratio, target, pass, options) {
  const why = notComparable(a, b, options);
  if (!why) return report(figure, measured, reference, ratio, target, pass);
  rows.push({ figure, measured, reference, ratio, target, result: 'REFUSED' });
  console.log(`  REFUSED  ${figure}: ${measured} vs ${reference}, not compared: ${why}`);
}

/** The share of `n` anonymous GETs of `p` the gateway answered from its shared cache (its x-cache header). */
async function hitRatio(origin, p, n = 200) {
  let hits = 0;
  for (let i = 0; i < n; i += 1) {
    const res = await fetch(`${origin}${p}`);
    await res.arrayBuffer();
    if (res.headers.get('x-cache') === 'HIT') hits += 1;
  }
  return hits / n;
}

/** Fixed-rate runs of each target in turn, `ROUNDS` rounds alternating; the median p50 and p99 and the slowest rate kept. */
async function alternate(targets, rate, { connections = 16 } = {}) {
  const runs = new Map(targets.map((t) => [t.name, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const t of targets) runs.get(t.name).push(await fixedRate(t.origin, t.path, { rate, seconds: SECONDS / 2, connections }));
  }
  return Object.fromEntries(
    targets.map((t) => {
      const rs = runs.get(t.name);
      return [
        t.name,
        {
          name: t.name,
          cached: t.cached,
          rate,
          rps: Math.min(...rs.map((r) => r.rps)),
          p50: median(rs.map((r) => r.p50)),
          p99: median(rs.map((r) => r.p99)),
          errors: rs.reduce((n, r) => n + r.errors, 0),
        },
      ];
    }),
  );
}

/**
 * The catalogue's own reads and what the gateway adds to them (issue 28), each pair measured alike:
 *   1. the book list, a search and a book page straight to the catalogue (no gateway, no shared cache),
 *      saturated, beside bare Fastify answering the same bytes;
 *   2. the gateway's proxy path, its cache off, against the catalogue directly at half the rate the
 *      catalogue saturates at in this run (a rate both sustain), p50 and p99 added;
 *   3. the shared cache's effect, a figure of its own: the gateway with and without it, at that rate
 *      and saturated, and its hit ratio.
 */
async function gatewayBench() {
  const { catalogue, gateway, gatewayUncached, bare, reads } = await benchServers();
  let errors = 0;
  const saturated = {};
  for (const read of reads) {
    await warm(catalogue.url, read.path);
    await warm(bare.url, read.path);
    const sat = await rotate([
      { name: 'direct', origin: catalogue.url, path: read.path },
      { name: 'bare', origin: bare.url, path: read.path },
    ]);
    saturated[read.path] = sat.direct.rps;
    report(
      `${read.name} straight to the catalogue, saturated (GET ${read.path.length > 40 ? `${read.path.slice(0, 40)}…` : read.path}, ${bare.bytesByPath[read.path]} bytes; median of ${ROUNDS}, slowest ${Math.min(...sat.direct.all)})`,
      rps(sat.direct.rps),
      `${rps(sat.bare.rps)} bare Fastify, same bytes`,
      (sat.direct.rps / sat.bare.rps).toFixed(2),
      '≥ 3000 req/s',
      Math.min(...sat.direct.all) >= 3000,
    );
    errors += sat.direct.errors + sat.bare.errors;
  }

  const p = '/api/books';
  await warm(gateway.url, p);
  await warm(gatewayUncached.url, p);
  const ratio = await hitRatio(gateway.url, p);
  const sat = await rotate([
    { name: 'cached', origin: gateway.url, path: p },
    { name: 'uncached', origin: gatewayUncached.url, path: p },
  ]);
  errors += sat.cached.errors + sat.uncached.errors;
  const proxyPath = { name: 'the gateway, cache off', origin: gatewayUncached.url, path: p };
  const directPath = { name: 'the catalogue directly', origin: catalogue.url, path: p };

  // The issue's figure: at half the rate the catalogue saturates at (a rate the upstream sustains).
  const rate = Math.max(100, Math.floor(saturated[p] / 2 / 100) * 100);
  const atUpstream = await alternate([directPath, proxyPath], rate);
  errors += atUpstream[directPath.name].errors + atUpstream[proxyPath.name].errors;
  {
    const direct = atUpstream[directPath.name];
    const proxied = atUpstream[proxyPath.name];
    reportPair(
      direct,
      proxied,
      `gateway added p50, its cache off, at ${rate} req/s (half the catalogue's saturated rate) on GET ${p} (median of ${ROUNDS} alternating rounds)`,
      ms(proxied.p50),
      `${ms(direct.p50)} direct`,
      signedMs(proxied.p50 - direct.p50),
      '≤ +1 ms',
      proxied.p50 - direct.p50 <= 1,
    );
    reportPair(
      direct,
      proxied,
      `gateway added p99, its cache off, at ${rate} req/s`,
      ms(proxied.p99),
      `${ms(direct.p99)} direct`,
      signedMs(proxied.p99 - direct.p99),
      'n/a',
      null,
    );
  }

  // At half the slower side's saturated rate (one both sustain, when the proxy is the slower): what
  // the proxy path adds there, and what the cache changes at that rate.
  const both = Math.max(100, Math.floor(Math.min(saturated[p], sat.uncached.rps) / 2 / 100) * 100);
  const atBoth = await alternate([directPath, proxyPath, { name: 'the gateway, cache on', origin: gateway.url, path: p, cached: true }], both);
  const direct = atBoth[directPath.name];
  const proxied = atBoth[proxyPath.name];
  const cachedRun = atBoth['the gateway, cache on'];
  errors += direct.errors + proxied.errors + cachedRun.errors;
  reportPair(
    direct,
    proxied,
    `gateway added p50 / p99, its cache off, at ${both} req/s (half the slower side's saturated rate)`,
    `${ms(proxied.p50)} / ${ms(proxied.p99)}`,
    `${ms(direct.p50)} / ${ms(direct.p99)} direct`,
    `${signedMs(proxied.p50 - direct.p50)} / ${signedMs(proxied.p99 - direct.p99)}`,
    'n/a',
    null,
  );
  reportPair(
    proxied,
    cachedRun,
    `the gateway's shared cache on GET ${p}: p50 / p99 at ${both} req/s with it vs without (hit ratio ${(ratio * 100).toFixed(0)} %)`,
    `${ms(cachedRun.p50)} / ${ms(cachedRun.p99)}`,
    `${ms(proxied.p50)} / ${ms(proxied.p99)} without`,
    `${signedMs(cachedRun.p50 - proxied.p50)} / ${signedMs(cachedRun.p99 - proxied.p99)}`,
    'n/a',
    null,
    { cacheIsTheFigure: true },
  );
  report(
    `the gateway's shared cache on GET ${p}: saturated throughput with it vs without (median of ${ROUNDS})`,
    rps(sat.cached.rps),
    `${rps(sat.uncached.rps)} without`,
    (sat.cached.rps / sat.uncached.rps).toFixed(2),
    'n/a',
    null,
  );
  return errors;
}

/**
 * The gateway vs nginx, both proxying the same upstream with the same load
 * (64 connections, closed loop). The target is on GET /api/categories to the
 * catalogue, through the gateway with its shared cache off (nginx has none), so
 * both proxies make the same upstream hop for every request.
 * Beside it (informational), the same on GET /api/books to the bare server,
 * where the upstream costs almost nothing and the proxies' own cost shows.
 */
async function nginxBench() {
  const nginx = findNginx();
  const figure = 'saturated proxy throughput, gateway vs nginx (GET /api/categories → catalogue)';
  if (!nginx) {
    skip(figure, '≥ 0.8', 'nginx is not installed (apt-get install nginx-light); the nginx comparison is not measured');
    return 0;
  }
  // Both gateways with their cache off, as nginx has none: every request makes the upstream hop.
  const { catalogue, gatewayUncached: gateway, bare } = await benchServers();
  const gatewayToBare = await startServer('gateway.cjs', { CATALOGUE_URL: bare.url, SHARED_CACHE: 'off' });
  const proxy = await startNginx({
    bin: nginx.bin,
    tmpRoot: TMP,
    probePath: '/api/books',
    servers: [
      { name: 'catalogue', upstream: catalogue.url, port: await freePort() },
      { name: 'bare', upstream: bare.url, port: await freePort() },
    ],
  });
  cleanups.push(() => proxy.stop());
  console.log(`  (nginx ${nginx.version}, ${os.cpus().length} worker processes, pid ${proxy.pid})`);
  try {
    const c = '/api/categories';
    for (const origin of [catalogue.url, proxy.urls.catalogue, gateway.url]) await warm(origin, c);
    const hop = await rotate([
      { name: 'direct', origin: catalogue.url, path: c },
      { name: 'nginx', origin: proxy.urls.catalogue, path: c, cpuSeconds: proxy.cpuSeconds },
      { name: 'gateway', origin: gateway.url, path: c, cpuSeconds: gateway.cpuSeconds },
    ]);
    const ratio = hop.gateway.rps / hop.nginx.rps;
    report(`${figure}, median of ${ROUNDS} rotating rounds`, rps(hop.gateway.rps), `${rps(hop.nginx.rps)} nginx`, ratio.toFixed(2), '≥ 0.8', ratio >= 0.8);
    console.log(`        rounds (req/s): gateway ${hop.gateway.all.join(', ')}; nginx ${hop.nginx.all.join(', ')}; direct ${hop.direct.all.join(', ')}`);
    const cpuRatio = hop.gateway.cpuUsPerRequest / hop.nginx.cpuUsPerRequest;
    report(
      `proxy CPU per request on GET ${c}, gateway vs nginx (all nginx workers)`,
      `${hop.gateway.cpuUsPerRequest.toFixed(0)} µs`,
      `${hop.nginx.cpuUsPerRequest.toFixed(0)} µs nginx`,
      `${cpuRatio.toFixed(1)}×`,
      '≤ 2×',
      cpuRatio <= 2,
    );
    report(
      `uncached proxy hop, saturated (GET ${c}), gateway vs the catalogue directly`,
      rps(hop.gateway.rps),
      `${rps(hop.direct.rps)} direct`,
      (hop.gateway.rps / hop.direct.rps).toFixed(2),
      'n/a',
      null,
    );

    const b = '/api/books';
    for (const origin of [bare.url, proxy.urls.bare, gatewayToBare.url]) await warm(origin, b);
    const cheap = await rotate([
      { name: 'direct', origin: bare.url, path: b },
      { name: 'nginx', origin: proxy.urls.bare, path: b, cpuSeconds: proxy.cpuSeconds },
      { name: 'gateway', origin: gatewayToBare.url, path: b, cpuSeconds: gatewayToBare.cpuSeconds },
    ]);
    report(
      `saturated proxy throughput to the bare server (GET ${b}, ${bare.bytes} bytes), gateway vs nginx`,
      rps(cheap.gateway.rps),
      `${rps(cheap.nginx.rps)} nginx`,
      (cheap.gateway.rps / cheap.nginx.rps).toFixed(2),
      'n/a',
      null,
    );
    console.log(
      `        bare directly ${rps(cheap.direct.rps)}; CPU per request: gateway ${cheap.gateway.cpuUsPerRequest.toFixed(0)} µs, nginx ${cheap.nginx.cpuUsPerRequest.toFixed(0)} µs`,
    );
    return hop.direct.errors + hop.nginx.errors + hop.gateway.errors + cheap.direct.errors + cheap.nginx.errors + cheap.gateway.errors;
  } finally {
    await proxy.stop();
    children.find((c) => c.pid === gatewayToBare.pid)?.kill('SIGTERM');
  }
}

/** Storefront initial JavaScript (gzip) vs a stock Vite React template built in this run. */
async function initialJsBench() {
  const figure = 'storefront initial JavaScript on / (gzip) vs a stock Vite React template';
  const { buildViteTemplate, serveStatic, staticEntry, loadedScripts, kb, CHROMIUM_PATH, CHROMIUM_ARGS } = await import('./web/initial-js.mjs');
  const { gateway } = await benchServers();
  const storefrontDist = path.join(root, 'apps/storefront/dist');
  const template = await buildViteTemplate(root, path.join(TMP, 'vite-template'));
  const site = await serveStatic(template.dist);
  cleanups.push(() => site.close());
  let browser;
  try {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  } catch (err) {
    skip(figure, '≤ 1.6×', `Chromium could not start (${CHROMIUM_PATH}; apt-get install chromium): ${err.message.split('\n')[0]}`);
    await site.close();
    return;
  }
  try {
    const ours = await loadedScripts(browser, `${gateway.url}/`);
    const stock = await loadedScripts(browser, `${site.url}/`);
    const ratio = ours.gzip / stock.gzip;
    report(
      figure,
      `${kb(ours.gzip)} (${ours.files.length} files)`,
      `${kb(stock.gzip)} (${stock.files.length} files) template`,
      `${ratio.toFixed(2)}×`,
      '≤ 1.6×',
      ratio <= 1.6,
    );
    console.log(`        storefront: ${ours.files.map((f) => `${f.url} ${kb(f.gzip)}`).join(', ')}`);
    console.log(`        template (built in ${(template.buildMs / 1000).toFixed(1)} s): ${stock.files.map((f) => `${f.url} ${kb(f.gzip)}`).join(', ')}`);
    const oursEntry = staticEntry(storefrontDist);
    const stockEntry = staticEntry(template.dist);
    report(
      'entry JavaScript named by index.html (module script + modulepreload, gzip)',
      kb(oursEntry.gzip),
      `${kb(stockEntry.gzip)} template`,
      `${(oursEntry.gzip / stockEntry.gzip).toFixed(2)}×`,
      'n/a',
      null,
    );
  } finally {
    await browser.close();
    await site.close();
  }
}

/** Lighthouse mobile performance on `/`, `/books` and `/book/:id` of the embedded shop: every run must reach the target. */
async function lighthouseBench() {
  const target = '≥ 95 every run';
  const pages = ['/', '/books', '/book/:id'];
  let lh;
  try {
    lh = await import('./web/lighthouse.mjs');
  } catch (err) {
    for (const p of pages) skip(`Lighthouse mobile performance ${p}`, target, `the lighthouse package is missing (npm install): ${err.message}`);
    return;
  }
  const shop = await startShop();
  cleanups.push(() => shop.stop());
  let chrome;
  try {
    chrome = await lh.launchChrome(`${shop.url}/`);
  } catch (err) {
    for (const p of pages) skip(`Lighthouse mobile performance ${p}`, target, `Chromium could not start: ${err.message}`);
    await shop.stop();
    return;
  }
  const reports = path.join(TMP, 'lighthouse');
  mkdirSync(reports, { recursive: true });
  try {
    const book = shop.books[0];
    for (const [label, p] of [
      ['/', '/'],
      ['/books', '/books'],
      ['/book/:id', `/book/${encodeURIComponent(book._id ?? book.id)}`],
    ]) {
      const runs = [];
      let failures = 0;
      for (let i = 0; runs.length < LIGHTHOUSE_RUNS && failures < 3; i += 1) {
        try {
          runs.push(
            await lh.audit(
              chrome,
              `${shop.url}${p}`,
              path.join(reports, `${label === '/' ? 'home' : label === '/books' ? 'books' : 'book'}-${runs.length + 1}.json`),
            ),
          );
        } catch (err) {
          // A run that Lighthouse could not complete (e.g. NO_FCP on a starved host) is retried, not scored.
          failures += 1;
          console.log(`        (Lighthouse run on ${label} failed, ${failures < 3 ? 'retrying' : 'giving up'}: ${err.message.split('\n')[0]})`);
        }
      }
      if (runs.length === 0) {
        skip(`Lighthouse mobile performance ${label}`, target, 'every Lighthouse run failed (see above)');
        continue;
      }
      // The worst run stands for the page: every run must reach the target.
      const r = [...runs].sort((a, b) => a.score - b.score)[0];
      const scores = runs.map((x) => x.score).join(', ');
      report(
        `Lighthouse mobile performance ${label} (worst of ${runs.length}: ${scores})`,
        `${r.score}; LCP ${(r.lcp / 1000).toFixed(2)} s, TBT ${Math.round(r.tbt)} ms, CLS ${r.cls.toFixed(3)}`,
        '100',
        (r.score / 100).toFixed(2),
        target,
        r.score >= 95 && runs.length >= LIGHTHOUSE_RUNS,
      );
      console.log(
        `        FCP ${(r.fcp / 1000).toFixed(2)} s, Speed Index ${(r.si / 1000).toFixed(2)} s, host benchmarkIndex ${r.benchmarkIndex ?? '?'}; LCP element: ${r.lcpElement}`,
      );
      for (const w of r.warnings) console.log(`        warning: ${w}`);
      // The longest main-thread task of any run (issue 28: none over 50 ms on /books on a mid-range phone).
      const longest = runs.flatMap((x) => x.longTasks).sort((a, b) => b.ms - a.ms);
      const worst = longest[0]?.ms ?? 0;
      report(
        `longest main-thread task on ${label}, Lighthouse mobile (its mid-range phone: 4× CPU), any of ${runs.length} runs${
          longest.length
            ? ` (${longest
                .slice(0, 3)
                .map((t) => `${t.url} ${Math.round(t.ms)} ms`)
                .join('; ')})`
            : ''
        }`,
        `${Math.round(worst)} ms`,
        '50 ms',
        (worst / 50).toFixed(2),
        label === '/books' ? '≤ 50 ms' : 'n/a',
        label === '/books' ? worst <= 50 : null,
      );
      if (r.score < 95) {
        for (const f of r.findings.slice(0, 6)) {
          const saving = [f.savingMs ? `~${Math.round(f.savingMs)} ms` : '', f.savingBytes ? `${(f.savingBytes / 1024).toFixed(0)} KB` : '']
            .filter(Boolean)
            .join(', ');
          console.log(
            `        - ${f.title}${f.display ? `: ${f.display}` : ''}${saving ? ` (saves ${saving})` : ''}${f.items.length ? ` [${f.items.join('; ')}]` : ''}`,
          );
        }
      }
    }
    console.log(`        full reports: ${path.relative(root, reports)}/*.json (open in https://googlechrome.github.io/lighthouse/viewer/)`);
  } finally {
    await chrome.kill();
    await shop.stop();
  }
}

/** The `log` group (bench/log.mjs): the transparency log of Personas at 1,000,000 entries (issue 27). */
async function logBench() {
  const { logFigures } = await import('./log.mjs');
  const { CHROMIUM_PATH, CHROMIUM_ARGS } = await import('./web/initial-js.mjs');
  const entries = Number(process.env.BENCH_LOG_ENTRIES ?? 1_000_000);
  mkdirSync(TMP, { recursive: true });
  const r = await logFigures({ entries, tmp: TMP, chromiumPath: CHROMIUM_PATH, chromiumArgs: CHROMIUM_ARGS });
  const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  report(
    `append ${r.size.toLocaleString('en')} entries to the log, 1,000 at a time (tiles and entry bundles in memory)`,
    `${(r.appendMs / 1000).toFixed(1)} s (${Math.round(r.size / (r.appendMs / 1000)).toLocaleString('en')} entries/s)`,
    '—',
    '—',
    'n/a',
    null,
  );
  report(
    `what the log of ${r.size.toLocaleString('en')} entries publishes`,
    `${mb(r.tileBytes)} of hash tiles`,
    `${mb(r.bundleBytes)} of entry bundles`,
    '—',
    'n/a',
    null,
  );
  report(
    `audit of the whole log at ${r.size.toLocaleString('en')} entries (signature, every entry, every tile, the root)`,
    `${(r.auditMs / 1000).toFixed(1)} s, ${r.audit.problems.length} problems`,
    '60 s budget',
    (r.auditMs / 60_000).toFixed(2),
    '≤ 60 s, no problem found',
    r.auditMs <= 60_000 && r.audit.problems.length === 0 && r.audit.entries === r.size,
  );
  const worst = Math.max(...r.checks.map((c) => c.ms));
  report(
    `the browser's check of one Persona's inclusion at ${r.size.toLocaleString('en')} entries (checkpoint and its signature, ${r.checks[0].tiles} tiles, a ${r.checks[0].proof}-hash proof; Web Crypto; worst of ${r.checks.length} fresh contexts)`,
    ms(worst),
    '200 ms budget',
    (worst / 200).toFixed(2),
    '≤ 200 ms',
    worst <= 200,
  );
}

/**
 * The `scale` group (bench/scale.mjs): 100,000 books and 1,000,000 orders beside the demo, both
 * distributed on PostgreSQL, then the embedded shop (PGlite) at its default scale size.
 */
async function scaleBench() {
  const scale = await import('./scale.mjs');
  const baseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const amqpUrl = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  const books = Number(process.env.BENCH_SCALE_BOOKS ?? 100_000);
  const orders = Number(process.env.BENCH_SCALE_ORDERS ?? 1_000_000);
  const runs = Number(process.env.BENCH_SCALE_RUNS ?? 5);
  const size = `${books.toLocaleString('en')} books / ${orders.toLocaleString('en')} orders`;
  let database;
  try {
    console.log(`  (scale data set: ${size} on PostgreSQL; made once and kept, BENCH_SCALE_FRESH=1 remakes it)`);
    database = await scale.ensureScaleDatabase(root, baseUrl, { books, orders });
    if (database.seededSeconds !== null) report(`seed:scale ${size} on PostgreSQL`, `${database.seededSeconds.toFixed(0)} s`, '—', '—', 'n/a', null);
  } catch (err) {
    skip(`scale group (${size})`, 'see bench/README.md', `not measured: ${err.message}; it needs PostgreSQL, RabbitMQ and a build (npm run build)`);
    return;
  }
  const demo = await scale.freshDatabase(baseUrl, 'persona_bench_demo');
  cleanups.push(() => demo.drop());
  const { chromium } = await import('playwright-core');
  const { CHROMIUM_PATH, CHROMIUM_ARGS } = await import('./web/initial-js.mjs');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  cleanups.push(() => browser.close());
  const lh = await import('./web/lighthouse.mjs').catch(() => null);
  const measured = {};
  for (const [label, url] of [
    ['demo', demo.url],
    ['scale', database.url],
  ]) {
    const stack = await scale.startStack(url, amqpUrl);
    try {
      const newest = (await (await fetch(`${stack.url}/api/books?limit=1`)).json()).data[0];
      const m = { views: await scale.pageViews(browser, stack.url, newest._id, runs) };
      m.latency = await scale.searchLatency(stack.url);
      m.admin = await scale.adminLatency(stack.url, stack.auth);
      m.deep = await scale.deepPageLatency(stack.url, stack.auth);
      if (label === 'scale') m.export = await scale.exportOrders(stack.url, stack.auth, stack.pid('orders'));
      if (lh) {
        const chrome = await lh.launchChrome(`${stack.url}/`);
        m.lighthouse = {};
        try {
          for (const [name, p] of [
            ['/', '/'],
            ['/books', '/books'],
            ['/book/:id', `/book/${newest._id}`],
          ]) {
            m.lighthouse[name] = [];
            for (let i = 0; i < runs; i += 1) {
              const file = path.join(TMP, 'lighthouse', `scale-${label}-${name === '/' ? 'home' : name === '/books' ? 'books' : 'book'}-${i + 1}.json`);
              mkdirSync(path.dirname(file), { recursive: true });
              const r = await lh.audit(chrome, `${stack.url}${p}`, file);
              m.lighthouse[name].push(r.score);
              // A run under the target says why: its metrics, and the report is kept.
              if (r.score < 95) {
                console.log(
                  `        (Lighthouse ${label} ${name} run ${i + 1}: ${r.score}; FCP ${Math.round(r.fcp)} ms, LCP ${Math.round(r.lcp)} ms, TBT ${Math.round(r.tbt)} ms, CLS ${r.cls.toFixed(3)}, benchmarkIndex ${r.benchmarkIndex ?? '?'}; ${path.relative(root, file)})`,
                );
              }
            }
          }
        } finally {
          await chrome.kill();
        }
      }
      measured[label] = m;
    } finally {
      await stack.close();
    }
  }
  const { demo: d, scale: s } = measured;
  const p = scale.percentile;
  for (const page of ['/', '/books', '/book/:id']) {
    const ms = s.views[page].ms;
    const ratio = ms / d.views[page].ms;
    report(
      `first book card in Chromium on ${page} at ${books.toLocaleString('en')} books (median of ${runs}: ${s.views[page].all.join(', ')} ms)`,
      `${ms.toFixed(0)} ms`,
      `${d.views[page].ms.toFixed(0)} ms demo`,
      `${ratio.toFixed(2)}×`,
      '≤ 1.5 s and ≤ 1.3× demo',
      ms <= 1500 && ratio <= 1.3,
    );
  }
  const apiMax = Math.max(...Object.values(s.views).map((v) => v.apiBytes));
  report(
    `API data per page view at scale (largest of /, /books, /book/:id; ${Object.entries(s.views)
      .map(([k, v]) => `${k} ${(v.apiBytes / 1024).toFixed(1)} KB`)
      .join(', ')})`,
    `${(apiMax / 1024).toFixed(1)} KB`,
    `${(Math.max(...Object.values(d.views).map((v) => v.apiBytes)) / 1024).toFixed(1)} KB demo`,
    '—',
    '≤ 100 KB',
    apiMax <= 100 * 1024,
  );
  report(
    `search over ${s.latency.words} distinct uncached words (a quarter misspelt), p50 / p95`,
    `${p(s.latency.search, 50).toFixed(1)} / ${p(s.latency.search, 95).toFixed(1)} ms`,
    `${p(d.latency.search, 95).toFixed(1)} ms demo p95`,
    '—',
    'p95 ≤ 50 ms',
    p(s.latency.search, 95) <= 50,
  );
  report(
    `suggestions over ${s.latency.prefixes} prefixes, p95`,
    `${p(s.latency.suggest, 95).toFixed(1)} ms`,
    `${p(d.latency.suggest, 95).toFixed(1)} ms demo`,
    '—',
    'p95 ≤ 30 ms',
    p(s.latency.suggest, 95) <= 30,
  );
  report(
    `admin lists: ${s.admin.reads} reads (pages, deep pages, filters, searches), each twice, p95`,
    `${p(s.admin.ms, 95).toFixed(1)} ms`,
    `${p(d.admin.ms, 95).toFixed(1)} ms demo`,
    '—',
    'p95 ≤ 100 ms',
    p(s.admin.ms, 95) <= 100,
  );
  // Any page by number: the slowest read of page 25,000 and the last pages (each read counts, not a percentile).
  const deepMax = Math.max(...s.deep.ms);
  report(
    `admin deep pages by number at ${orders.toLocaleString('en')} orders (${s.deep.cases
      .map((c) => `${c.path.replace('/api/orders?limit=20', '').replace(/^&/, '')}: ${c.ms.map((v) => v.toFixed(0)).join(' / ')} ms`)
      .join('; ')}), slowest`,
    `${deepMax.toFixed(1)} ms`,
    `${Math.max(...d.deep.ms).toFixed(1)} ms demo`,
    '—',
    '≤ 100 ms each',
    deepMax <= 100,
  );
  const e = s.export;
  report(
    `orders.csv of ${e.rows.toLocaleString('en')} orders (${(e.bytes / 1048576).toFixed(0)} MB), time and the orders service's peak RSS`,
    `${e.seconds.toFixed(1)} s, ${e.peakMb.toFixed(0)} MB (${e.beforeMb.toFixed(0)} MB before)`,
    '60 s, 150 MB budget',
    '—',
    '≤ 60 s, ≤ 150 MB',
    e.seconds <= 60 && e.peakMb <= 150,
  );
  if (s.lighthouse) {
    for (const page of ['/', '/books', '/book/:id']) {
      const worst = Math.min(...s.lighthouse[page], ...d.lighthouse[page]);
      report(
        `Lighthouse mobile ${page}, ${runs} runs at each size (scale: ${s.lighthouse[page].join(', ')}; demo: ${d.lighthouse[page].join(', ')})`,
        `worst ${worst}`,
        '100',
        (worst / 100).toFixed(2),
        '≥ 95 every run',
        worst >= 95,
      );
    }
  }
  await pgliteScale(scale);
}

/** The embedded shop (PGlite) at the seed's default size for it: search, suggestions and admin lists. */
async function pgliteScale(scale) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-pglite-scale-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const started = performance.now();
  await scale.runSeed(root, ['--data-dir', dataDir]);
  report('seed:scale default size on PGlite (embedded)', `${((performance.now() - started) / 1000).toFixed(0)} s`, '—', '—', 'n/a', null);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(root, 'infra/launcher/dist/main.js')], {
    env: {
      ...process.env,
      MALLOC_ARENA_MAX: ARENA_MAX,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'error',
      PUBLIC_URL: url,
      RATE_LIMIT_MAX: '0',
      ADMIN_EMAIL: scale.ADMIN.email,
      ADMIN_PASSWORD: scale.ADMIN.password,
    },
    stdio: 'ignore',
  });
  children.push(child);
  for (let i = 0; i < 600; i += 1) {
    try {
      if ((await fetch(`${url}/api/books?limit=1`)).ok) break;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    const { meta } = await (await fetch(`${url}/api/books?limit=1`)).json();
    // A list's count stops at 10,000: "10,000+" then.
    const total = `${meta.total.toLocaleString('en')}${meta.totalCapped ? '+' : ''}`;
    const login = await (
      await fetch(`${url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: scale.ADMIN.email, password: scale.ADMIN.password }),
      })
    ).json();
    const auth = { authorization: `Bearer ${login.data.token}` };
    const lat = await scale.searchLatency(url);
    const admin = await scale.adminLatency(url, auth);
    const p = scale.percentile;
    report(
      `PGlite (embedded) at ${total} books: search p95 / suggestions p95 / admin lists p95`,
      `${p(lat.search, 95).toFixed(1)} / ${p(lat.suggest, 95).toFixed(1)} / ${p(admin.ms, 95).toFixed(1)} ms`,
      '—',
      '—',
      '50 / 30 / 100 ms',
      p(lat.search, 95) <= 50 && p(lat.suggest, 95) <= 30 && p(admin.ms, 95) <= 100,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

/** The dedication page's live preview under 10 concurrent typists, on the embedded shop. */
async function previewBench() {
  // Ten typists from one address here stand for ten buyers, each under the per-client limit.
  const shop = await startShop({ PREVIEWS_PER_MINUTE: '100000', RATE_LIMIT_MAX: '0' });
  try {
    const r = await previewUnderTypists(shop.url, shop.books[0]._id);
    report(
      `preview after typing stops, 10 typists (${r.names} names; ${PREVIEW_DEBOUNCE_MS} ms debounce included)`,
      `p50 ${ms(r.stopP50)}, p95 ${ms(r.stopP95)}`,
      '300 ms budget',
      (r.stopP95 / 300).toFixed(2),
      'p95 ≤ 300 ms',
      r.stopP95 <= 300,
    );
    report(`preview request, 10 typists (${r.requests} drawn)`, `p50 ${ms(r.requestP50)}, p95 ${ms(r.requestP95)}`, '—', '—', 'n/a', null);
  } finally {
    await shop.stop();
  }
}

/** The `leaks` group (bench/leaks.mjs): one leaked copy looked up among 1,000,000 Personas on PostgreSQL. */
async function leaksBench() {
  const orders = Number(process.env.BENCH_LEAK_ORDERS ?? 1_000_000);
  let r;
  try {
    r = await leakLookup({ orders });
  } catch (err) {
    skip(`leak lookup against ${orders.toLocaleString('en')} orders`, '≤ 2 s', `not measured: ${err.message}; it needs PostgreSQL and a build (npm run build)`);
    return;
  }
  const max = (values) => values[values.length - 1];
  report(`${orders.toLocaleString('en')} marked Personas seeded on PostgreSQL`, `${r.seededSeconds.toFixed(1)} s`, '—', '—', 'n/a', null);
  report(
    `leak lookup, a PDF copy${r.redrawn ? ' redrawn by pdftocairo' : ''} (${(r.bytes / 1024).toFixed(0)} KB) against ${orders.toLocaleString('en')} orders (${r.pdfTimes.length} runs)`,
    `median ${ms(median(r.pdfTimes))}, max ${ms(max(r.pdfTimes))}`,
    '2000 ms budget',
    (max(r.pdfTimes) / 2000).toFixed(2),
    '≤ 2 s',
    max(r.pdfTimes) <= 2000,
  );
  report(
    `leak lookup, the EPUB copy against ${orders.toLocaleString('en')} orders (${r.epubTimes.length} runs)`,
    `median ${ms(median(r.epubTimes))}, max ${ms(max(r.epubTimes))}`,
    '2000 ms budget',
    (max(r.epubTimes) / 2000).toFixed(2),
    '≤ 2 s',
    max(r.epubTimes) <= 2000,
  );
  report(`of which the mark's lookup in the database (index on personas.mark)`, ms(r.queryMs), '—', '—', 'n/a', null);
}

/** Issue 21: the embedded shop under 10 clients sending the worst files the upload limits allow, to the public verify route and to the admin's book upload. */
async function hostileBench() {
  const seconds = Number(process.env.BENCH_HOSTILE_SECONDS ?? 30);
  const clients = Number(process.env.BENCH_HOSTILE_CLIENTS ?? 10);
  const admin = { email: 'bench@persona-books.in', password: 'a bench administrator password' };
  const shop = await startShop({ RATE_LIMIT_MAX: '0', ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
  try {
    const login = await (
      await fetch(`${shop.url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) })
    ).json();
    const categoryId = (await (await fetch(`${shop.url}/api/categories`)).json()).data[0]._id;
    const files = worstFiles();
    const attacks = [
      ['the public verify route', { route: 'verify' }, files.verify.length],
      ["the administrator's full-PDF upload", { route: 'book', token: login.data.token, categoryId }, files.fullPdf.length],
    ];
    for (const [where, attack, size] of attacks) {
      const r = await underAttack({ url: shop.url, pid: shop.pid, attack, clients, seconds });
      const during = `while ${clients} clients send ${(size / 1024 / 1024).toFixed(1)} MB PDF bombs to ${where} for ${seconds} s`;
      report(
        `GET /api/categories p99 through the gateway ${during} (p50 ${ms(r.loaded.p50)}, ${r.loaded.errors} errors)`,
        ms(r.loaded.p99),
        `${ms(r.quiet.p99)} quiet`,
        `${(r.loaded.p99 / r.quiet.p99).toFixed(2)}×`,
        '≤ 100 ms',
        r.loaded.p99 <= 100 && r.loaded.errors === 0,
      );
      report(
        `the shop's RSS growth ${during}`,
        `${r.growthMb.toFixed(0)} MB`,
        `${r.baseRss.toFixed(0)} MB quiet`,
        (r.growthMb / 200).toFixed(2),
        '≤ 200 MB',
        r.growthMb <= 200,
      );
      report(
        `bombs answered 4xx ${during} (${JSON.stringify(r.answers)})`,
        `${r.refused}/${r.sent}`,
        '—',
        '—',
        'every one',
        r.sent > 0 && r.refused === r.sent,
      );
    }
  } finally {
    await shop.stop();
  }
}

/**
 * Runs a group of figures on a quiet machine (issue 28): prints the load average first and waits (up
 * to 90 s) for the 1-minute figure to fall to the core count; a group that had to start above it has
 * its figures marked noisy and is run once more, so a busy moment cannot pass or fail a target alone.
 */
async function group(name, run) {
  const cores = os.cpus().length;
  const quiet = async () => {
    const until = Date.now() + 90_000;
    while (os.loadavg()[0] > cores && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5000));
    const [one, five, fifteen] = os.loadavg();
    console.log(`\n[${name}] load average ${one.toFixed(2)} ${five.toFixed(2)} ${fifteen.toFixed(2)} on ${cores} cores`);
    return one <= cores;
  };
  const first = rows.length;
  const calm = await quiet();
  const result = await run();
  if (calm) return result;
  for (const row of rows.slice(first)) row.figure = `(noisy: measured above ${cores} of load) ${row.figure}`;
  console.log(`  [${name}] measured on a loaded machine: its figures are marked noisy, and it runs again`);
  await quiet();
  return (await run()) ?? result;
}

async function main() {
  console.log(`Persona Books benchmarks (${SECONDS} s per run, ${os.cpus().length} CPUs, Node ${process.version}; groups: ${[...ONLY].join(', ')})\n`);
  // The pages measured must be the pages buyers get: without its server bundle (a client-only
  // `vite build` run by hand empties it) the gateway sends every page to render in the browser,
  // and Lighthouse and first-card figures measure that instead (2026-11-27).
  const pageGroups = ['cold', 'lighthouse', 'scale'].filter((g) => ONLY.has(g));
  if (pageGroups.length > 0 && !existsSync(path.join(root, 'apps/storefront/dist/server'))) {
    console.error(
      `refused: apps/storefront/dist/server is missing, so ${pageGroups.join(', ')} would measure pages rendered in the browser; run \`npm run build\` first`,
    );
    process.exit(1);
  }
  let errors = 0;
  if (ONLY.has('cold')) {
    const cold = await coldStart();
    report(
      'embedded cold start to first page (fresh data: migrate + seed)',
      `${cold.toFixed(2)} s`,
      '10 s budget',
      (cold / 10).toFixed(2),
      '≤ 10 s',
      cold <= 10,
    );
  }
  if (ONLY.has('gateway')) errors += await group('gateway', gatewayBench);
  if (ONLY.has('nginx')) errors += await group('nginx', nginxBench);
  if (ONLY.has('js')) await group('js', initialJsBench);
  if (servers) {
    for (const child of children) child.kill('SIGTERM');
    servers = undefined;
  }
  if (ONLY.has('lighthouse')) await group('lighthouse', lighthouseBench);
  if (ONLY.has('pdf')) await group('pdf', async () => pdfBench());
  if (ONLY.has('preview')) await group('preview', previewBench);
  if (ONLY.has('leaks')) await group('leaks', leaksBench);
  if (ONLY.has('hostile')) await group('hostile', hostileBench);
  if (ONLY.has('latency')) {
    const rate = Number(process.env.BENCH_ORDER_RATE ?? 20);
    const seconds = Number(process.env.BENCH_ORDER_SECONDS ?? 60);
    // Three runs in a row, each on a shop started afresh (issue 22): one good run is not a figure.
    const runs = Number(process.env.BENCH_LATENCY_RUNS ?? 3);
    const figure = `paid → ready at ${rate} orders/s for ${seconds} s, distributed`;
    for (let run = 1; run <= runs; run += 1) {
      try {
        const r = await paidToReady({
          databaseUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
          amqpUrl: process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
          rate,
          seconds,
        });
        report(
          `${figure}, run ${run} of ${runs} (${r.ready} of ${r.orders} orders paid and ready)`,
          `p50 ${ms(r.p50)}, p99 ${ms(r.p99)}`,
          '1000 ms budget',
          (r.p99 / 1000).toFixed(2),
          'p99 ≤ 1 s, every order paid and ready',
          r.p99 <= 1000 && r.ready === r.orders,
        );
        for (const [reason, count] of r.refused) console.log(`    ${count} orders not placed or paid: ${reason}`);
        report(
          `  where the wait went, run ${run} (p50 / p99, ms)`,
          `paid → published ${r.stages.published}; → handled and built ${r.stages.delivered}`,
          '—',
          '—',
          'n/a',
          null,
        );
      } catch (err) {
        skip(figure, 'p99 ≤ 1 s, every order paid and ready', `not measured: ${err.message}; it needs PostgreSQL and RabbitMQ`);
        break;
      }
    }
  }
  if (ONLY.has('webhooks')) {
    const orders = Number(process.env.BENCH_WEBHOOK_ORDERS ?? 500);
    const figure = `Razorpay webhooks, 50 delivered at once (${orders} orders' payment.captured, a tenth twice), distributed`;
    try {
      const r = await webhookDeliveries({
        databaseUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
        amqpUrl: process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
        orders,
        concurrency: 50,
      });
      const all2xx = r.statuses.every(([status]) => status >= 200 && status < 300);
      report(
        `${figure}: ${r.deliveries} answered ${r.statuses.map(([s, n]) => `${n}× ${s}`).join(', ')}; ${r.paid} paid, ${r.transitions} order.paid`,
        `p50 ${ms(r.p50)}, p99 ${ms(r.p99)}`,
        '300 ms budget',
        (r.p99 / 300).toFixed(2),
        'p99 ≤ 300 ms, every answer 2xx, every order paid once',
        r.p99 <= 300 && all2xx && r.paid === r.orders && r.transitions === r.orders,
      );
      report(`  last answer → every payment made from the inbox`, ms(r.inboxEmptyMs), '—', '—', 'info', null);
    } catch (err) {
      skip(figure, 'p99 ≤ 300 ms', `not measured: ${err.message}; it needs PostgreSQL and RabbitMQ`);
    }
  }
  if (ONLY.has('cluster')) await group('cluster', clusterBench);
  if (ONLY.has('scale')) await group('scale', scaleBench);
  if (ONLY.has('log')) await group('log', logBench);
  if (ONLY.has('gateway') || ONLY.has('nginx')) console.log(`\n  HTTP errors during the load runs: ${errors}`);
  console.log('\nSummary');
  console.table(rows);
  const missed = rows.filter((r) => r.result === 'MISS').length;
  const refused = rows.filter((r) => r.result === 'REFUSED').length;
  const skipped = rows.filter((r) => r.result === 'SKIP').length;
  console.log(
    `${rows.filter((r) => r.result === 'PASS').length} PASS, ${missed} MISS, ${refused} REFUSED (sides not measured alike), ${skipped} SKIP, ${rows.filter((r) => r.result === 'info').length} informational`,
  );
}

/**
 * The cluster beside the single-process distributed mode, in this one run (issue 25): paid → ready
 * at a fixed order rate, and the gateway's throughput on the book list (saturated; its shared
 * cache answers, the catalogue asked once a second), each on a shop started afresh. On two cores the
 * cluster's eleven processes and nginx share what one process of each had: the ratios show the
 * overhead of running replicas, not a speed-up (ARCHITECTURE's capacity sketch says what cores buy).
 */
async function clusterBench() {
  // 5 orders a second: on two cores the cluster's two personalisation processes (one PDF thread
  // each, eleven processes and nginx on the same cores) build a Persona in about 0.3–0.4 s against
  // the single process's 0.13, so at 10 a second its queue only grows and p99 measures the backlog.
  const rate = Number(process.env.BENCH_CLUSTER_RATE ?? 5);
  const seconds = Number(process.env.BENCH_CLUSTER_SECONDS ?? 30);
  const base = {
    databaseUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    amqpUrl: process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    rate,
    seconds,
  };
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  // The storefront's first read: the gateway answers it from its shared cache, asking the catalogue once a second.
  const throughput = async (shop) => {
    const r = await saturate(shop.url, '/api/books?limit=12', { seconds: SECONDS, connections: 32 });
    await new Promise((resolve) => setTimeout(resolve, 2000)); // the load's after-effects (GC, sockets) settle before the orders
    return r;
  };
  const runs = {};
  for (const [mode, extra] of [
    ['single', {}],
    ['cluster', { redisUrl }],
  ]) {
    try {
      runs[mode] = await paidToReady({ ...base, ...extra, measure: throughput });
    } catch (err) {
      skip(
        `cluster vs single (${mode})`,
        'both measured',
        `not measured: ${err.message}; it needs PostgreSQL, RabbitMQ${mode === 'cluster' ? ', Redis and nginx' : ''}`,
      );
      return;
    }
  }
  const { single, cluster } = runs;
  for (const [mode, r] of Object.entries(runs)) {
    report(
      `paid → ready at ${rate} orders/s for ${seconds} s, ${mode === 'cluster' ? 'cluster (2 of every service, 2 gateways behind nginx)' : 'distributed, one process each'} (${r.ready} of ${r.orders} paid and ready)`,
      `p50 ${ms(r.p50)}, p99 ${ms(r.p99)}`,
      '1000 ms budget',
      (r.p99 / 1000).toFixed(2),
      mode === 'cluster' ? 'every order paid and ready (p99: the overhead, below)' : 'p99 ≤ 1 s, every order paid and ready',
      r.ready === r.orders && (mode === 'cluster' || r.p99 <= 1000),
    );
    for (const [reason, count] of r.refused) console.log(`    ${count} orders not placed or paid: ${reason}`);
    report(
      `  where the wait went, ${mode} (p50 / p99, ms)`,
      `paid → published ${r.stages.published}; → handled and built ${r.stages.delivered}`,
      '—',
      '—',
      'n/a',
      null,
    );
  }
  report(
    '  paid → ready p99, cluster over single (the overhead of replicas on two cores)',
    ms(cluster.p99),
    ms(single.p99),
    (cluster.p99 / single.p99).toFixed(2),
    'n/a',
    null,
  );
  const t = (r) => `${Math.round(r.measured.rps)} req/s (p99 ${ms(r.measured.p99)}, ${r.measured.errors} errors)`;
  report(
    `gateway throughput, /api/books (its shared cache), 32 clients for ${SECONDS} s: cluster (through nginx) vs single`,
    t(cluster),
    t(single),
    (cluster.measured.rps / single.measured.rps).toFixed(2),
    'no errors (the ratio: nginx and a second gateway on the same two cores)',
    cluster.measured.errors === 0 && single.measured.errors === 0,
  );
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch {
        // best effort
      }
    }
    for (const child of children) child.kill('SIGTERM');
  });
