// The layout people see, in real Chromium (embedded shop), at phone, tablet and desktop widths:
// no page scrolls sideways, nothing sticks out of the window, no image is drawn outside its box,
// no text needs an emoji font, no console error. SCREENSHOTS=1 (npm run screenshots) also writes
// every page at every width to e2e/.screenshots/<width>/, so a person can look at all of them.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Book } from '@persona/contracts';
import { startShop, type RunningShop } from '@persona/launcher';
import { launchChromium, open, trackRequests } from './support/browser';
import { layoutReport } from './support/layout';
import { fromShopTemplate } from './support/shared-fixtures';
import { buyPersonaThroughApi, fetchAllBooks } from './support/shop';

const ADMIN = { email: 'layout@persona-books.in', password: 'every width please', name: 'Lata' };
const WIDTHS = [360, 390, 768, 1366] as const;
const SHOTS = process.env.SCREENSHOTS ? path.resolve(__dirname, '..', '.screenshots') : null;

let shop: RunningShop;
let browser: Browser;
let dataDir: string;
let books: Book[];
let personaId: string;
/** A printed copy's order: its page has every after-sale form (refund, re-issue, cancel the copy). */
let printedOrderId: string;
let adminToken: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'persona-layout-'));
  // The run's template (migrated, seeded): this suite's administrator is added to it at start.
  await fromShopTemplate(path.join(dataDir, 'shop'));
  shop = await startShop({
    dataDir: path.join(dataDir, 'shop'),
    port: 0,
    host: '127.0.0.1',
    env: { ...process.env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: ADMIN.name },
  });
  books = await fetchAllBooks(shop.url);
  ({ personaId } = await buyPersonaThroughApi(shop.url, { bookId: books[0]!._id, fullName: 'Kiran Das', email: 'kiran@example.com' }));
  ({ orderId: printedOrderId } = await buyPersonaThroughApi(shop.url, {
    bookId: books[1]!._id,
    fullName: 'Kiran Das',
    email: 'kiran@example.com',
    deliveryType: 'physical',
  }));
  const login = await fetch(`${shop.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  adminToken = ((await login.json()) as { data: { token: string } }).data.token;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await shop?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The pages of this suite, each followed from its creation so a check can wait for its requests to end. */
const requests = new WeakMap<Page, ReturnType<typeof trackRequests>>();
function followed(page: Page): Page {
  requests.set(page, trackRequests(page));
  return page;
}

/** Lays the page out, writes its screenshot when asked, and answers what is wrong with it (empty when nothing). */
async function problemsOf(page: Page, width: number, name: string, errors: string[]): Promise<string[]> {
  const network = requests.get(page)!;
  await network.quiet();
  // Lazy images below the fold load too, so their boxes are checked with their pictures in them.
  await page.evaluate(() => document.querySelectorAll('img[loading="lazy"]').forEach((img) => ((img as HTMLImageElement).loading = 'eager')));
  await network.quiet();
  await page.evaluate(() => Promise.all([...document.images].map((img) => img.decode().catch(() => undefined))));
  if (SHOTS) {
    const dir = path.join(SHOTS, String(width));
    await mkdir(dir, { recursive: true });
    await page.screenshot({ path: path.join(dir, `${name.replace(/[^\w-]+/g, '_').replace(/^_|_$/g, '') || 'home'}.png`), fullPage: true });
  }
  const report = await layoutReport(page);
  const problems = [
    ...(report.scrollWidth > report.width ? [`scrolls sideways: ${report.scrollWidth} px wide in a ${report.width} px window`] : []),
    ...report.overflowing.map((e) => `sticks out of the window: ${e}`),
    ...report.imagesOutside.map((e) => `image outside its box: ${e}`),
    ...report.emoji.map((e) => `needs an emoji font: ${e}`),
    ...report.oversizedChoices.map((e) => `a choice drawn too large: ${e}`),
    ...errors.splice(0),
  ];
  return problems.map((p) => `${name} at ${width} px: ${p}`);
}

describe('every page at every width', () => {
  for (const width of WIDTHS) {
    it(`the storefront at ${width} px`, async () => {
      const context = await browser.newContext({ baseURL: shop.url, viewport: { width, height: width < 800 ? 780 : 900 } });
      const page = followed(await context.newPage());
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(`console error: ${m.text()}`);
      });
      page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
      const book = books.find((b) => b.coverImage) ?? books[0]!;
      const problems: string[] = [];
      try {
        for (const url of [
          '/',
          '/books',
          `/books?tag=fiction&sort=price-asc`,
          `/book/${book._id}`,
          `/read/${book._id}`,
          `/checkout/${book._id}`,
          '/faqs',
          '/shipping',
          '/refund-policy',
          '/privacy-policy',
          '/terms',
          '/about-us',
          '/contact-us',
          '/verify',
          '/my-personas',
          `/send-persona?personaId=${personaId}`,
          '/definitely/not/a/page',
        ]) {
          await open(page, url);
          problems.push(...(await problemsOf(page, width, url, errors)));
        }
        // The checkout with the printed copy's address fields open.
        await open(page, `/checkout/${book._id}`);
        await page.getByRole('main').getByRole('radio', { name: 'Physical' }).check();
        problems.push(...(await problemsOf(page, width, '/checkout (physical)', errors)));
      } finally {
        await context.close();
      }
      expect(problems).toEqual([]);
    }, 120_000);
  }

  /** A browser context signed in as the administrator (the admin app reads its token from storage). */
  async function adminContext(viewport: { width: number; height: number }) {
    const context = await browser.newContext({ baseURL: shop.url, viewport });
    await context.addInitScript(
      ([token, admin]) => {
        localStorage.setItem('token', token);
        localStorage.setItem('admin', admin);
      },
      [adminToken, JSON.stringify({ name: ADMIN.name, email: ADMIN.email })] as const,
    );
    return context;
  }

  for (const width of WIDTHS) {
    it(`the admin app at ${width} px`, async () => {
      const context = await adminContext({ width, height: width < 800 ? 780 : 900 });
      const page = followed(await context.newPage());
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
      const problems: string[] = [];
      try {
        for (const [url, ready] of [
          ['/admin', 'Admin Dashboard'],
          ['/admin/books', 'All Books'],
          ['/admin/categories', null],
          ['/admin/orders', null],
          ['/admin/feedbacks', null],
          ['/admin/subscribers', null],
          ['/admin/audit', null],
          ['/admin/reports', 'Reports'],
          ['/admin/coupons', 'Coupons'],
          [`/admin/orders/${printedOrderId}`, null],
        ] as const) {
          await page.goto(url);
          await page
            .getByRole('heading', { level: 1, ...(ready ? { name: ready } : {}) })
            .first()
            .waitFor();
          problems.push(...(await problemsOf(page, width, url, errors)));
        }
        await page.goto('/admin/login');
      } finally {
        await context.close();
      }
      expect(problems).toEqual([]);
    }, 120_000);
  }

  it('the admin menu on a phone is a drawer behind a Menu button: it opens, leads to a page and closes, Escape closes it', async () => {
    const context = await adminContext({ width: 390, height: 780 });
    const page = followed(await context.newPage());
    try {
      await page.goto('/admin');
      await page.getByRole('heading', { level: 1, name: 'Admin Dashboard' }).waitFor();
      const button = page.getByRole('button', { name: 'Menu' });
      const books = page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Books' });
      expect(await button.getAttribute('aria-expanded')).toBe('false');
      expect(await books.isVisible()).toBe(false);
      await button.click();
      expect(await page.getByRole('button', { name: 'Close' }).getAttribute('aria-expanded')).toBe('true');
      expect(await books.isVisible()).toBe(true);
      expect((await layoutReport(page)).scrollWidth).toBeLessThanOrEqual(390);
      await books.click();
      await page.getByRole('heading', { level: 1, name: 'All Books' }).waitFor();
      expect(await books.isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Menu' }).click();
      expect(await books.isVisible()).toBe(true);
      await page.keyboard.press('Escape');
      expect(await books.isVisible()).toBe(false);
      expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('false');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('the admin login at phone widths, and the books grid: covers in their boxes, the logo drawn', async () => {
    const problems: string[] = [];
    for (const width of [360, 390]) {
      const context = await browser.newContext({ baseURL: shop.url, viewport: { width, height: 780 } });
      const page = followed(await context.newPage());
      await page.goto('/admin/login');
      await page.getByRole('heading', { level: 1, name: 'Admin login' }).waitFor();
      problems.push(...(await problemsOf(page, width, '/admin/login', [])));
      await page.evaluate(
        ([token, admin]) => {
          localStorage.setItem('token', token);
          localStorage.setItem('admin', admin);
        },
        [adminToken, JSON.stringify({ name: ADMIN.name, email: ADMIN.email })] as const,
      );
      await page.goto('/admin/books');
      await page.getByRole('heading', { level: 1, name: 'All Books' }).waitFor();
      await requests.get(page)!.quiet();
      const report = await layoutReport(page);
      problems.push(...report.imagesOutside.map((e) => `/admin/books at ${width} px: image outside its box: ${e}`));
      problems.push(...report.emoji.map((e) => `/admin/books at ${width} px: needs an emoji font: ${e}`));
      await context.close();
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
