// The administrator's journeys in real Chromium through the gateway (embedded shop): logging in
// (and failing to), categories, a book with a real cover, sample and full PDF seen on the
// storefront, edited and deleted, delivery status seen by the buyer, orders.csv, feedback from
// the contact page, newsletter subscribers, a 401 sending the admin back to login, logging out.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startShop, type RunningShop } from '@persona/launcher';
import { downloadedBytes, launchChromium, settle, closeChromium, open, SHOP_HOOK_TIMEOUT_MS } from './support/browser';
import type { OrderSummary } from '@persona/contracts';
import { adminAuth, buyPersonaThroughApi, fetchAllBooks, mailsTo, postJson } from './support/shop';
import { epubTexts, pageTextsByReader } from '@persona/test-kit';
import { fromShopTemplate } from './support/shared-fixtures';

const ADMIN = { email: 'owner@persona-books.in', password: 'correct horse battery', name: 'Asha' };
const RUN = Date.now().toString(36);
const CATEGORY = `Poetry ${RUN}`;
const BOOK_TITLE = `Songs of the Monsoon ${RUN}`;

let shop: RunningShop;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let dataDir: string;
let files: { cover: string; samplePdf: string; fullPdf: string; hugePdf: string; fakePdf: string };

async function makePdf(title: string, pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  for (let i = 1; i <= pages; i++) doc.addPage([420, 595]).drawText(`${title}, page ${i}`, { x: 50, y: 520, size: 14, font });
  return doc.save();
}

async function makeCover(): Promise<Buffer> {
  const scratch = await browser.newPage({ viewport: { width: 400, height: 600 } });
  await scratch.setContent(
    '<body style="margin:0"><div style="width:400px;height:600px;background:linear-gradient(#4338ca,#f59e0b);color:#fff;font:48px Georgia;display:grid;place-items:center">Monsoon</div></body>',
  );
  const png = await scratch.screenshot({ type: 'png' });
  await scratch.close();
  return png;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'persona-admin-app-'));
  // The run's shop template: a first start already made, with this suite's administrator (TEST_ADMIN).
  await fromShopTemplate(path.join(dataDir, 'shop'));
  shop = await startShop({
    dataDir: path.join(dataDir, 'shop'),
    port: 0,
    host: '127.0.0.1',
    env: { ...process.env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: ADMIN.name },
  });
  browser = await launchChromium();
  files = {
    cover: path.join(dataDir, 'cover.png'),
    samplePdf: path.join(dataDir, 'sample.pdf'),
    fullPdf: path.join(dataDir, 'full.pdf'),
    hugePdf: path.join(dataDir, 'huge.pdf'),
    fakePdf: path.join(dataDir, 'page.html'),
  };
  await writeFile(files.cover, await makeCover());
  await writeFile(files.samplePdf, await makePdf(`${BOOK_TITLE} sample`, 3));
  await writeFile(files.fullPdf, await makePdf(BOOK_TITLE, 12));
  await writeFile(files.hugePdf, Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(11 * 1024 * 1024, 32)]));
  await writeFile(files.fakePdf, '<html><script>alert(1)</script></html>');
}, 120_000);

afterAll(async () => {
  await closeChromium(browser);
  await shop?.close();
  await rm(dataDir, { recursive: true, force: true });
}, SHOP_HOOK_TIMEOUT_MS);

