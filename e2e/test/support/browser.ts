// Chromium for the browser journeys: the system binary driven by playwright-core.
import { CHROMIUM_ARGS, TEST_CHROMIUM_PATH } from '@persona/test-kit';
import { chromium, type Browser, type Download, type Page } from 'playwright-core';
import { CHROMIUM_SERVER_ENV } from './shared-fixtures';

export { CHROMIUM_ARGS };

/**
 * The run's Chromium (global-setup.ts) when there is one: a connection of this file's own, whose
 * `close` disconnects without stopping the browser; else a browser launched for this file.
 */
export function launchChromium(): Promise<Browser> {
  const server = process.env[CHROMIUM_SERVER_ENV];
  if (server) return chromium.connect(server);
  return chromium.launch({
    executablePath: TEST_CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
}

/**
 * Polls `read` until it deep-equals `expected` (the UI settles asynchronously),
 * then returns the last value read so the test's own assertion shows any difference.
 */
export async function settle<T>(read: () => Promise<T>, expected: T, timeoutMs = 10000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (JSON.stringify(value) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

/** The attribute values of every element matching `selector`, in document order. */
export function attributeList(page: Page, selector: string, attribute: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els, name) => els.map((el) => el.getAttribute(name as string) ?? ''), attribute);
}

/**
 * Closes Chromium without letting a stuck browser hold the suite: on a loaded machine
 * `browser.close()` has been seen to outlast jest's hook timeout, so it gets a deadline.
 */
export async function closeChromium(browser: Browser | undefined, deadlineMs = 20000): Promise<void> {
  if (!browser) return;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), deadlineMs);
  });
  const outcome = await Promise.race([browser.close().then(() => 'closed' as const), deadline]);
  clearTimeout(timer);
  if (outcome === 'late') process.stderr.write(`Chromium did not close within ${deadlineMs} ms; leaving it to exit with the test process\n`);
}

/** Hooks that start or stop the whole shop and a browser need more than a test's time on a busy machine. */
export const SHOP_HOOK_TIMEOUT_MS = 120000;

/**
 * Waits until the storefront's code has taken over the page (`<html data-interactive>`, set
 * after hydration): a server-rendered page paints and shows its controls before that, and a
 * key pressed or a field typed in before it reaches no handler.
 */
export async function interactive(page: Page, timeoutMs = 15000): Promise<void> {
  await page.locator('html[data-interactive]').waitFor({ state: 'attached', timeout: timeoutMs });
}

/** Opens a storefront page and waits until its code has taken over (see `interactive`). */
export async function open(page: Page, url: string, options?: Parameters<Page['goto']>[1]) {
  const response = await page.goto(url, options);
  await interactive(page);
  return response;
}

/**
 * Moves a page already showing one of the shop's apps to `url` the way its own links do, without a
 * new document: `history.pushState`, then the `popstate` event both apps' routers follow (react-router
 * reads the new location, and the index its history keeps in `history.state`). A new document costs
 * Chromium ~150 ms of CPU to load and hydrate, and any script a test injected (axe) is compiled and
 * warmed up again in it. What the caller waits for next must be something the page it leaves cannot
 * show (its own heading), or the wait may end on the old page.
 */
export async function routeTo(page: Page, url: string): Promise<void> {
  await page.evaluate((to) => {
    const { idx } = (window.history.state ?? {}) as { idx?: number };
    window.history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx: (idx ?? 0) + 1 }, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, url);
}

/**
 * Follows a page's requests from now on, to wait until none is in flight for `quietMs` (default
 * 150 ms): playwright's `networkidle` asks for 500 ms of quiet, and a suite that waits for it twice
 * on each of a hundred page loads spends most of its time idle (the layout suite: 99 s of wall
 * time for 54 s of CPU on two cores, 2026-12-07).
 */
export function trackRequests(page: Page): { quiet(quietMs?: number, timeoutMs?: number): Promise<void> } {
  const inflight = new Set<unknown>();
  let changed = Date.now();
  page.on('request', (request) => {
    inflight.add(request);
    changed = Date.now();
  });
  const done = (request: unknown) => {
    inflight.delete(request);
    changed = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    async quiet(quietMs = 150, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (inflight.size === 0 && Date.now() - changed >= quietMs) return;
        if (Date.now() > deadline) throw new Error(`the page still had ${inflight.size} request(s) in flight after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}

/** A download's bytes, read through playwright (the run's Chromium is remote: no local path to read). */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
