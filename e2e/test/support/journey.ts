// The set-up every browser journey repeats: the whole shop started before the file's tests (the
// catalogue read once), Chromium launched, a fresh browser context and page before each test and
// closed after it; everything stopped after the file. `browserJourney` registers those hooks and
// answers getters for what they made, read inside tests and hooks (never at the file's top level).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import type { Book } from '@persona/contracts';
import { startShop } from '@persona/launcher';
import { closeChromium, launchChromium, SHOP_HOOK_TIMEOUT_MS } from './browser';
import { layoutReport } from './layout';
import { fromShopTemplate } from './shared-fixtures';
import { fetchAllBooks, startTestShop, TEST_ADMIN, type RunningShop } from './shop';

/** What a journey needs of a shop: where it answers and how to stop it. */
export interface JourneyShop {
  url: string;
  close(): Promise<void>;
}

export type Viewport = { width: number; height: number };

export interface JourneyOptions<S extends JourneyShop> {
  /** Starts the shop (default `startTestShop`). */
  start?: () => Promise<S>;
  /** Read the catalogue once the shop is up (`books`; default true). */
  books?: boolean;
  /** Runs in the same hook once the shop is up (and the catalogue read), before Chromium is launched. */
  prepare?: (shop: S, books: Book[]) => Promise<void>;
  /** Launch Chromium (default true). */
  browser?: boolean;
  /** The page opened before each test; null: none, the tests call `openPage` themselves (default 1280×900). */
  viewport?: Viewport | null;
  /** More options for each test's browser context (acceptDownloads, …). */
  contextOptions?: BrowserContextOptions;
  /** Runs on each test's context before its page opens (an administrator's session, …). */
  onContext?: (context: BrowserContext) => Promise<void>;
}

export interface Journey<S extends JourneyShop> {
  readonly shop: S;
  /** The catalogue as the API lists it, newest first (empty when `books` is off). */
  readonly books: Book[];
  readonly browser: Browser;
  /** The current test's context and page. */
  readonly context: BrowserContext;
  readonly page: Page;
  /** Opens the test's context and page at `viewport` (what the beforeEach does when a viewport is given). */
  openPage(viewport: Viewport, options?: BrowserContextOptions): Promise<Page>;
  /** The page's main landmark. */
  main(): Locator;
  /** A field in the main landmark by its exact label. */
  field(label: string): Locator;
}

/** Registers the shop's and the browser's hooks for the current test file (see the module's comment). */
export function browserJourney(options?: JourneyOptions<RunningShop>): Journey<RunningShop>;
export function browserJourney<S extends JourneyShop>(options: JourneyOptions<S> & { start: () => Promise<S> }): Journey<S>;
export function browserJourney<S extends JourneyShop>(options: JourneyOptions<S> = {}): Journey<S> {
  const start = options.start ?? (startTestShop as unknown as () => Promise<S>);
  const viewport = options.viewport === undefined ? { width: 1280, height: 900 } : options.viewport;
  let shop: S | undefined;
  let books: Book[] | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;

  const openPage = async (size: Viewport, more?: BrowserContextOptions): Promise<Page> => {
    context = await browser!.newContext({ baseURL: shop!.url, viewport: size, ...options.contextOptions, ...more });
    await options.onContext?.(context);
    page = await context.newPage();
    return page;
  };

  beforeAll(async () => {
    shop = await start();
    books = options.books === false ? [] : await fetchAllBooks(shop.url);
    await options.prepare?.(shop, books);
    if (options.browser !== false) browser = await launchChromium();
  }, SHOP_HOOK_TIMEOUT_MS);

  afterAll(async () => {
    await closeChromium(browser);
    await shop?.close();
  }, SHOP_HOOK_TIMEOUT_MS);

  if (viewport && options.browser !== false) {
    beforeEach(async () => {
      await openPage(viewport);
    });
  }

  afterEach(async () => {
    await context?.close();
  });

  const journey: Journey<S> = {
    get shop() {
      return shop!;
    },
    get books() {
      return books!;
    },
    get browser() {
      return browser!;
    },
    get context() {
      return context!;
    },
    get page() {
      return page!;
    },
    openPage,
    main: () => page!.getByRole('main'),
    field: (label: string) => journey.main().getByLabel(label, { exact: true }),
  };
  return journey;
}

