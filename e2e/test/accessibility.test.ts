// Accessibility in real Chromium (embedded shop): axe-core's WCAG 2.0/2.1 A and AA rules and its
// best practices on every storefront and admin page, in the states a visitor meets (errors shown,
// a toast, the mobile menu open), on a desktop and a phone viewport: 0 serious or critical
// violations, every form control named. Then the keyboard alone: the sample reader, the checkout's
// test-mode payment dialog, the admin's confirm dialog and sample-page editor, and the storefront's
// mobile menu. A11Y_VERBOSE=1 also lists what axe left for a person to review (text on gradients).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { Book } from '@persona/contracts';
import { startShop, type RunningShop } from '@persona/launcher';
import { launchChromium, routeTo, settle } from './support/browser';
import { buyPersonaThroughApi, fetchAllBooks } from './support/shop';
import { fromShopTemplate } from './support/shared-fixtures';
import { sampleWords } from './support/storefront-rules';
import { checkPage, describeNeedsReview, describeViolations, summarize, type PageCheck } from './support/accessibility';

const ADMIN = { email: 'a11y@persona-books.in', password: 'keyboard only please', name: 'Ira' };
const VIEWPORTS = [
  { name: 'desktop 1280×900', width: 1280, height: 900 },
  { name: 'mobile 390×844', width: 390, height: 844 },
] as const;
const BLOCKING = ['critical', 'serious'] as const;

let shop: RunningShop;
let browser: Browser;
let dataDir: string;
let books: Book[];
let readable: Book;
let order: { orderId: string; personaId: string };
let adminToken: string;
const checks: PageCheck[] = [];

async function post<T>(urlPath: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${shop.url}${urlPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${urlPath} answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: T }).data;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'persona-a11y-'));
  // The run's template (migrated, seeded): this suite's administrator is added to it at start.
  await fromShopTemplate(path.join(dataDir, 'shop'));
  shop = await startShop({
    dataDir: path.join(dataDir, 'shop'),
    port: 0,
    host: '127.0.0.1',
    env: { ...process.env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: ADMIN.name },
  });
  books = await fetchAllBooks(shop.url);
  // A sample of several screens at any width.
  readable = books.find((b) => sampleWords(b.sampleContent).length >= 600)!;
  order = await buyPersonaThroughApi(shop.url, { bookId: books[0]!._id, fullName: 'Kiran Das', email: 'kiran@example.com' });
  adminToken = (await post<{ token: string }>('/api/admin/login', { email: ADMIN.email, password: ADMIN.password })).token;
  // Something on every admin list: a message, a subscriber (orders, books and the audit log have theirs).
  await post('/api/feedback', { name: 'Nisha', email: 'nisha@example.com', message: 'Do you ship to Goa?' });
  await post('/api/newsletter/subscribe', { email: 'reader@example.com' });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  if (checks.length) console.log(summarize(checks));
  await browser?.close();
  await shop?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Records the page's checks and fails on any serious or critical violation or unnamed control, listing them. */
function expectNoBlockingProblems(found: PageCheck[]) {
  checks.push(...found);
  const all = describeViolations(found);
  if (all) console.log(`axe findings:\n${all}`);
  if (process.env.A11Y_VERBOSE) console.log(`axe needs review:\n${describeNeedsReview(found)}`);
  expect(describeViolations(found, BLOCKING)).toBe('');
}

async function newPage(viewport: (typeof VIEWPORTS)[number]): Promise<{ context: BrowserContext; page: Page }> {
  // bypassCSP: the shop's CSP (rightly) refuses inline scripts, and axe is injected as one.
  // Reduced motion: the shop's styles then make every transition instant, so axe reads the colours
  // a page settles on, never a frame of a button changing style as the page updates (a success page
  // whose Persona became ready mid-check once read 2.13:1 halfway from primary to outline).
  const context = await browser.newContext({
    baseURL: shop.url,
    viewport: { width: viewport.width, height: viewport.height },
    bypassCSP: true,
    reducedMotion: 'reduce',
  });
  return { context, page: await context.newPage() };
}

const h1 = (page: Page, name?: string | RegExp) => page.getByRole('heading', { level: 1, ...(name ? { name } : {}) }).first();

