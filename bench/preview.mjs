// The `preview` group: the dedication page's live preview under 10 concurrent typists. Each typist
// types names letter by letter as a person does (a key every 180–260 ms) into the storefront's
// logic: a preview is asked for once typing has paused PREVIEW_DEBOUNCE_MS (the page's own
// value), and a newer text aborts the request under way. Measured: the time from the last key of
// a name to its image (debounce included: what the buyer waits for), and every answered request.
// Every name is new (a random suffix), so the cache answers none of the final images.
import { randomBytes } from 'node:crypto';
import { percentile } from './scale.mjs';

/** The storefront's debounce (apps/storefront/src/components/persona/use-dedication-preview.ts). */
export const PREVIEW_DEBOUNCE_MS = 120;

const FIRST = ['Ananya', 'अनन्या', 'Zoë', 'मीरा', 'Ravi', 'তানিয়া', 'Meera', 'தமிழ்', 'مريم', 'Ünal'];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One typist: `names` names, each typed key by key; the latency after each name's last key. */
async function typist(url, bookId, index, names, requests) {
  const afterStop = [];
  for (let n = 0; n < names; n += 1) {
    const name = `${FIRST[(index + n) % FIRST.length]} ${randomBytes(3).toString('hex')}`;
    const message = n % 2 ? `With love, ${FIRST[(index + n + 3) % FIRST.length]}` : '';
    let inFlight = null;
    let timer = null;
    let lastKeyAt = 0;
    let done;
    const finished = new Promise((resolve) => (done = resolve));
    const ask = (text) => {
      inFlight?.abort();
      const controller = new AbortController();
      inFlight = controller;
      const sent = performance.now();
      fetch(`${url}/api/personas/preview`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ bookId, name: text, ...(message ? { message } : {}) }),
        signal: controller.signal,
      })
        .then(async (res) => {
          const body = new Uint8Array(await res.arrayBuffer());
          if (!res.ok || body[1] !== 0x50) throw new Error(`preview answered ${res.status}`);
          requests.push(performance.now() - sent);
          if (text === name) done(performance.now() - lastKeyAt);
        })
        .catch((err) => {
          if (err.name !== 'AbortError') throw err;
        });
    };
    const chars = [...name];
    for (let i = 1; i <= chars.length; i += 1) {
      const text = chars.slice(0, i).join('').trim();
      lastKeyAt = performance.now();
      clearTimeout(timer);
      timer = setTimeout(() => ask(text), PREVIEW_DEBOUNCE_MS);
      if (i < chars.length) await sleep(180 + Math.random() * 80);
    }
    afterStop.push(await finished);
    await sleep(400);
  }
  return afterStop;
}

/** p50/p95 of the wait after typing stops, and of every request, for `typists` at once. */
export async function previewUnderTypists(url, bookId, { typists = 10, names = 6 } = {}) {
  // One image first, as a shop in use has drawn before: the renderer's modules are loaded.
  await fetch(`${url}/api/personas/preview`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ bookId, name: 'Warm Up' }),
  });
  const requests = [];
  const afterStop = (await Promise.all(Array.from({ length: typists }, (_, i) => typist(url, bookId, i, names, requests)))).flat();
  return {
    names: afterStop.length,
    requests: requests.length,
    stopP50: percentile(afterStop, 50),
    stopP95: percentile(afterStop, 95),
    requestP50: percentile(requests, 50),
    requestP95: percentile(requests, 95),
  };
}