/** A shop of this file's own, started in this process in a fresh directory (removed on close). */
export interface OwnShop extends JourneyShop {
  /** The shop's data directory: its database, files and e-mails. */
  dataDir: string;
}

/**
 * Starts the embedded shop with `startShop` (always in this process, on 127.0.0.1) in a fresh
 * temporary directory named from `prefix`, with the test administrator (TEST_ADMIN) and `env`
 * over `process.env`; `before` runs on the data directory before the shop starts (a seed).
 */
export async function startOwnShop(prefix: string, env: NodeJS.ProcessEnv = {}, before?: (dataDir: string) => Promise<unknown>): Promise<OwnShop> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), prefix));
  const dataDir = path.join(tmp, 'shop');
  const removeTmp = () => rm(tmp, { recursive: true, force: true });
  try {
    // A seed writes into a shop that has never started; without one, the run's template saves the first start.
    if (before) await before(dataDir);
    else await fromShopTemplate(dataDir);
    const shop = await startShop({
      dataDir,
      port: 0,
      host: '127.0.0.1',
      env: { ...process.env, ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password, ADMIN_NAME: TEST_ADMIN.name, ...env },
    });
    return {
      url: shop.url,
      dataDir,
      close: async () => {
        try {
          await shop.close();
        } finally {
          await removeTmp();
        }
      },
    };
  } catch (error) {
    await removeTmp();
    throw error;
  }
}

/** Signs the administrator in on every page of `context`, as the login page would leave it (the token in local storage). */
export async function signInAsAdmin(context: BrowserContext, token: string, admin: { name: string; email: string } = TEST_ADMIN): Promise<void> {
  await context.addInitScript(
    ([value, who]) => {
      localStorage.setItem('token', value);
      localStorage.setItem('admin', who);
    },
    [token, JSON.stringify({ name: admin.name, email: admin.email })] as const,
  );
}

/** Text with its runs of white space made one space, as a reader sees it. */
export const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A page of its own at `width` px, with the console's errors collected; `close` closes its context. */
export interface PageAtWidth {
  page: Page;
  errors: string[];
  close: () => Promise<void>;
}

/**
 * Opens a page at `width` px (780 px high on a phone, else 900) in a context of its own on the
 * journey's shop and browser, the administrator signed in when `adminToken` is given; the console's
 * errors are collected, but for failed loads (a refused request may be the subject of the test).
 */
export async function pageAtWidth(
  journey: Pick<Journey<JourneyShop>, 'browser' | 'shop'>,
  width: number,
  options: { adminToken?: string; acceptDownloads?: boolean } = {},
): Promise<PageAtWidth> {
  const context = await journey.browser.newContext({
    baseURL: journey.shop.url,
    viewport: { width, height: width < 800 ? 780 : 900 },
    ...(options.acceptDownloads ? { acceptDownloads: true } : {}),
  });
  if (options.adminToken !== undefined) await signInAsAdmin(context, options.adminToken);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  return { page, errors, close: () => context.close() };
}

/**
 * A check that nothing on a page scrolls sideways or sticks out of the window, once the page has
 * settled; with `shotsDir` (SCREENSHOTS=1) it writes the page's screenshot there first, as `<name>-<width>.png`.
 */
export function layoutCheck(shotsDir: string | null) {
  return async (page: Page, width: number, name: string): Promise<void> => {
    await page.waitForLoadState('networkidle');
    if (shotsDir) {
      await mkdir(shotsDir, { recursive: true });
      await page.screenshot({ path: path.join(shotsDir, `${name}-${width}.png`), fullPage: true });
    }
    const report = await layoutReport(page);
    expect({ name, width, scrollWidth: report.scrollWidth, overflowing: report.overflowing }).toEqual({ name, width, scrollWidth: width, overflowing: [] });
  };
}