describe('axe finds no serious or critical violation', () => {
  for (const viewport of VIEWPORTS) {
    it(`on every storefront page (${viewport.name})`, async () => {
      const { context, page } = await newPage(viewport);
      const found: PageCheck[] = [];
      const check = async (label: string) => found.push(await checkPage(page, label, viewport.name));
      // Within a sweep the page moves as the app's links move it (routeTo), so axe stays loaded and
      // warm; `load` opens a new document where the page before could answer `ready` too.
      const visit = async (url: string, ready: () => Promise<unknown>, label = url, how: 'route' | 'load' = 'route') => {
        if (how === 'load') await page.goto(url);
        else await routeTo(page, url);
        await ready();
        await check(label);
      };
      const book = books[0]!;
      const main = () => page.getByRole('main');
      try {
        await visit('/', () => page.locator('[role="tabpanel"] a[data-book-id]').first().waitFor(), '/', 'load');
        if (viewport.width < 900) {
          await page.getByRole('button', { name: 'Open menu' }).click();
          await page.getByRole('navigation', { name: 'Mobile' }).waitFor();
          await check('/ (mobile menu open)');
        }
        await visit('/books', () => page.locator('article[data-book-id]').first().waitFor(), '/books', 'load');
        const word = book.title.split(/\s+/).find((w) => w.length > 3) ?? book.title;
        await visit(`/books?search=${encodeURIComponent(word)}`, () => page.locator('article[data-book-id]').first().waitFor(), '/books?search=…', 'load');
        await visit(`/book/${book._id}`, () => h1(page, book.title).waitFor(), '/book/:id');
        await visit(
          `/read/${readable._id}`,
          () =>
            page
              .getByText(/^Page 1 of \d+$/)
              .first()
              .waitFor(),
          '/read/:id',
        );
        await visit(`/checkout/${book._id}`, () => main().getByText(book.title, { exact: true }).first().waitFor(), '/checkout/:id', 'load');
        await main().getByRole('radio', { name: 'Physical' }).check();
        await main().getByLabel('Address Line 1', { exact: true }).waitFor();
        await check('/checkout/:id (physical)');
        await main()
          .getByRole('button', { name: /^Complete Purchase/ })
          .click();
        await main().getByText('Please enter your full name').waitFor();
        await check('/checkout/:id (errors shown)');
        await visit(
          `/payment-success?personaId=${order.personaId}&orderId=${order.orderId}`,
          async () => {
            await h1(page, 'Payment Successful!').waitFor();
            // Its final state: the Persona (bought in beforeAll) ready, with its download.
            await main()
              .getByRole('link', { name: /^Download PDF/ })
              .waitFor({ timeout: 30_000 });
          },
          '/payment-success?…',
        );
        await visit(`/payment-failed?book=${book._id}`, () => h1(page, 'Payment Failed').waitFor(), '/payment-failed?book=…');
        await visit('/send-persona', () => h1(page, 'Find my Persona').waitFor());
        await visit(
          `/send-persona?personaId=${order.personaId}`,
          async () => {
            // The page as the buyer ends up seeing it: ready, with the download (bought in beforeAll).
            await h1(page, 'Your Persona is Ready!').waitFor({ timeout: 30_000 });
            await main()
              .getByRole('link', { name: /^Download PDF/ })
              .waitFor();
          },
          '/send-persona?personaId=…',
        );
        await visit('/verify', () => h1(page, 'Verify a Persona').waitFor());
        await visit('/my-personas', () => h1(page, 'My Personas').waitFor());
        await visit(`/verify/${order.personaId}`, () => main().getByRole('heading', { name: 'Genuine Persona' }).waitFor(), '/verify/:personaId');
        await visit('/contact-us', () => h1(page, 'Contact Us').waitFor());
        await main().getByRole('button', { name: 'Send Message' }).click();
        await main().getByRole('alert').first().waitFor();
        await check('/contact-us (errors shown)');
        await visit('/contact-success', () => h1(page, 'Thank You').waitFor());
        await visit('/faqs', () => h1(page, 'Frequently Asked Questions').waitFor());
        await visit('/shipping', () => h1(page, 'Shipping Information').waitFor());
        await visit('/refund-policy', () => h1(page, 'Refund and Cancellation Policy').waitFor());
        await visit('/about-us', () => h1(page, 'Books that know who they belong to').waitFor());
        await visit('/definitely/not/a/page', () => page.getByRole('heading', { name: 'Oops! Page not found' }).waitFor(), '404');
      } finally {
        await context.close();
      }
      expectNoBlockingProblems(found);
    }, 240_000);

    it(`on every admin page (${viewport.name})`, async () => {
      const { context, page } = await newPage(viewport);
      const found: PageCheck[] = [];
      const check = async (label: string) => found.push(await checkPage(page, label, viewport.name));
      // Within a sweep the page moves as the app's links move it (routeTo), so axe stays loaded and
      // warm; `load` opens a new document where the page before could answer `ready` too.
      const visit = async (url: string, ready: () => Promise<unknown>, label = url, how: 'route' | 'load' = 'route') => {
        if (how === 'load') await page.goto(url);
        else await routeTo(page, url);
        await ready();
        await check(label);
      };
      const main = () => page.getByRole('main');
      const toast = (title: string) => page.getByRole('region', { name: 'Notifications' }).getByText(title, { exact: true }).waitFor();
      try {
        await visit('/admin/login', () => h1(page, 'Admin login').waitFor(), '/admin/login', 'load');
        await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
        await page.getByLabel('Password', { exact: true }).fill('not the password');
        await page.getByRole('button', { name: 'Login' }).click();
        await toast('Login failed');
        await check('/admin/login (failed, with its toast)');
        await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
        await page.getByRole('button', { name: 'Login' }).click();
        await h1(page, 'Admin Dashboard').waitFor();
        await main().getByRole('cell', { name: 'Kiran Das' }).waitFor();
        await check('/admin');
        if (viewport.width < 900) {
          await page.getByRole('button', { name: 'Menu' }).click();
          await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Books' }).waitFor();
          await check('/admin (menu drawer open)');
          await page.keyboard.press('Escape');
        }
        await visit('/admin/books', async () => {
          await h1(page, 'All Books').waitFor();
          await main().locator('[data-book-id]').first().waitFor();
        });
        await visit('/admin/books/new', () => h1(page, 'Add New Book').waitFor());
        await main().getByRole('radio', { name: 'Pages with chapters' }).check();
        await main().getByRole('button', { name: 'Add a sample page' }).click();
        await main().getByLabel('Chapter', { exact: true }).waitFor();
        await check('/admin/books/new (sample pages)');
        await visit(
          `/admin/books/${books[0]!._id}/edit`,
          () => settle(() => page.getByLabel(/^Title/).inputValue(), books[0]!.title),
          '/admin/books/:id/edit',
          // Leaving the new book's form, changed, as a new document: no unsaved-changes prompt in the way.
          'load',
        );
        await visit('/admin/categories', async () => {
          await h1(page, 'Category Management').waitFor();
          await main().locator('.item-list__title').first().waitFor();
        });
        await visit('/admin/orders', async () => {
          await h1(page, 'Order Dashboard').waitFor();
          await main().locator('tbody tr').first().waitFor();
        });
        await visit('/admin/feedbacks', () => main().getByText('Do you ship to Goa?').waitFor());
        await visit('/admin/subscribers', () => main().getByRole('cell', { name: 'reader@example.com' }).waitFor());
        await visit('/admin/audit', async () => {
          await h1(page, 'Audit Log').waitFor();
          await main().locator('tbody tr').first().waitFor();
        });
        await visit('/admin/reports', () =>
          main()
            .getByRole('heading', { name: /^Mismatches/ })
            .waitFor(),
        );
        await visit('/admin/coupons', () => main().getByText('No codes yet. Add the first one.').waitFor());
        await visit('/admin/no-such-page', () => page.getByRole('heading', { name: 'Oops! Page not found' }).waitFor(), 'admin 404');
      } finally {
        await context.close();
      }
      expectNoBlockingProblems(found);
    }, 240_000);
  }
});

