// Chromium for the browser journeys: the system binary driven by playwright-core.
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
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
