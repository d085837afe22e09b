// The owner's monthly reports in real Chromium (embedded shop, test-mode Razorpay): after a paid
// order and a partial refund, the owner opens Reports from the menu, downloads the month's GST
// return and settlement reconciliation, and finds the order's invoice, credit note, payment and
// refund in them; the page lists the reconciliation's summary and mismatches.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { OrderDetail } from '@persona/contracts';
import { startShop, type RunningShop } from '@persona/launcher';
import { closeChromium, launchChromium, SHOP_HOOK_TIMEOUT_MS } from './support/browser';
import { adminAuth, buyPersonaThroughApi, fetchAllBooks, postJson, TEST_ADMIN } from './support/shop';

let shop: RunningShop;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let dataDir: string;
let auth: { authorization: string };

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'persona-reports-'));
  shop = await startShop({
    dataDir: path.join(dataDir, 'shop'),
    port: 0,
    host: '127.0.0.1',
    env: { ...process.env, ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password, ADMIN_NAME: TEST_ADMIN.name },
  });
  auth = await adminAuth(shop.url);
  browser = await launchChromium();
}, SHOP_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await closeChromium(browser);
  await shop?.close();
  await rm(dataDir, { recursive: true, force: true });
}, SHOP_HOOK_TIMEOUT_MS);

beforeEach(async () => {
  context = await browser.newContext({ baseURL: shop.url, viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  // Logged in as the login page would leave it (the token in local storage).
  await context.addInitScript(
    ([value, admin]) => {
      localStorage.setItem('token', value);
      localStorage.setItem('admin', admin);
    },
    [auth.authorization.replace(/^Bearer /, ''), JSON.stringify({ name: TEST_ADMIN.name, email: TEST_ADMIN.email })] as const,
  );
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

/** The order as its page reads it, once `ready` says it is. */
async function orderWhen(orderId: string, ready: (detail: OrderDetail) => boolean): Promise<OrderDetail> {
  for (let i = 0; i < 150; i += 1) {
    const res = await fetch(`${shop.url}/api/orders/${orderId}/detail`, { headers: auth });
    const detail = ((await res.json()) as { data: OrderDetail }).data;
    if (ready(detail)) return detail;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`order ${orderId} never got there`);
}

async function downloaded(button: string): Promise<{ name: string; text: string }> {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: button }).click();
  const download = await downloading;
  return { name: download.suggestedFilename(), text: await readFile((await download.path())!, 'utf8') };
}

describe('the Reports page', () => {
  it("downloads the month's GST return and settlement reconciliation, holding a paid and partly refunded order", async () => {
    const [book] = await fetchAllBooks(shop.url);
    const sold = await buyPersonaThroughApi(shop.url, {
      bookId: book!._id,
      fullName: 'Anaswara Raveendran',
      email: 'anaswara@example.com',
      deliveryType: 'digital',
    });
    await orderWhen(sold.orderId, (d) => d.invoices.some((i) => i.kind === 'invoice'));
    await postJson(shop.url, `/api/orders/${sold.orderId}/refunds`, { refundId: randomUUID(), amountPaise: 10_000, reason: 'Reports journey' }, auth);
    const detail = await orderWhen(sold.orderId, (d) => d.refunds[0]?.status === 'processed' && d.invoices.some((i) => i.kind === 'credit-note'));
    const invoice = detail.invoices.find((i) => i.kind === 'invoice')!;
    const creditNote = detail.invoices.find((i) => i.kind === 'credit-note')!;
    const month = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 7);

    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();
    expect(await page.getByLabel('Month').inputValue()).toBe(month);

    // The GST return: the invoice and the credit note among the documents issued, the e-book's tax by state and rate, its SAC.
    const gst = await downloaded('Download GST return');
    expect(gst.name).toBe(`gstr1-${month}.csv`);
    expect(gst.text).toMatch(/^GSTR-1,/);
    expect(gst.text).toMatch(new RegExp(`\\r\\nInvoices for outward supply,[^,]+,${invoice.number.replace(/\//g, '\\/')},1,0,1\\r\\n`));
    expect(gst.text).toContain(`\r\nCredit Note,${creditNote.number},${creditNote.number},1,0,1\r\n`);
    expect(gst.text).toMatch(/\r\nOE,29-Karnataka,Intra State,5,[0-9]+\.[0-9]{2},0\.00,[0-9]+\.[0-9]{2},[0-9]+\.[0-9]{2},0\.00\r\n/);
    expect(gst.text).toMatch(/\r\n9984,E-books,NA,1,/);

    // The settlement reconciliation: the payment and the refund, each awaiting Razorpay's settlement (two days after).
    const recon = await downloaded('Download reconciliation');
    expect(recon.name).toBe(`settlement-reconciliation-${month}.csv`);
    const paid = (invoice.totalPaise / 100).toFixed(2);
    expect(recon.text).toContain(`\r\nAwaiting settlement,payment,${detail.payment.razorpayPaymentId},${sold.orderId},${sold.personaId},`);
    expect(recon.text).toContain(`,${paid},,,,,,,Not settled yet`);
    expect(recon.text).toContain(`\r\nAwaiting settlement,refund,${detail.refunds[0]!.razorpayRefundId},${sold.orderId},${sold.personaId},`);
    expect(recon.text).toContain('\r\nMISMATCHES\r\n');

    // The page: the month's summary, and no mismatch to look into.
    const settlement = page.getByRole('region', { name: /^Settlement reconciliation/ });
    await settlement.getByText('Awaiting settlement', { exact: true }).waitFor();
    expect(await settlement.innerText()).toMatch(/Payments\s*1 · ₹[0-9]+\.[0-9]{2}[\s\S]*Refunds\s*1 · ₹100\.00[\s\S]*Awaiting settlement\s*2/);
    await settlement.getByRole('heading', { name: 'Mismatches (0)' }).waitFor();
    await settlement.getByText(/^No mismatches/).waitFor();
  });
});
