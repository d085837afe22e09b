// How the shop's browser journeys, benchmarks and scripts run Chromium: the machine's own binary
// (Debian's `chromium`, or CHROMIUM_PATH), headless, with nothing reaching out to the network.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

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
