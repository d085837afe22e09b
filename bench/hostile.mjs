// The `hostile` group (issue 21): while `clients` attackers send the worst files the upload limit
// allows, back to back, to one route of the embedded shop for `seconds`, a visitor asks for
// GET /api/categories through the gateway at a fixed rate. Measured: that visitor's p50 and p99
// (against the same visitor on the quiet shop, in the same run), how far the shop's resident
// memory grows above its quiet level, and what each bomb was answered (every one must get its
// 4xx: a 2xx read it, a 5xx or a dropped connection failed it).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { fetch, FormData } from 'undici';
import { fixedRate } from './load.mjs';

const require = createRequire(import.meta.url);
const MB = 1024 * 1024;

/** Resident memory of a process, MB (Linux). */
export function rssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return line ? Number(line.split(/\s+/)[1]) / 1024 : NaN;
}

/**
 * The worst files at each limit: a PDF of Flate bombs filling the 10 MB upload (≈ 10 GB inflated;
 * the reader must stop at its 256 MB budget) for the public verify route, and the same as a
 * book's full PDF for the administrator's upload.
 */
export function worstFiles() {
  const { flateBombPdf } = require('@persona/test-kit');
  const atLimit = 10 * MB - 4096;
  return { verify: flateBombPdf(atLimit), fullPdf: flateBombPdf(atLimit) };
}

/**
 * Runs one attack: `attack` names what the attackers in a process of their own (hostile-attackers.mjs:
 * building 10 MB bodies must not slow the visitor's own clock) send, each client from its own
 * loopback address, so the per-client limits see `clients` clients.
 */
export async function underAttack({ url, pid, attack, clients = 10, seconds = 30, rate = 50 }) {
  const quietRss = [];
  for (let i = 0; i < 8; i += 1) {
    quietRss.push(rssMb(pid));
    await new Promise((r) => setTimeout(r, 250));
  }
  const quiet = await fixedRate(url, '/api/categories', { rate, seconds: Math.min(10, seconds), connections: 8 });
  const baseRss = Math.max(...quietRss);

  let peakRss = baseRss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMb(pid));
  }, 200);
  const attackers = new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL('./hostile-attackers.mjs', import.meta.url))], {
      env: { ...process.env, HOSTILE: JSON.stringify({ url, clients, seconds, ...attack }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`the attackers exited with ${code}`))));
  });
  // The visitor starts once the attackers have sent their first bombs.
  await new Promise((r) => setTimeout(r, 1000));
  const loaded = await fixedRate(url, '/api/categories', { rate, seconds: seconds - 2, connections: 8 });
  const answers = await attackers;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, rssMb(pid));
  const sent = Object.values(answers).reduce((a, b) => a + b, 0);
  const refused = Object.entries(answers)
    .filter(([k]) => /^4\d\d/.test(k))
    .reduce((n, [, v]) => n + v, 0);
  return { quiet, loaded, baseRss, peakRss, growthMb: peakRss - baseRss, sent, refused, answers };
}

/** One bomb to the public verify route. */
export function verifyAttack(url, bytes) {
  return async (agent) => {
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'copy.pdf');
    const res = await fetch(`${url}/api/personas/verify`, { method: 'POST', body: form, dispatcher: agent });
    const body = await res.json().catch(() => ({}));
    return `${res.status} ${body.code ?? ''}`.trim();
  };
}

/** One bomb as a book's full PDF, with an administrator's token. */
export function adminUploadAttack(url, bytes, { token, categoryId }) {
  return async (agent) => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ title: 'A bomb', author: 'Nobody', description: 'x', category: categoryId, price: '100' })) form.append(k, v);
    form.append('fullPdf', new Blob([bytes], { type: 'application/pdf' }), 'book.pdf');
    const res = await fetch(`${url}/api/books`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` }, dispatcher: agent });
    const body = await res.json().catch(() => ({}));
    return `${res.status} ${body.code ?? ''}`.trim();
  };
}