// ---- the keyboard alone --------------------------------------------------------------------

const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);

/** Presses Tab (or Shift+Tab) until `target` has focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 60 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

/** The focused element shows it: :focus-visible matches and it draws a real outline. */
async function focusIsVisible(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return false;
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
    return el.matches(':focus-visible') && (outline || style.boxShadow !== 'none');
  });
}

describe('from the keyboard alone', () => {
  let context: BrowserContext;
  let page: Page;
  beforeEach(async () => {
    ({ context, page } = await newPage(VIEWPORTS[0]));
  });
  afterEach(async () => {
    await context?.close();
  });

  it('the sample reader pages with Tab to Next/Previous, Enter, Space and the arrow keys, focus always visible', async () => {
    await page.goto(`/read/${readable._id}`);
    const progress = page.getByRole('navigation', { name: 'Sample pages' }).getByText(/^Page \d+ of \d+$/);
    await progress.waitFor();
    // The count is known once the text is laid out for the screen.
    const total = Number(/of (\d+)$/.exec(await progress.innerText())![1]);
    expect(total).toBeGreaterThanOrEqual(4);
    const onPage = (n: number) => settle(() => progress.innerText(), `Page ${n} of ${total}`);
    const next = page.getByRole('button', { name: 'Next' });
    const previous = page.getByRole('button', { name: 'Previous' });

    // The skip link is the first stop and lands in the page.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to main content');
    expect(await focusIsVisible(page)).toBe(true);

    expect(await previous.isDisabled()).toBe(true);
    await tabTo(page, next);
    expect(await focusIsVisible(page)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await onPage(2)).toBe(`Page 2 of ${total}`);
    expect(await isFocused(next)).toBe(true);
    await page.keyboard.press('Space');
    expect(await onPage(3)).toBe(`Page 3 of ${total}`);

    await tabTo(page, previous, { backwards: true });
    expect(await focusIsVisible(page)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await onPage(2)).toBe(`Page 2 of ${total}`);
    await page.keyboard.press('ArrowRight');
    expect(await onPage(3)).toBe(`Page 3 of ${total}`);
    await page.keyboard.press('ArrowLeft');
    expect(await onPage(2)).toBe(`Page 2 of ${total}`);

    // Back on the first page Previous is disabled: focus is handed to Next, never dropped.
    await page.keyboard.press('Enter');
    expect(await onPage(1)).toBe(`Page 1 of ${total}`);
    expect(await isFocused(next)).toBe(true);
    expect(await focusIsVisible(page)).toBe(true);

    // To the end with →: Next becomes disabled and focus moves to Previous.
    for (let n = 2; n <= total; n++) {
      await page.keyboard.press('ArrowRight');
      expect(await onPage(n)).toBe(`Page ${n} of ${total}`);
    }
    await page.keyboard.press('ArrowRight');
    expect(await onPage(total)).toBe(`Page ${total} of ${total}`);
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('BODY');
  });

  it("the checkout's test-mode payment dialog opens, cycles Tab, closes with Escape and Close, and pays with Enter", async () => {
    const book = books[1]!;
    await page.goto(`/checkout/${book._id}`);
    const main = page.getByRole('main');
    await main.getByText(book.title, { exact: true }).first().waitFor();
    const fullName = main.getByLabel('Full Name', { exact: true });
    await tabTo(page, fullName);
    await page.keyboard.type('Asha Rao');
    await page.keyboard.press('Tab');
    await page.keyboard.type('asha.rao@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('+91 98765 43210');
    const submit = main.getByRole('button', { name: /^Complete Purchase - ₹/ });
    await tabTo(page, submit);
    expect(await focusIsVisible(page)).toBe(true);

    const dialog = page.getByRole('dialog', { name: 'Test-mode payment' });
    const pay = dialog.getByRole('button', { name: 'Pay successfully' });
    const decline = dialog.getByRole('button', { name: 'Decline payment' });
    const close = dialog.getByRole('button', { name: 'Close' });

    // Escape dismisses it; focus goes back to the button that opened it.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    expect(await isFocused(pay)).toBe(true);
    expect(await focusIsVisible(page)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await isFocused(decline)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await isFocused(close)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await isFocused(pay)).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await isFocused(close)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await settle(() => isFocused(submit), true)).toBe(true);

    // Close, chosen with Tab and Enter, does the same.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await tabTo(page, close);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(await settle(() => isFocused(submit), true)).toBe(true);

    // Enter on "Pay successfully" pays.
    await page.keyboard.press('Space');
    await dialog.waitFor();
    expect(await isFocused(pay)).toBe(true);
    await page.keyboard.press('Enter');
    await h1(page, 'Payment Successful!').waitFor();
  });

  it('the admin confirm dialog opens with focus inside, Escape cancels, Enter on the focused button answers', async () => {
    const name = `Keyboard ${Date.now().toString(36)}`;
    await post('/api/categories', { name, description: 'to be deleted from the keyboard' }, adminToken);
    await page.goto('/admin/login');
    await page.evaluate(
      ([token, admin]) => {
        localStorage.setItem('token', token);
        localStorage.setItem('admin', JSON.stringify(admin));
      },
      [adminToken, { name: ADMIN.name, email: ADMIN.email }] as const,
    );
    await page.goto('/admin/categories');
    const main = page.getByRole('main');
    const item = main.locator('.item-list__title', { hasText: name });
    await item.waitFor();
    const remove = main.getByRole('button', { name: `Delete ${name}`, exact: true });
    const dialog = page.getByRole('dialog', { name: 'Please confirm' });
    const cancel = dialog.getByRole('button', { name: 'Cancel' });
    const confirm = dialog.getByRole('button', { name: 'Delete' });

    await tabTo(page, remove);
    expect(await focusIsVisible(page)).toBe(true);
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    expect(await isFocused(cancel)).toBe(true);
    expect(await focusIsVisible(page)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await item.count()).toBe(1);
    expect(await settle(() => isFocused(remove), true)).toBe(true);

    // Enter on the focused Cancel answers no.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    expect(await item.count()).toBe(1);
    expect(await settle(() => isFocused(remove), true)).toBe(true);

    // Tab to Delete, Enter answers yes.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    expect(await isFocused(confirm)).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: 'Notifications' }).getByText('Category deleted', { exact: true }).waitFor();
    await item.waitFor({ state: 'detached' });
    // The button that asked is gone with its category: focus is in the page's content, not lost.
    expect(await settle(() => page.evaluate(() => document.activeElement?.id), 'main-content')).toBe('main-content');
  });

  it("the admin's sample-page editor keeps focus with the page it adds, moves or removes", async () => {
    await page.goto('/admin/login');
    await page.evaluate(
      ([token, admin]) => {
        localStorage.setItem('token', token);
        localStorage.setItem('admin', JSON.stringify(admin));
      },
      [adminToken, { name: ADMIN.name, email: ADMIN.email }] as const,
    );
    await page.goto('/admin/books/new');
    const main = page.getByRole('main');
    await h1(page, 'Add New Book').waitFor();
    const focusedId = () => page.evaluate(() => document.activeElement?.id ?? '');
    const chapter = (n: number) => main.getByRole('group', { name: `Sample page ${n}` }).getByLabel('Chapter', { exact: true });
    const button = (name: string, n: number) => main.getByRole('button', { name: `${name} sample page ${n}`, exact: true });

    await main.getByRole('radio', { name: 'Pages with chapters' }).check();
    const add = main.getByRole('button', { name: 'Add a sample page' });
    await tabTo(page, add);
    await page.keyboard.press('Enter');
    expect(await settle(() => isFocused(chapter(1)), true)).toBe(true);
    await page.keyboard.type('One');
    await tabTo(page, add);
    await page.keyboard.press('Enter');
    expect(await settle(() => isFocused(chapter(2)), true)).toBe(true);
    await page.keyboard.type('Two');

    // Page 1 moves down: focus follows it (its Move down is now disabled, so its Move up).
    await tabTo(page, button('Move down', 1), { backwards: true });
    await page.keyboard.press('Enter');
    expect(await chapter(2).inputValue()).toBe('One');
    expect(await settle(() => isFocused(button('Move up', 2)), true)).toBe(true);
    // Removing it leaves focus on the page before, not on <body>.
    await tabTo(page, button('Remove', 2));
    await page.keyboard.press('Enter');
    expect(await main.getByRole('group', { name: /^Sample page \d+$/ }).count()).toBe(1);
    expect(await settle(() => isFocused(chapter(1)), true)).toBe(true);
    expect(await chapter(1).inputValue()).toBe('Two');
    expect(await focusedId()).not.toBe('');
  });

  it('the storefront mobile menu opens and closes from the keyboard, Escape closes it and returns focus', async () => {
    await context.close();
    ({ context, page } = await newPage(VIEWPORTS[1]));
    await page.goto('/');
    await page.locator('[role="tabpanel"] a[data-book-id]').first().waitFor();
    const toggle = page.getByRole('button', { name: /^(Open|Close) menu$/ });
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await tabTo(page, toggle);
    expect(await focusIsVisible(page)).toBe(true);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    await page.keyboard.press('Enter');
    await menu.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    // The next Tab goes into the menu: its search, then its links.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('.mobile-menu') !== null)).toBe(true);
    await tabTo(page, menu.getByRole('link', { name: 'About' }));
    expect(await focusIsVisible(page)).toBe(true);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    expect(await isFocused(toggle)).toBe(true);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    // Space opens it, Enter on the toggle closes it again.
    await page.keyboard.press('Space');
    await menu.waitFor();
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'hidden' });
    expect(await isFocused(toggle)).toBe(true);

    // A link chosen with Enter navigates and closes the menu, focus moving to the new page.
    await page.keyboard.press('Enter');
    await menu.waitFor();
    await tabTo(page, menu.getByRole('link', { name: 'About' }));
    await page.keyboard.press('Enter');
    await page.waitForURL('**/about-us');
    await menu.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');
  });
});