beforeEach(async () => {
  context = await browser.newContext({ baseURL: shop.url, viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

const main = () => page.locator('main');
const toast = () => page.getByRole('region', { name: 'Notifications' });
const expectToast = async (title: string) => toast().getByText(title, { exact: true }).waitFor();
const confirmDialog = () => page.getByRole('dialog', { name: 'Please confirm' });

/** The token of the last login. */
let session: string | null = null;
async function logIn() {
  // The admin service allows ten logins a minute per client: a run fast enough to pass it is told
  // when to try again, and waits as a person would.
  for (let attempt = 1; ; attempt += 1) {
    await page.goto('/admin/login');
    await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    const limited = toast().getByText(/^Too many attempts; please try again in \d+ seconds?$/);
    const outcome = await Promise.race([
      expectToast('Login successful').then(
        () => 'in' as const,
        () => 'timeout' as const,
      ),
      limited.waitFor({ timeout: 30_000 }).then(
        () => 'limited' as const,
        () => 'timeout' as const,
      ),
    ]);
    if (outcome === 'in') break;
    if (outcome === 'timeout' || attempt === 3) throw new Error(`the admin login did not succeed (${outcome}, attempt ${attempt})`);
    const seconds = Number(/in (\d+) second/.exec(await limited.innerText())?.[1] ?? 60);
    await page.waitForTimeout((seconds + 1) * 1000);
  }
  await page.getByRole('heading', { level: 1, name: 'Admin Dashboard' }).waitFor();
  session = await page.evaluate(() => localStorage.getItem('token'));
}

/** The last login's session put back in this test's browser (the admin service allows ten logins a minute per client), or a login when there is none. */
async function resumeSession() {
  if (!session) return logIn();
  await page.goto('/admin/login');
  await page.evaluate((token) => localStorage.setItem('token', token), session);
  await page.goto('/admin');
  await page.getByRole('heading', { level: 1, name: 'Admin Dashboard' }).waitFor();
}

describe('the admin app', () => {
  it('guards every page, refuses a wrong password, logs in with show/hide, and logs out for good', async () => {
    await page.goto('/admin/orders');
    await page.waitForURL('**/admin/login');
    expect(await page.evaluate(() => document.querySelector('meta[name="robots"]')?.getAttribute('content'))).toBe('noindex, nofollow');

    const password = page.getByLabel('Password', { exact: true });
    await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
    await password.fill('not the password');
    expect(await password.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await password.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    expect(await password.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Login' }).click();
    await expectToast('Login failed');
    await toast().getByText('Invalid credentials').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    await password.fill(ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expectToast('Login successful');
    // Back to the page the guard came from, with the admin's name in the header.
    await page.waitForURL('**/admin/orders');
    await page.getByRole('heading', { level: 1, name: 'Order Dashboard' }).waitFor();
    expect(await page.locator('.admin-header__label').innerText()).toContain(ADMIN.name);
    const menu = page.getByRole('navigation', { name: 'Admin menu' });
    expect(await menu.getByRole('link').allInnerTexts()).toEqual([
      'Home',
      'Books',
      'Categories',
      'Orders',
      'Coupons',
      'Reports',
      'Feedback',
      'Leaks',
      'Subscribers',
      'Audit log',
    ]);
    await menu.getByRole('link', { name: 'Home' }).click();
    await page.getByRole('heading', { level: 1, name: 'Admin Dashboard' }).waitFor();

    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();
    await menu.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/admin/login');
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('admin')])).toEqual([null, null]);
    // The token is dead everywhere, not only forgotten by this browser.
    expect((await fetch(`${shop.url}/api/orders`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    await page.goto('/admin/books');
    await page.waitForURL('**/admin/login');
  });

  it('sends the admin back to login when any call answers 401', async () => {
    await page.goto('/admin/login');
    await page.evaluate(() => {
      localStorage.setItem('token', 'expired.or.forged');
      localStorage.setItem('admin', JSON.stringify({ name: 'Asha', email: 'owner@persona-books.in' }));
    });
    await page.goto('/admin/feedbacks');
    await page.waitForURL('**/admin/login');
    await page.getByText('Your session has ended. Please log in again.').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  it('manages categories and a book end to end, as the storefront shows it', async () => {
    await logIn();
    const menu = page.getByRole('navigation', { name: 'Admin menu' });

    // A category.
    await menu.getByRole('link', { name: 'Categories' }).click();
    await page.getByRole('heading', { level: 1, name: 'Category Management' }).waitFor();
    await page.getByLabel(/^Name/).fill(CATEGORY);
    await page.getByLabel('Description (optional)').fill('Verse for rainy days');
    await page.getByRole('button', { name: 'Create Category' }).click();
    await expectToast('Category created successfully');
    await main().locator('.item-list__title', { hasText: CATEGORY }).waitFor();

    // A category still used by books cannot go: the 409 is shown as it is.
    const seeded = (await fetchAllBooks(shop.url)).find((b) => b.category)!;
    await main()
      .getByRole('button', { name: `Delete ${seeded.category!.name}`, exact: true })
      .click();
    await confirmDialog().getByText('Are you sure you want to delete this category?').waitFor();
    await confirmDialog().getByRole('button', { name: 'Delete' }).click();
    await expectToast('Delete failed');
    expect(await toast().innerText()).toMatch(/This category is used by \d+ books?; move or delete them first/);

    // A book: refused files first, then the real ones.
    await menu.getByRole('link', { name: 'Books' }).click();
    await page.getByRole('heading', { level: 1, name: 'All Books' }).waitFor();
    await main().getByRole('link', { name: 'Add New Book' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add New Book' }).waitFor();
    await page.getByLabel('Full PDF').setInputFiles(files.hugePdf);
    await expectToast('Full PDF must be under 10MB');
    await page.getByLabel('Sample PDF').setInputFiles(files.fakePdf);
    await expectToast('Sample PDF must be a PDF file');
    expect(await page.getByLabel('Sample PDF').evaluate((input: HTMLInputElement) => input.files?.length ?? 0)).toBe(0);

    await page.getByLabel(/^Title/).fill(BOOK_TITLE);
    await page.getByLabel(/^Author/).fill('Kavya Iyer');
    await page.getByLabel(/^Price/).fill('349.5');
    await page.getByLabel(/^Category/).selectOption({ label: CATEGORY });
    await page.getByLabel('Ratings (0 to 5)').fill('4.5');
    await page.getByLabel('Tags').fill('Poetry, Fiction ,  Monsoon');
    expect(await page.getByLabel('Language').inputValue()).toBe('English');
    await page.getByLabel('Language').fill('Bengali');
    await page.getByLabel(/^Description/).fill('Poems that smell of wet earth. <script>window.pwned = true</script>');
    await page.getByLabel('Content (the full text)').fill('The first rain.\n\nThe second rain.');
    await page.getByLabel('Sample text, one page per line').fill('Clouds gather over the hills.\nThe first drops fall.');
    await page.getByLabel('Cover image').setInputFiles(files.cover);
    await page.getByLabel('Sample PDF').setInputFiles(files.samplePdf);
    await page.getByLabel('Full PDF').setInputFiles(files.fullPdf);
    const created = page.waitForResponse((r) => r.url().endsWith('/api/books') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Create Book' }).click();
    // A second click while saving is ignored: one book only.
    await page
      .getByRole('button', { name: /^(Create Book|Saving\.\.\.)$/ })
      .click({ force: true, timeout: 1000 })
      .catch(() => undefined);
    const book = ((await (await created).json()) as { data: { _id: string; tags: string[]; price: number } }).data;
    expect(book.tags).toEqual(['Poetry', 'Fiction', 'Monsoon']);
    await expectToast('Book created successfully');
    await page.waitForURL('**/admin/books');
    const card = main().locator(`[data-book-id="${book._id}"]`);
    await card.waitFor();
    expect(await card.innerText()).toContain('₹349.50');
    const all = await fetchAllBooks(shop.url);
    expect(all.filter((b) => b.title === BOOK_TITLE)).toHaveLength(1);

    // The storefront shows it, the script as text, the cover as a real image.
    const shopper = await context.newPage();
    await shopper.goto(`/book/${book._id}`);
    await shopper.getByRole('heading', { level: 1, name: BOOK_TITLE }).waitFor();
    await shopper.getByText('₹349.50').first().waitFor();
    expect(await shopper.getByText('<script>window.pwned = true</script>', { exact: false }).count()).toBeGreaterThan(0);
    expect(await shopper.evaluate(() => (window as { pwned?: boolean }).pwned)).toBeUndefined();
    const cover = shopper.locator(`img[src*="/api/files/"]`).first();
    await cover.waitFor();
    expect(await settle(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), true)).toBe(true);
    // The facts a buyer checks: the language named, the full PDF's 12 pages counted.
    const facts = (await shopper.getByRole('region', { name: 'At a glance' }).innerText()).replace(/\s+/g, ' ');
    expect(facts).toContain('Length 12 pages');
    expect(facts).toContain('Language Bengali');

    // Edit: the form shows what the book has, and a new price reaches the storefront.
    await card.getByRole('link', { name: `Edit ${BOOK_TITLE}` }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit Book' }).waitFor();
    expect(await page.getByLabel(/^Title/).inputValue()).toBe(BOOK_TITLE);
    expect(await page.getByLabel('Tags').inputValue()).toBe('Poetry, Fiction, Monsoon');
    expect(await page.getByLabel('Language').inputValue()).toBe('Bengali');
    expect(await page.getByLabel('Content (the full text)').inputValue()).toBe('The first rain.\nThe second rain.');
    await page.getByAltText(`Current cover of ${BOOK_TITLE}`).waitFor();
    await page.getByRole('link', { name: 'Current sample PDF' }).waitFor();
    await page.getByText('A full PDF is uploaded (kept private).').waitFor();
    await page.getByLabel(/^Price/).fill('499');
    await page.getByRole('button', { name: 'Update Book' }).click();
    await expectToast('Book updated successfully');
    await page.waitForURL('**/admin/books');
    expect(await main().locator(`[data-book-id="${book._id}"]`).innerText()).toContain('₹499.00');
    await shopper.goto(`/book/${book._id}`);
    await shopper.getByText('₹499.00').first().waitFor({ timeout: 10_000 });

    // Delete, after a confirmation; the storefront no longer finds it.
    await main()
      .locator(`[data-book-id="${book._id}"]`)
      .getByRole('button', { name: `Delete ${BOOK_TITLE}` })
      .click();
    await confirmDialog().getByText('Are you sure you want to delete this book?').waitFor();
    await confirmDialog().getByRole('button', { name: 'Cancel' }).click();
    expect(await main().locator(`[data-book-id="${book._id}"]`).count()).toBe(1);
    await main()
      .locator(`[data-book-id="${book._id}"]`)
      .getByRole('button', { name: `Delete ${BOOK_TITLE}` })
      .click();
    await confirmDialog().getByRole('button', { name: 'Delete' }).click();
    await expectToast('Book deleted successfully');
    await main().locator(`[data-book-id="${book._id}"]`).waitFor({ state: 'detached' });
    await shopper.goto(`/book/${book._id}`);
    await shopper.getByRole('heading', { name: 'Book not found' }).waitFor({ timeout: 10_000 });

    // The category, now unused, can go.
    await menu.getByRole('link', { name: 'Categories' }).click();
    await main()
      .getByRole('button', { name: `Delete ${CATEGORY}`, exact: true })
      .click();
    await confirmDialog().getByRole('button', { name: 'Delete' }).click();
    await expectToast('Category deleted');
    await main().locator('.item-list__title', { hasText: CATEGORY }).waitFor({ state: 'detached' });
  });

  it('changes a delivery status the buyer then sees, and exports orders.csv', async () => {
    const [first, second] = await fetchAllBooks(shop.url);
    const one = await buyPersonaThroughApi(shop.url, {
      bookId: first._id,
      fullName: 'Meera, "the reader"',
      email: 'meera@example.com',
      deliveryType: 'physical',
    });
    const two = await buyPersonaThroughApi(shop.url, { bookId: second._id, fullName: 'Ravi Kumar', email: 'ravi@example.com' });
    await logIn();

    // The dashboard lists the new orders.
    await main().getByRole('cell', { name: 'Ravi Kumar' }).waitFor();
    expect(await main().getByRole('columnheader').allInnerTexts()).toEqual(['Book', 'Customer', 'Email', 'Delivery', 'Status', 'Date']);

    await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('heading', { level: 1, name: 'Order Dashboard' }).waitFor();
    const row = main().locator(`tr[data-order-id="${one.orderId}"]`);
    await row.waitFor();
    const status = row.getByLabel(`Delivery status of ${one.personaId}`);
    expect(await status.inputValue()).toBe('pending');
    // A digital order has no delivery status to change; a printed one's "Shipped" asks for the carrier and tracking number.
    expect(await main().locator(`tr[data-order-id="${two.orderId}"]`).getByRole('combobox').count()).toBe(0);
    expect(await main().locator(`tr[data-order-id="${two.orderId}"]`).innerText()).toContain('Digital: no delivery');
    await status.selectOption('shipped');
    const shipDialog = page.getByRole('dialog', { name: `Mark ${one.personaId} shipped` });
    await shipDialog.getByLabel('Carrier (optional)').fill('India Post');
    await shipDialog.getByLabel('Tracking number (optional)').fill('EE123456789IN');
    await shipDialog.getByRole('button', { name: 'Mark shipped' }).click();
    await expectToast('Delivery status updated');
    expect(await status.isEnabled()).toBe(true);
    expect(await status.inputValue()).toBe('shipped');
    expect(await row.innerText()).toContain('India Post · EE123456789IN');
    // The buyer is e-mailed once, with the carrier and the tracking number.
    const [shippedMail] = await mailsTo(path.join(dataDir, 'shop', 'mail'), 'meera@example.com', 'Your printed Persona is on its way');
    expect(shippedMail?.text).toMatch(/Tracking number: +EE123456789IN/);
    expect(shippedMail?.html).toContain('EE123456789IN');

    // Search by persona id and filter by status.
    await main().getByLabel('Search').fill(two.personaId.toLowerCase());
    await main().getByRole('button', { name: 'Search' }).click();
    await settle(() => main().locator('tbody tr').count(), 1);
    expect(await main().locator(`tr[data-order-id="${two.orderId}"]`).count()).toBe(1);
    await main().getByLabel('Search').fill('');
    await main().getByRole('button', { name: 'Search' }).click();
    // The router applies a change as a transition: the next filter starts from the cleared search.
    await page.waitForURL((url) => url.pathname === '/admin/orders' && url.search === '');
    await main().getByLabel('Delivery status', { exact: true }).selectOption('shipped');
    await page.waitForURL('**/admin/orders?status=shipped');
    await settle(() => main().locator('tbody tr').count(), 1);
    expect(await main().locator(`tr[data-order-id="${one.orderId}"]`).count()).toBe(1);

    // The buyer sees it.
    const buyer = await context.newPage();
    await buyer.goto(`/send-persona?personaId=${one.personaId}`);
    await buyer.getByRole('heading', { level: 1, name: 'Your printed Persona is on its way' }).waitFor({ timeout: 30000 });
    expect(await buyer.locator('dt:has-text("Delivery Status") + dd').innerText()).toMatch(/shipped/i);
    expect(await buyer.locator('dt:has-text("Tracking number") + dd').innerText()).toBe('EE123456789IN');

    // The dispatch list: what a printer and a courier need, of paid printed copies only.
    const dispatching = page.waitForEvent('download');
    await main().getByRole('button', { name: 'Dispatch list' }).click();
    const dispatch = await dispatching;
    expect(dispatch.suggestedFilename()).toBe('dispatch-list.csv');
    const dispatchLines = (await downloadedBytes(dispatch)).toString('utf8').trimEnd().split('\r\n');
    expect(dispatchLines[0]).toBe('Persona ID,Ship by,Name,Phone,Address,Book,Amount,Date,Interior PDF,Cover PDF');
    expect(dispatchLines.filter((line) => line.startsWith(one.personaId))).toHaveLength(1);
    // The printer's links to the printed copy's interior and cover spread (issue 27): PDFs with
    // their print boxes, once the Persona is made.
    const links = dispatchLines
      .find((line) => line.startsWith(one.personaId))!
      .split(',')
      .slice(-2);
    expect(links.map((link) => new URL(link).pathname)).toEqual([
      `/api/personas/${one.personaId}/print/interior.pdf`,
      `/api/personas/${one.personaId}/print/cover.pdf`,
    ]);
    for (const link of links) {
      expect(await settle(async () => (await fetch(link)).status, 200, 30_000)).toBe(200);
      const file = Buffer.from(await (await fetch(link)).arrayBuffer());
      expect(file.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(file.toString('latin1')).toMatch(/\/TrimBox/);
    }
    expect(dispatchLines.some((line) => line.startsWith(two.personaId))).toBe(false);

    // orders.csv of the current view, quoted properly.
    await main().getByLabel('Delivery status', { exact: true }).selectOption('');
    await settle(async () => (await main().locator('tbody tr').count()) >= 2, true);
    const downloading = page.waitForEvent('download');
    await main().getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('orders.csv');
    const csv = (await downloadedBytes(download)).toString('utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('S.No,Customer,Book Title,Delivery Type,Delivery Status,Order ID');
    expect(lines).toContain(`1,Ravi Kumar,${csvCell(second.title)},digital,pending,${two.orderId}`);
    expect(lines).toContain(`2,"Meera, ""the reader""",${csvCell(first.title)},physical,shipped,${one.orderId}`);

    // With nothing to export, the button is disabled.
    await main().getByLabel('Delivery status', { exact: true }).selectOption('cancelled');
    await main().getByText('No orders match these filters.').waitFor();
    expect(await main().getByRole('button', { name: 'Export CSV' }).isDisabled()).toBe(true);
  });

  it('finds the order a leaked copy came from, by the mark on its pages, and says when none matches', async () => {
    const [book] = await fetchAllBooks(shop.url);
    const sold = await buyPersonaThroughApi(shop.url, { bookId: book!._id, fullName: 'Kiran Leaky', email: 'kiran@example.com' });
    // The copy as its buyer downloads it, once made.
    let copy: Buffer | undefined;
    const until = Date.now() + 30_000;
    while (!copy && Date.now() < until) {
      const res = await fetch(`${shop.url}/api/personas/${sold.personaId}/download`);
      if (res.ok) copy = Buffer.from(await res.arrayBuffer());
      else await new Promise((r) => setTimeout(r, 200));
    }
    expect(copy).toBeDefined();
    const found = path.join(dataDir, 'found-in-the-wild.pdf');
    await writeFile(found, copy!);

    await logIn();
    await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Leaks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Find a leaked copy' }).waitFor();
    const input = page.getByLabel('The copy (PDF or EPUB)');
    // Not a PDF or an EPUB: refused on the page, nothing sent.
    await input.setInputFiles(files.fakePdf);
    await main().getByRole('alert').filter({ hasText: 'page.html' }).waitFor();
    await input.setInputFiles(found);
    await page.getByRole('button', { name: 'Find the order' }).click();
    await main()
      .getByRole('heading', { name: `This copy was sold in order ${sold.orderId}` })
      .waitFor();
    const answer = await main().locator('.leak-result').innerText();
    expect(answer).toContain(sold.personaId);
    expect(answer).toContain('Kiran Leaky');
    expect(answer).toMatch(/The mark [0-9a-f]{12} was read on each of the \d pages read \(of \d+\)/);

    // A PDF the shop never made: no order.
    await input.setInputFiles(files.samplePdf);
    await page.getByRole('button', { name: 'Find the order' }).click();
    await main().getByRole('heading', { name: 'No order matches this copy' }).waitFor();
    // The order found opens on its own page.
    await input.setInputFiles(found);
    await page.getByRole('button', { name: 'Find the order' }).click();
    await main().getByRole('link', { name: 'Open this order' }).click();
    await page.getByRole('heading', { level: 1, name: `Order ${sold.personaId}` }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/admin/orders/${sold.orderId}`);
  });

  it('opens an order from the list: the whole order and its invoice, a private note added once, an e-mail sent again, a partial then a full refund, and a timeline that says who', async () => {
    const [book] = await fetchAllBooks(shop.url);
    const sold = await buyPersonaThroughApi(shop.url, {
      bookId: book!._id,
      fullName: 'Anaswara Raveendran',
      email: 'anaswara@example.com',
      deliveryType: 'physical',
    });
    const mailDir = path.join(dataDir, 'shop', 'mail');
    const receipt = 'This e-mail is your receipt.';
    // The confirmation waits a minute after payment: a Persona ready by then makes its ready e-mail the receipt.
    const [receiptMail] = await mailsTo(mailDir, 'anaswara@example.com', receipt, 1, 90_000);
    const receiptKind = receiptMail!.text.includes('Thank you: your Persona is ready') ? 'persona-ready' : 'order-confirmed';
    await logIn();
    await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Orders' }).click();
    await main().locator(`tr[data-order-id="${sold.orderId}"]`).getByRole('link', { name: sold.personaId }).click();
    await page.getByRole('heading', { level: 1, name: `Order ${sold.personaId}` }).waitFor();

    // What the order is: buyer, address, book, amounts by part, payment.
    const section = (name: string) => main().getByRole('region', { name });
    // Whom the courier asks for (the buyer's own copy: the buyer), and the address with its state filled from the PIN code.
    expect(await section('Buyer').innerText()).toMatch(
      /Anaswara Raveendran[\s\S]*anaswara@example.com[\s\S]*Deliver to\s+Anaswara Raveendran, \+91 98765 43210[\s\S]*12 MG Road, Bengaluru, Karnataka, 560001, India/,
    );
    const amounts = await section('Book and amounts').innerText();
    expect(amounts).toContain(book!.title);
    expect(amounts).toMatch(/Printed copy[\s\S]*Price[\s\S]*₹[\s\S]*Delivery\s*₹50\.00[\s\S]*Total\s*₹/);
    // Its tax invoice, by the link its buyer has.
    const invoiceLink = section('Book and amounts').getByRole('link', { name: /^PB\/\d\d-\d\d\/\d{6}$/ });
    expect(await invoiceLink.getAttribute('href')).toBe(`/api/orders/${sold.personaId}/invoice`);
    expect(await section('Book and amounts').innerText()).toMatch(/place of supply Karnataka \(29\)/);
    expect(await section('Payment').innerText()).toMatch(
      /Razorpay order\s*order_\w+[\s\S]*Payment\s*pay_\w+[\s\S]*Confirmed by\s*(verify|webhook:payment\.captured)/,
    );

    // A private note: the button pressed twice adds it once, with its author.
    const note = 'Buyer called: deliver after 6 pm, please.';
    await section('Private notes').getByLabel('Add a note (only administrators see it)').fill(note);
    const add = section('Private notes').getByRole('button', { name: 'Add note' });
    await add.dblclick();
    // The notes listed, not the text still in the field (React mirrors a controlled textarea's value
    // into its text, which getByText matches: waiting on that passed before the note was saved).
    const saved = section('Private notes').getByRole('listitem').filter({ hasText: note });
    await saved.waitFor();
    await settle(() => saved.count(), 1);
    expect(await saved.innerText()).toContain(ADMIN.email);

    // The receipt e-mail, sent again: the buyer gets a second copy.
    const emails = section('E-mails');
    await emails
      .locator(`tr[data-email-kind="${receiptKind}"]`)
      .first()
      .getByText(/^Sent /)
      .waitFor();
    const before = (await mailsTo(mailDir, 'anaswara@example.com', receipt)).length;
    expect(before).toBe(1);
    const receiptLabel = receiptKind === 'persona-ready' ? '"your Persona is ready" e-mail' : 'order confirmation e-mail';
    await emails
      .getByRole('button', { name: `Send again the ${receiptLabel} to anaswara@example.com` })
      .first()
      .click();
    await expectToast('E-mail sent again');
    const after = await mailsTo(mailDir, 'anaswara@example.com', receipt, 2);
    expect(after.length).toBe(2);
    await emails.getByText('a copy sent again').waitFor();

    // The timeline: the order placed, paid, the note and the copy, with who.
    const timeline = section('Timeline');
    await timeline.getByText('Note added to order', { exact: false }).waitFor({ timeout: 15_000 });
    const lines = await timeline.locator('li').allInnerTexts();
    expect(lines.at(-1)).toContain('Order placed by Anaswara Raveendran');
    expect(lines.some((l) => /paid: ₹/.test(l))).toBe(true);
    expect(lines.find((l) => l.includes('Note added to order'))).toContain(`by ${ADMIN.email}`);

    // Refunds: part of it, then the rest; each e-mailed to the buyer with its credit note.
    const refunds = section('Refunds');
    const total = book!.price + book!.printingCost + 50;
    await refunds.getByLabel('Amount (₹; empty: all that is left)').fill('100');
    await refunds.getByLabel('Reason').fill('Late delivery');
    await refunds.getByRole('button', { name: 'Refund' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Refund' }).click();
    await expectToast('Refund sent');
    // The page reads the order again while a refund settles.
    await refunds.locator('[data-refund-status="processed"]').first().waitFor({ timeout: 20_000 });
    const [partial] = await mailsTo(mailDir, 'anaswara@example.com', 'We have refunded ₹100.00');
    expect(partial!.text).toMatch(/Credit note: +PBCN\/\d\d-\d\d\/\d{5}/);
    expect(partial!.text).toContain('your Persona is yours to download as before');
    // The rest: an empty amount is all that is left.
    await refunds.getByLabel('Reason').fill('The buyer changed their mind');
    await refunds.getByRole('button', { name: 'Refund' }).click();
    await page
      .getByRole('dialog')
      .getByText(`Refund ₹${(total - 100).toFixed(2)} to Anaswara Raveendran (all that is left: the whole payment)?`)
      .waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Refund' }).click();
    await expectToast('Refund sent');
    await mailsTo(mailDir, 'anaswara@example.com', `We have refunded ₹${(total - 100).toFixed(2)}`);
    await refunds.getByText('The whole payment is refunded.').waitFor({ timeout: 20_000 });
    // The page reads the order every few seconds while a refund settles: the second is processed by its next read.
    await refunds.locator('[data-refund-status="processed"]').nth(1).waitFor({ timeout: 20_000 });
    expect(await refunds.locator('[data-refund-status="processed"]').count()).toBe(2);

    // Nothing overflows sideways on a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // An order that does not exist: the page says so, with a way back.
    await page.goto('/admin/orders/00000000-0000-4000-8000-000000000000');
    await main()
      .getByRole('alert')
      .getByText(/This order could not be loaded\. Order not found/)
      .waitFor();
    await main().getByRole('link', { name: 'Back to the orders' }).waitFor();
  });

  it('re-issues a Persona with a corrected name (the old one replaced, the buyer e-mailed the new one), a fully refunded Persona says so and downloads no more, and a printed copy is cancelled before dispatch but not after', async () => {
    const [book] = await fetchAllBooks(shop.url);
    const buyer = 'meenakshi@example.com';
    const sold = await buyPersonaThroughApi(shop.url, { bookId: book!._id, fullName: 'Meenakshi Sundram', email: buyer, deliveryType: 'digital' });
    const mailDir = path.join(dataDir, 'shop', 'mail');
    await mailsTo(mailDir, buyer, `Your Persona of "${book!.title}" by ${book!.author} is ready.`, 1, 60_000);
    await resumeSession();
    await page.goto(`/admin/orders/${sold.orderId}`);
    await page.getByRole('heading', { level: 1, name: `Order ${sold.personaId}` }).waitFor();
    const section = (name: string) => main().getByRole('region', { name });

    // The owner corrects the name; pressed twice, one new Persona.
    const reissue = section('Re-issue the Persona');
    await reissue.getByLabel("Buyer's name").fill('Meenakshi Sundaram');
    await reissue.getByLabel('Reason').fill('The buyer wrote: my name is misspelt');
    await reissue.getByRole('button', { name: 'Re-issue the Persona' }).click();
    await confirmDialog().getByText(`Make a new Persona for Meenakshi Sundaram? Persona ${sold.personaId} will no longer download.`).waitFor();
    await confirmDialog().getByRole('button', { name: 'Re-issue' }).click();
    await expectToast('Persona re-issued');
    const [corrected] = await mailsTo(mailDir, buyer, 'has been made again with the corrected details', 1, 60_000);
    const newId = /Its new Persona ID is (PRS-[0-9A-Z-]{19})\./.exec(corrected!.text)?.[1];
    expect(newId).toBeDefined();
    expect(newId).not.toBe(sold.personaId);
    expect(corrected!.text).toContain(`It replaces Persona ${sold.personaId}, which can no longer be downloaded.`);
    expect(corrected!.text).toContain('Dear Meenakshi Sundaram,');
    await page.getByRole('heading', { level: 1, name: `Order ${newId}` }).waitFor({ timeout: 20_000 });
    await settle(() => reissue.locator('li').count(), 1);
    expect(await reissue.locator('li').innerText()).toContain(`${sold.personaId} replaced by ${newId}`);
    await section('Timeline').getByText(`Persona ${sold.personaId} re-issued as ${newId}`, { exact: false }).waitFor({ timeout: 15_000 });

    // The old verify page: still genuine, replaced; its download refused. The new one verifies with the corrected name.
    await page.goto(`/verify/${sold.personaId}`);
    await main().getByRole('heading', { name: 'Genuine Persona' }).waitFor();
    const oldLicence = main().getByRole('note', { name: 'Licence' });
    expect(await oldLicence.innerText()).toMatch(new RegExp(`Replaced[\\s\\S]*replaced on .* by Persona ${newId}, made again with corrected details`));
    expect(await main().innerText()).toContain('Personalised for Meenakshi Sundram');
    const oldDownload = await fetch(`${shop.url}/api/personas/${sold.personaId}/download`);
    expect(oldDownload.status).toBe(410);
    expect(((await oldDownload.json()) as { message: string }).message).toBe(
      `This Persona was replaced by Persona ${newId}, with the corrected details: download that one`,
    );
    await oldLicence.getByRole('link', { name: `Verify Persona ${newId}` }).click();
    await main().getByText('Personalised for Meenakshi Sundaram', { exact: false }).waitFor();
    expect(await main().getByRole('note', { name: 'Licence' }).count()).toBe(0);
    expect((await fetch(`${shop.url}/api/personas/${newId}/download`)).status).toBe(200);

    // Refunded in full: the verify page says refunded (still genuine), the download is refused.
    await page.goto(`/admin/orders/${sold.orderId}`);
    const refunds = section('Refunds');
    await refunds.getByLabel('Reason').fill('The buyer asked for their money back');
    await refunds.getByRole('button', { name: 'Refund' }).click();
    await confirmDialog().getByRole('button', { name: 'Refund' }).click();
    await expectToast('Refund sent');
    await refunds.getByText('The whole payment is refunded.').waitFor({ timeout: 20_000 });
    await refunds.locator('[data-refund-status="processed"]').first().waitFor({ timeout: 20_000 });
    const refused = await settle(async () => (await fetch(`${shop.url}/api/personas/${newId}/download`)).status, 410, 20_000);
    expect(refused).toBe(410);
    await page.goto(`/verify/${newId}`);
    await main().getByRole('heading', { name: 'Genuine Persona' }).waitFor();
    expect(await main().getByRole('note', { name: 'Licence' }).innerText()).toMatch(
      /Refunded[\s\S]*This Persona’s order was refunded in full on \d{1,2} \w+ \d{4}\. It is still a genuine Persona, but its licence has ended: it can no longer be downloaded\./,
    );
    const gone = await fetch(`${shop.url}/api/personas/${newId}/download`);
    expect(((await gone.json()) as { message: string }).message).toMatch(
      /^This Persona's order was refunded in full on \d{1,2} \w+ \d{4}: it can no longer be downloaded$/,
    );
    // The buyer's lookup by Persona ID says so too, with no download.
    await page.goto(`/send-persona?personaId=${newId}`);
    await main().getByRole('heading', { level: 1, name: 'This order was refunded' }).waitFor();
    await main().getByText('It is still a genuine Persona').waitFor();
    expect(
      await main()
        .getByRole('link', { name: /^Download/ })
        .count(),
    ).toBe(0);

    // A printed copy cancelled before dispatch, its printing and delivery refunded; one shipped is refused.
    const farhan = 'farhan@example.com';
    const printed = await buyPersonaThroughApi(shop.url, { bookId: book!._id, fullName: 'Farhan Qureshi', email: farhan, deliveryType: 'physical' });
    const shipped = await buyPersonaThroughApi(shop.url, { bookId: book!._id, fullName: 'Farhan Qureshi', email: farhan, deliveryType: 'physical' });
    // The page's own session.
    const auth = { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('token'))}` };
    await fetch(`${shop.url}/api/orders/${shipped.orderId}/status`, {
      method: 'PATCH',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ deliveryStatus: 'shipped', carrier: 'India Post', trackingNumber: 'EE123456789IN' }),
    });
    await page.goto(`/admin/orders/${printed.orderId}`);
    const cancel = section('Cancel the printed copy');
    await cancel.getByLabel('Reason').fill('The buyer wants the PDF only');
    await cancel.getByRole('button', { name: 'Cancel the printed copy' }).click();
    await confirmDialog()
      .getByText(/^Cancel the printed copy and refund its printing and delivery \(₹[\d,.]+\)\?$/)
      .waitFor();
    await confirmDialog().getByRole('button', { name: 'Cancel the copy' }).click();
    await expectToast('Printed copy cancelled');
    await cancel.getByText('The printed copy is cancelled.').waitFor();
    expect(await section('Persona and delivery').innerText()).toMatch(/Delivery\s*Cancelled/);
    await section('Refunds').locator('[data-refund-status="processed"]').first().waitFor({ timeout: 20_000 });
    expect(await section('Refunds').innerText()).toContain(
      'Printed copy cancelled before dispatch (printing and delivery refunded): The buyer wants the PDF only',
    );
    const [mail] = await mailsTo(mailDir, farhan, 'was cancelled. Its printing and delivery fees');
    expect(mail!.text).toContain('Your digital Persona stays yours to download.');

    // Once shipped, the page says it can no longer be cancelled, and the route refuses it.
    await page.goto(`/admin/orders/${shipped.orderId}`);
    await section('Cancel the printed copy')
      .getByText('The printed copy was dispatched: it can no longer be cancelled. Refund the order once it comes back.')
      .waitFor();
    const tooLate = await fetch(`${shop.url}/api/orders/${shipped.orderId}/print/cancel`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ cancelId: crypto.randomUUID(), refund: 'print', reason: 'Too late' }),
    });
    expect(tooLate.status).toBe(409);
  });

  it("shows the shop's numbers on the dashboard, each leading to the list it totals", async () => {
    const [book] = await fetchAllBooks(shop.url);
    const auth = await adminAuth(shop.url);
    const summaryNow = async () => ((await (await fetch(`${shop.url}/api/orders/summary`, { headers: auth })).json()) as { data: OrderSummary }).data;
    const before = await summaryNow();
    const printed = await buyPersonaThroughApi(shop.url, {
      bookId: book._id,
      fullName: `Dashboard Reader ${RUN}`,
      email: 'dash@example.com',
      deliveryType: 'physical',
    });
    await postJson(shop.url, '/api/feedback', { name: 'Dashboard Asker', email: 'asker@example.com', message: `Is there a gift wrap? ${RUN}` });
    const after = await summaryNow();
    expect(after.awaitingDispatch).toBe(before.awaitingDispatch + 1);
    expect(after.sales.today.orders).toBe(before.sales.today.orders + 1);

    await logIn();
    const numbers = main().getByRole('list', { name: "The shop's numbers" });
    const stat = (label: string) => numbers.getByRole('link').filter({ hasText: label });
    await stat('Today').waitFor();
    const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });
    expect(await stat('Today').innerText()).toContain(rupees.format(after.sales.today.revenue));
    expect(await stat('Today').innerText()).toContain(`${after.sales.today.orders} paid order`);
    expect(await stat('Last 30 days').innerText()).toContain(rupees.format(after.sales.last30Days.revenue));
    expect(await stat('Printed copies to dispatch').innerText()).toContain(String(after.awaitingDispatch));
    await stat('New messages')
      .getByText(/^[1-9]/)
      .waitFor();

    // The chart is one named image with a sentence of what it shows; its numbers open as a table.
    const chart = main().getByRole('img', { name: 'Revenue per day, last 30 days' });
    expect(await chart.getAttribute('aria-describedby')).toBeTruthy();
    expect(await chart.locator('rect').count()).toBe(30);
    await main().getByText('Show the numbers').click();
    const todayRow = main().getByRole('region', { name: 'Revenue per day' }).getByRole('row').nth(1);
    expect(await todayRow.getByRole('cell').first().innerText()).toBe(String(after.days.at(-1)!.orders));

    // The printed copies waiting lead to the paid printed orders still pending, the new one among them.
    await stat('Printed copies to dispatch').click();
    await page.getByRole('heading', { level: 1, name: 'Order Dashboard' }).waitFor();
    expect(new URL(page.url()).searchParams.get('deliveryType')).toBe('physical');
    expect(await main().getByLabel('Delivery status', { exact: true }).inputValue()).toBe('pending');
    await main().locator(`tr[data-order-id="${printed.orderId}"]`).waitFor();
    await main()
      .getByText(new RegExp(`^${after.awaitingDispatch} orders?$`))
      .waitFor();

    // Today's sales lead to today's paid orders; the new messages to the messages of this week.
    await page.goBack();
    await stat('Today').click();
    await page.getByRole('heading', { level: 1, name: 'Order Dashboard' }).waitFor();
    expect(await main().getByLabel('From', { exact: true }).inputValue()).toBe(after.today);
    await main()
      .getByText(new RegExp(`^${after.sales.today.orders} orders?$`))
      .waitFor();
    await page.goBack();
    await stat('New messages').click();
    await page.getByRole('heading', { level: 1, name: 'Manage Feedbacks' }).waitFor();
    await main().getByText(`Is there a gift wrap? ${RUN}`).waitFor();
    await main()
      .getByText(/^Received since /)
      .waitFor();
    await main().getByRole('button', { name: 'Show all messages' }).click();
    await main()
      .getByText(/^Received since /)
      .waitFor({ state: 'detached' });
  });

  it('opens Feedback on the messages waiting, marks one handled with who and when, and answers one by e-mail', async () => {
    const question = `Can the dedication be in Tamil? ${RUN}`;
    const thanks = `Thank you for the lovely book ${RUN}`;
    await postJson(shop.url, '/api/feedback', { name: 'Revathi', email: `revathi.${RUN}@example.com`, message: question });
    await postJson(shop.url, '/api/feedback', { name: 'Arjun', email: `arjun.${RUN}@example.com`, message: thanks });

    const views = () => main().getByRole('group', { name: 'Show' });
    await logIn();
    await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Feedback' }).click();
    await page.getByRole('heading', { level: 1, name: 'Manage Feedbacks' }).waitFor();
    expect(await views().getByRole('button', { name: 'Waiting', exact: true }).getAttribute('aria-pressed')).toBe('true');

    // A thank-you needs no answer: marked handled, it leaves the waiting messages and shows who and when under Handled.
    const thanked = main().locator('li', { hasText: thanks });
    expect(await thanked.innerText()).toContain('Waiting');
    await thanked.getByRole('button', { name: 'Mark as handled the message from Arjun' }).click();
    await expectToast('Marked as handled');
    await thanked.waitFor({ state: 'detached' });
    await views().getByRole('button', { name: 'Handled', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('state') === 'handled');
    expect(await main().locator('li', { hasText: thanks }).innerText()).toMatch(new RegExp(`Handled by ${ADMIN.email} on `));

    // A question is answered by e-mail: the sender gets it from the shop, with their message quoted.
    await views().getByRole('button', { name: 'Waiting', exact: true }).click();
    const asked = main().locator('li', { hasText: question });
    await asked.getByRole('button', { name: 'Answer by e-mail to Revathi' }).click();
    const answer = asked.getByLabel(`Your answer to Revathi (revathi.${RUN}@example.com)`);
    await asked.getByRole('button', { name: 'Send answer' }).click();
    expect(await asked.getByRole('alert').innerText()).toBe('Write your answer first');
    await answer.fill('Yes: type the name in Tamil at checkout and it is printed as you wrote it.');
    await asked.getByRole('button', { name: 'Send answer' }).click();
    await expectToast('Answer sent');
    await asked.waitFor({ state: 'detached' });
    const [mail] = await mailsTo(path.join(dataDir, 'shop', 'mail'), `revathi.${RUN}@example.com`, 'it is printed as you wrote it');
    expect(mail!.text).toContain('Dear Revathi,');
    expect(mail!.text).toContain(`> ${question}`);

    await views().getByRole('button', { name: 'All', exact: true }).click();
    const answered = main().locator('li', { hasText: question });
    expect(await answered.innerText()).toMatch(new RegExp(`Answered by e-mail by ${ADMIN.email} on .*:`));
    expect(await answered.getByRole('button', { name: /^Answer by e-mail/ }).count()).toBe(0);
  });

  it('shows a contact message in Feedback, deletes it, and lists a twice-subscribed reader once', async () => {
    const message = `Do you ship to Goa? ${RUN}`;
    // The storefront's form takes typing once the page is interactive (its code starts after first paint).
    await open(page, '/contact-us');
    await page.getByLabel('Name', { exact: true }).fill('Nisha');
    await page.getByLabel('Email', { exact: true }).fill('nisha@example.com');
    await page.getByLabel('Message', { exact: true }).fill(message);
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.waitForURL('**/contact-success');

    const email = `reader.${RUN}@example.com`;
    for (let i = 0; i < 2; i++) {
      await open(page, '/');
      const footer = page.locator('footer');
      await footer.getByLabel('Email address').fill(email);
      await footer.getByRole('button', { name: 'Subscribe' }).click();
      await footer.getByText(i === 0 ? 'Thank you for subscribing!' : 'You are already subscribed.').waitFor();
    }

    await logIn();
    const menu = page.getByRole('navigation', { name: 'Admin menu' });
    await menu.getByRole('link', { name: 'Feedback' }).click();
    await page.getByRole('heading', { level: 1, name: 'Manage Feedbacks' }).waitFor();
    const item = main().locator('li', { hasText: message });
    await item.waitFor();
    expect(await item.innerText()).toContain('General');
    await item.getByRole('button', { name: 'Delete the message from Nisha' }).click();
    await confirmDialog().getByRole('button', { name: 'Delete' }).click();
    await expectToast('Feedback deleted successfully');
    await item.waitFor({ state: 'detached' });

    await menu.getByRole('link', { name: 'Subscribers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Newsletter Subscribers' }).waitFor();
    // The heading shows before the list has loaded: wait for the row, then count it.
    await main().getByRole('cell', { name: email, exact: true }).first().waitFor();
    expect(await main().getByRole('cell', { name: email, exact: true }).count()).toBe(1);
    const downloading = page.waitForEvent('download');
    await main().getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('subscribers.csv');
    const csv = (await downloadedBytes(download)).toString('utf8');
    expect(csv.split('\r\n').filter((line) => line.startsWith(`${email},`))).toHaveLength(1);

    // Logins and the book changes of the other journeys are in the audit log.
    await menu.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit Log' }).waitFor();
    await main().getByLabel('Show').selectOption('admin.logged_in');
    await main().locator('tbody tr').first().waitFor();
    expect(await main().locator('tbody').innerText()).toContain(ADMIN.email);
    // Every administrator's change says who made it: the message deleted above names this administrator.
    await main().getByLabel('Show').selectOption('feedback.deleted');
    const deletion = main().locator('tbody tr', { hasText: 'Message from Nisha deleted' });
    await deletion.waitFor();
    expect(await deletion.locator('td').last().innerText()).toBe(ADMIN.email);
  });

  it('adds a book by a Devanagari author, refusing first an author no Persona can print, and sells a Persona of it that reads back as typed', async () => {
    const title = `सूरज की किरण ${RUN}`;
    const author = 'सूरज प्रकाश';
    const paragraphs = ['सुबह सूरज उगा और गाँव की गलियों में धूप फैल गई। बच्चों ने शुभकामनाएँ दीं।', 'क्षितिज पर पक्षियों की पंक्ति दिखी; हवा में मिट्टी की सुगंध थी।'];
    await logIn();
    const menu = page.getByRole('navigation', { name: 'Admin menu' });
    await menu.getByRole('link', { name: 'Books' }).click();
    await main().getByRole('link', { name: 'Add New Book' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add New Book' }).waitFor();
    await page.getByLabel(/^Title/).fill(title);
    await page.getByLabel(/^Price/).fill('199');
    await page.getByLabel(/^Category/).selectOption({ index: 1 });
    await page.getByLabel('Language').fill('Hindi');
    await page.getByLabel(/^Description/).fill('सुबह की एक कहानी।');
    await page.getByLabel('Content (the full text)').fill(paragraphs.join('\n'));

    // An author no shipped face prints: refused on the page, naming the field and the characters; nothing is sent.
    await page.getByLabel(/^Author/).fill('Li Bai 李白');
    let posted = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/books') posted += 1;
    });
    await page.getByRole('button', { name: 'Create Book' }).click();
    await expectToast('Error saving book');
    expect(await toast().innerText()).toContain('The author has characters no Persona can print: “李” (U+674E), “白” (U+767D)');
    expect(posted).toBe(0);
    // The catalogue holds the same rule for a client that skips the form's.
    const form = new FormData();
    for (const [name, value] of Object.entries({
      title,
      author: 'Li Bai 李白',
      description: 'x',
      price: '199',
      category: (await fetchAllBooks(shop.url))[0]!.category!._id,
    }))
      form.append(name, value);
    const refused = await fetch(`${shop.url}/api/books`, { method: 'POST', headers: await adminAuth(shop.url), body: form });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toBe('The author has characters no Persona can print: “李” (U+674E), “白” (U+767D)');
    expect((await fetchAllBooks(shop.url)).filter((b) => b.title === title)).toHaveLength(0);

    // The same book by a Devanagari author is taken.
    await page.getByLabel(/^Author/).fill(author);
    const created = page.waitForResponse((r) => r.url().endsWith('/api/books') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Create Book' }).click();
    const book = ((await (await created).json()) as { data: { _id: string; author: string } }).data;
    expect(book.author).toBe(author);
    await expectToast('Book created successfully');

    // Sold to a Bengali buyer, its Persona is made and reads back as typed in pdf.js and in poppler.
    const buyer = 'শ্রীকান্ত';
    const { personaId } = await buyPersonaThroughApi(shop.url, { bookId: book._id, fullName: buyer });
    const status = async () => ((await (await fetch(`${shop.url}/api/orders/${personaId}`)).json()) as { data: { personaStatus: string } }).data.personaStatus;
    expect(await settle(status, 'ready', 60_000)).toBe('ready');
    const pdf = new Uint8Array(await (await fetch(`${shop.url}/api/personas/${personaId}/download`)).arrayBuffer());
    const footer = `Personal copy of ${buyer} · ${personaId}`;
    for (const [reader, pages] of Object.entries(await pageTextsByReader(pdf))) {
      const lines = pages.map((text) => text.split('\n').map((line) => line.trim()));
      const seen = { reader };
      // The book's cover, when it has one, is page 1 (the footer only, as text).
      const first = lines[0]!.includes(title) ? 0 : 1;
      expect({ ...seen, titlePage: [title, author].every((line) => lines[first]!.includes(line)) }).toEqual({ ...seen, titlePage: true });
      expect({ ...seen, dedication: [`Personalised for ${buyer}`, author].every((line) => lines[first + 1]!.includes(line)) }).toEqual({
        ...seen,
        dedication: true,
      });
      expect({ ...seen, footers: lines.every((page) => page.includes(footer)) }).toEqual({ ...seen, footers: true });
      const body = lines
        .slice(first + 2)
        .flat()
        .filter((line) => line !== footer && !/^\d+$/.test(line))
        .join(' ');
      expect({ ...seen, text: paragraphs.every((paragraph) => body.includes(paragraph)) }).toEqual({ ...seen, text: true });
      expect({ ...seen, joiners: pages.some((text) => /\u200d/.test(text)) }).toEqual({ ...seen, joiners: false });
    }
    // Its EPUB has the same words, each phrase whole.
    const epub = epubTexts(new Uint8Array(await (await fetch(`${shop.url}/api/personas/${personaId}/download?format=epub`)).arrayBuffer())).join('\n');
    for (const text of [title, author, buyer, ...paragraphs.flatMap((p) => p.split(/[।;]\s*/u)).filter(Boolean)])
      expect({ text, found: epub.includes(text) }).toEqual({ text, found: true });
  }, 180_000);
});

function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
