// "Initial JavaScript": the JavaScript a browser loads for the first page
// before any interaction, gzip-compressed. Measured the same way for the
// storefront (served by the gateway) and for a stock Vite React template
// (`npm create vite@latest -- --template react-ts`, copied from
// bench/web/vite-react-ts and built in this run with the repo's own vite and
// @vitejs/plugin-react, no network): headless Chromium loads `/` and every JS
// response until the network is idle is gzipped (level 9) and summed. The
// static view (the built index.html's module script and modulepreloads) is
// reported beside it.
import { cpSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

// One list of Chromium's flags for the whole shop (test-kit's), so the benchmarks run the browser the tests run.
export const { CHROMIUM_PATH, CHROMIUM_ARGS } = createRequire(import.meta.url)('@persona/test-kit');

const gz = (buffer) => gzipSync(buffer, { level: 9 }).length;
export const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** Copies the template into `dir` and builds it there with the workspace's vite and the storefront's @vitejs/plugin-react. */
export async function buildViteTemplate(root, dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.dirname(dir), { recursive: true });
  cpSync(path.join(root, 'bench/web/vite-react-ts'), dir, { recursive: true });
  const fromStorefront = createRequire(path.join(root, 'apps/storefront/package.json'));
  const { build } = await import(pathToFileURL(fromStorefront.resolve('vite')).href);
  const { default: react } = await import(pathToFileURL(fromStorefront.resolve('@vitejs/plugin-react')).href);
  const started = performance.now();
  // The template's own vite.config.ts is `defineConfig({ plugins: [react()] })`.
  await build({ root: dir, configFile: false, logLevel: 'warn', plugins: [react()], build: { outDir: path.join(dir, 'dist'), emptyOutDir: true } });
  return { dist: path.join(dir, 'dist'), buildMs: performance.now() - started };
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** A plain static server for a built SPA (index.html for unknown paths). */
export function serveStatic(dist) {
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = path.join(dist, path.normalize(pathname).replace(/^(\.\.[/\\])+/, ''));
    try {
      if (!statSync(file).isFile()) file = path.join(dist, 'index.html');
    } catch {
      file = path.join(dist, 'index.html');
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) }));
  });
}

/** The module script and modulepreloads named by a built index.html, gzip-summed from `dist`. */
export function staticEntry(dist) {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const srcs = new Set();
  for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
    if (/type=["']?module/.test(tag)) srcs.add(/src=["']?([^"' >]+)/.exec(tag)?.[1]);
  }
  for (const tag of html.match(/<link\b[^>]*>/g) ?? []) {
    if (/rel=["']?modulepreload/.test(tag)) srcs.add(/href=["']?([^"' >]+)/.exec(tag)?.[1]);
  }
  const files = [...srcs].filter(Boolean).map((src) => {
    const body = readFileSync(path.join(dist, src.replace(/^\//, '')));
    return { url: src, raw: body.length, gzip: gz(body) };
  });
  return { files, raw: files.reduce((n, f) => n + f.raw, 0), gzip: files.reduce((n, f) => n + f.gzip, 0) };
}

/** Loads `url` in a fresh browser context and sums every JavaScript response until the network is idle. */
export async function loadedScripts(browser, url) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const pending = [];
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? '';
    const isJs = response.request().resourceType() === 'script' || /javascript|ecmascript/.test(type) || /\.m?js(\?|$)/.test(response.url());
    if (!isJs || response.status() >= 300) return;
    pending.push(
      response.body().then(
        (body) => ({ url: new URL(response.url()).pathname, raw: body.length, gzip: gz(body) }),
        () => undefined,
      ),
    );
  });
  try {
    await page.goto(url, { waitUntil: 'networkidle', timeout: 60_000 });
    const files = (await Promise.all(pending)).filter(Boolean);
    const unique = [...new Map(files.map((f) => [f.url, f])).values()];
    return { files: unique, raw: unique.reduce((n, f) => n + f.raw, 0), gzip: unique.reduce((n, f) => n + f.gzip, 0) };
  } finally {
    await context.close();
  }
}
