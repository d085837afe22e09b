// The `log` group (issue 27): the transparency log's costs at 1,000,000 entries. Appending them (in
// batches of 1,000, as the shop's writer appends what became ready) into tiles in memory: the time,
// and the size of the tiles and bundles published; the audit of the whole log (every entry, tile
// and the signed checkpoint); and the browser's check of one Persona's inclusion (checkpoint and
// signature, the tiles of its path, the proof), in Chromium against the log served over HTTP.
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));

export async function logFigures({ entries = 1_000_000, batch = 1_000, tmp, chromiumPath, chromiumArgs, runs = 5 }) {
  const tlog = require('@persona/transparency-log');
  const { nodeSha256, generateSignerKey, parseSignerKey } = require('@persona/transparency-log/node');
  const hasher = tlog.rfc6962(nodeSha256);
  const files = new Map();
  const source = {
    async tile(level, index, width) {
      const bytes = files.get(tlog.tilePath(level, index, width));
      if (!bytes) throw new Error(`no ${tlog.tilePath(level, index, width)}`);
      return bytes;
    },
    async bundle(index, width) {
      return files.get(tlog.entriesPath(index, width));
    },
  };
  // An entry the size of a Persona's signed record in its private form (salted commitments, ids, dates).
  const record = (i) =>
    new TextEncoder().encode(
      JSON.stringify({
        v: 1,
        persona: `p-${i}`.padEnd(36, '0'),
        book: 'b'.repeat(36),
        name: 'n'.repeat(64),
        message: 'm'.repeat(64),
        at: '2026-12-07T10:00:00.000Z',
      }),
    );
  let size = 0;
  const t0 = performance.now();
  for (let at = 0; at < entries; at += batch) {
    const batchEntries = Array.from({ length: Math.min(batch, entries - at) }, (_, i) => record(at + i));
    const out = await tlog.appendEntries(hasher, size, source, source, batchEntries);
    for (const t of out.tiles) files.set(tlog.tilePath(t.level, t.index, t.width), t.bytes);
    for (const b of out.bundles) files.set(tlog.entriesPath(b.index, b.width), b.bytes);
    size = out.size;
  }
  const appendMs = performance.now() - t0;
  // What a log of that size publishes: its tiles and bundles at their latest width.
  let tileBytes = 0;
  let bundleBytes = 0;
  for (const t of tlog.tilesOf(size)) tileBytes += files.get(tlog.tilePath(t.level, t.index, t.width)).length;
  for (let i = 0; i * 256 < size; i += 1) bundleBytes += files.get(tlog.entriesPath(i, Math.min(256, size - i * 256))).length;

  const key = parseSignerKey(await generateSignerKey('bench.persona-books.test'));
  const origin = 'bench.persona-books.test/log';
  const root = await new tlog.TiledTree(hasher, source, size).root();
  const checkpoint = await tlog.signNote(tlog.formatCheckpoint({ origin, size, root, extensions: [] }), [key.signer]);

  const a0 = performance.now();
  const report = await tlog.auditLog({
    hasher,
    reader: { ...source, checkpoint: async () => checkpoint },
    origin,
    verifiers: [key.verifier],
    verify: tlog.webEd25519Verify,
  });
  const auditMs = performance.now() - a0;

  // The browser's check, against the log served as static files.
  const { build } = await import('rolldown');
  const bundleFile = path.join(tmp, 'log-check.js');
  await build({ input: path.join(here, 'log/browser-check.mjs'), output: { file: bundleFile, format: 'esm' }, logLevel: 'silent' });
  const { readFileSync } = await import('node:fs');
  const script = readFileSync(bundleFile);
  const server = http.createServer((req, res) => {
    if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><script type="module" src="/check.js"></script>');
    if (req.url === '/check.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    if (req.url === '/log/checkpoint') return res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(checkpoint);
    const bytes = req.url.startsWith('/log/') ? files.get(req.url.slice('/log/'.length)) : undefined;
    if (!bytes) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const checks = [];
  try {
    for (let run = 0; run < runs; run += 1) {
      // A fresh context each run: nothing cached, as a buyer's first visit.
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${base}/`);
      await page.waitForFunction(() => typeof window.checkInclusion === 'function');
      const index = Math.floor(((run + 1) / (runs + 1)) * size);
      checks.push(
        await page.evaluate((input) => window.checkInclusion(input), { base: `${base}/log`, origin, vkey: tlog.formatVerifierKey(key.verifier), index }),
      );
      await context.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
  return { size, appendMs, tileBytes, bundleBytes, auditMs, audit: report, checks };
}
