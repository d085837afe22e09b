// Once per `npm test` of this workspace, before any suite (jest's globalSetup, in jest's own process):
// - one Chromium, as a playwright server every suite connects to (`launchChromium`), instead of a
//   browser launched per file;
// - the shop's data directory as a fresh start leaves it (databases migrated, the demo catalogue
//   seeded, the administrator made), copied for each suite's shop (`startTestShop`, `startOwnShop`)
//   so that each still gets a shop of its own, started in a second or two instead of several.
// globalTeardown (global-teardown.ts) stops the browser and removes the copy's source.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_ARGS, TEST_CHROMIUM_PATH, probeServers } from '@persona/test-kit';
import { chromium, type BrowserServer } from 'playwright-core';
import { SHOP_TEMPLATE_ENV, CHROMIUM_SERVER_ENV, TEST_ADMIN_ENV } from './shared-fixtures';

export interface SharedFixtures {
  browserServer: BrowserServer | null;
  templateRoot: string | null;
}

declare global {
  var personaE2eFixtures: SharedFixtures | undefined;
}

export default async function globalSetup(): Promise<void> {
  const fixtures: SharedFixtures = { browserServer: null, templateRoot: null };
  globalThis.personaE2eFixtures = fixtures;
  // What the preset's globalSetup does, which this one replaces: the servers probed once for the run.
  await probeServers();
  if (process.env.STOREFRONT_E2E_URL) return;
  // The shops under test do not shed load for a slow event loop (their workers inherit this): on two
  // cores running two lanes of tests, a shop's loop is at times starved for a second by its
  // neighbours, which is the machine, not the shop. Shedding has tests of its own (service-kit's
  // load-shedding test; the launcher's start-shop test checks the shop's gateway does it).
  process.env.SHED_EVENT_LOOP_DELAY_MS ??= '0';
  // Each suite's shop starts its embedded database with a 16 MB buffer pool, not 128 MB to zero at
  // every start (half a second of CPU a shop; the demo catalogue fits many times over).
  process.env.PGLITE_SHARED_BUFFERS ??= '16MB';
  // Nor do their build threads warm up (a second of CPU each, three a shop): a suite makes a few
  // Personas, and the threads' warm-up has its own test (personalization's build-pool test).
  process.env.BUILD_WARM_UP ??= 'false';

  fixtures.browserServer = await chromium.launchServer({ executablePath: TEST_CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
  process.env[CHROMIUM_SERVER_ENV] = fixtures.browserServer.wsEndpoint();

  fixtures.templateRoot = await mkdtemp(path.join(os.tmpdir(), 'persona-e2e-template-'));
  const dataDir = path.join(fixtures.templateRoot, 'shop');
  const { startShop } = await import('@persona/launcher');
  const shop = await startShop({ dataDir, port: 0, host: '127.0.0.1', logLevel: 'error', env: { ...process.env, ...TEST_ADMIN_ENV } });
  await shop.close();
  process.env[SHOP_TEMPLATE_ENV] = dataDir;
}
