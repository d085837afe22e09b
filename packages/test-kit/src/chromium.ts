// How the shop's browser journeys, benchmarks and scripts run Chromium: the machine's own binary
// (Debian's `chromium`, or CHROMIUM_PATH), headless, with nothing reaching out to the network.
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * What the browser suites drive: Debian's `chromium-headless-shell` when installed (the same Blink
 * and V8 without the desktop browser's shell, as playwright's own headless runs use), else
 * CHROMIUM_PATH. Measured on the two-core machine (2026-12-07): the storefront suite alone took
 * 113 s of CPU under the shell against 238 s under `chromium --headless`, the accessibility suite
 * 132 s against 162 s, with the same tests passing. CHROMIUM_PATH, when set, wins. The benchmarks
 * keep the full browser (Lighthouse measures what a visitor's browser does).
 */
export const TEST_CHROMIUM_PATH =
  process.env.CHROMIUM_PATH || (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : CHROMIUM_PATH);

export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
