// Coupon codes in real Chromium (issue 23): the owner creates a code on the admin's Coupons page, a
// buyer applies it at checkout and sees the discount and the new total before paying, pays in test
// mode, and downloads the tax invoice from the success page, which shows the discount before tax;
// the owner then sees the redemption, final, and the discount on the order's page, and switches the code off.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Book } from '@persona/contracts';
import { startShop, type RunningShop } from '@persona/launcher';
import { popplerPageTexts } from '@persona/test-kit';
import { launchChromium, closeChromium, open, SHOP_HOOK_TIMEOUT_MS } from './support/browser';
import { fetchAllBooks } from './support/shop';
import { fromShopTemplate } from './support/shared-fixtures';

const ADMIN = { email: 'owner@persona-books.in', password: 'correct horse battery', name: 'Asha' };
const CODE = 'LAUNCH-25';
const buyer = { fullName: 'Meera Iyer', email: 'meera.iyer@example.com', phone: '+91 98450 12345' };

let shop: RunningShop;
let browser: Browser;
let dataDir: string;
let book: Book;

const inr = (paise: number) => `₹${(paise / 100).toFixed(2)}`;
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'persona-coupons-'));
  // The run's shop template: a first start already made, with this suite's administrator (TEST_ADMIN).
  await fromShopTemplate(path.join(dataDir, 'shop'));
  shop = await startShop({
    dataDir: path.join(dataDir, 'shop'),
    port: 0,
    host: '127.0.0.1',
    env: { ...process.env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: ADMIN.name },
  });
  [book] = await fetchAllBooks(shop.url);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await closeChromium(browser);
  await shop?.close();
  await rm(dataDir, { recursive: true, force: true });
}, SHOP_HOOK_TIMEOUT_MS);

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: shop.url, viewport: { width: 1280, height: 900 } });
  return { context, page: await context.newPage() };
}

async function logIn(page: Page) {
  await page.goto('/admin/login');
  await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByRole('heading', { level: 1, name: 'Admin Dashboard' }).waitFor();
}

describe('coupon codes', () => {
  it('the owner creates a code; a buyer applies it, sees the discount, pays, and the invoice shows it; the owner sees the redemption', async () => {
    // The owner: Coupons, from the menu; a code for a quarter off the book's price, once per buyer.
    const owner = await newPage();
    await logIn(owner.page);
    await owner.page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Coupons' }).click();
    await owner.page.getByRole('heading', { level: 1, name: 'Coupons' }).waitFor();
    const admin = owner.page.locator('main');
    await admin.getByText('No codes yet. Add the first one.').waitFor();
    await admin.getByLabel('Code', { exact: true }).fill(CODE.toLowerCase());
    await admin.getByLabel("Percent off the book's price (1–100)").fill('25');
    await admin.getByLabel('Uses in all (empty: no limit)').fill('10');
    // Pressed twice: one code.
    await admin.getByRole('button', { name: 'Create Coupon' }).dblclick();
    const row = admin.locator(`li[data-coupon="${CODE}"]`);
    await row.waitFor();
    expect(squash(await row.innerText())).toMatch(/LAUNCH-25 Active 25% off · every book Used 0 of 10 · 1 per e-mail · no end date/);
    expect(await admin.locator('li[data-coupon]').count()).toBe(1);

    // The buyer: the code applied at checkout, priced by the shop before paying.
    const discount = Math.floor((Math.round(book.price * 100) * 25) / 100);
    const total = Math.round(book.price * 100) - discount;
    const shopper = await newPage();
    const page = shopper.page;
    await open(page, `/checkout/${book._id}`);
    const main = page.getByRole('main');
    await main.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
    await main.getByLabel('Full Name', { exact: true }).fill(buyer.fullName);
    await main.getByLabel('Email', { exact: true }).fill(buyer.email);
    await main.getByLabel('Phone Number', { exact: true }).fill(buyer.phone);
    const couponField = main.getByLabel('Coupon code (optional)');
    await couponField.fill('NO-SUCH-CODE');
    await main.getByRole('button', { name: 'Apply' }).click();
    await main.getByText('There is no such code: check its spelling').waitFor();
    await couponField.fill(CODE.toLowerCase());
    await main.getByRole('button', { name: 'Apply' }).click();
    const summary = main.getByRole('region', { name: 'Order summary' });
    await summary.getByText(`Discount (${CODE})`).waitFor();
    expect(squash(await summary.innerText())).toContain(`Discount (${CODE}) −${inr(discount)} Total ${inr(total)}`);
    await main.getByText(`${CODE}: 25% off the book's price`).waitFor();
    const submit = main.getByRole('button', { name: `Complete Purchase - ${inr(total)}` });
    await submit.waitFor();

    // The code travels as a code; the shop's answer and the payment dialog carry the discounted amount.
    const initiated = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/payments/initiate');
    await submit.click();
    const sent = (await initiated).postDataJSON() as Record<string, unknown>;
    expect(sent.coupon).toBe(CODE);
    expect(sent).not.toHaveProperty('discountPaise');
    const dialog = page.getByRole('dialog', { name: 'Test-mode payment' });
    await dialog.waitFor();
    expect(squash(await dialog.innerText())).toContain(inr(total));
    await dialog.getByRole('button', { name: 'Pay successfully' }).click();
    await page.waitForURL((url) => url.pathname === '/payment-success', { timeout: 30_000 });
    await main.getByRole('heading', { level: 1, name: 'Payment Successful!' }).waitFor();
    const personaId = new URL(page.url()).searchParams.get('personaId')!;
    expect(squash(await main.getByRole('region', { name: 'Your order' }).innerText())).toContain(
      `Book price ${inr(total + discount)} Discount (${CODE}) −${inr(discount)} Amount paid ${inr(total)}`,
    );

    // The tax invoice from the success page's link: the discount off the book's line, before tax.
    const invoiceLink = main.getByRole('link', { name: 'Download your tax invoice (PDF)' });
    const href = (await invoiceLink.getAttribute('href'))!;
    expect(href).toBe(`/api/orders/${personaId}/invoice`);
    let invoice = await shopper.context.request.get(href);
    for (let i = 0; i < 100 && invoice.status() !== 200; i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      invoice = await shopper.context.request.get(href);
    }
    expect(invoice.headers()['content-type']).toBe('application/pdf');
    const text = (await popplerPageTexts(new Uint8Array(await invoice.body()), 'layout')).join('\n');
    // The Persona ID may wrap in its cell.
    expect(text.replace(/\s+/g, '')).toContain(personaId);
    expect(text).toMatch(new RegExp(`Less discount\\s+−${inr(discount).replace('.', '\\.')}`));
    expect(text).toMatch(new RegExp(`${inr(total).replace('.', '\\.')}`));
    await shopper.context.close();

    // The owner: the code used once, its redemption final (paid), with the order.
    await owner.page.reload();
    await row.waitFor();
    expect(squash(await row.innerText())).toContain('Used 1 of 10');
    await row.getByRole('button', { name: `Redemptions of ${CODE}` }).click();
    const redemptions = admin.getByRole('region', { name: `Redemptions of ${CODE}` });
    const line = redemptions.locator('tr[data-redemption-state="final"]');
    await line.waitFor();
    expect(squash(await line.innerText())).toMatch(new RegExp(`${personaId} ${buyer.email} ${inr(discount).replace('.', '\\.')} Final`));
    // Its order, from the redemption: the code and its discount among the amounts.
    await line.getByRole('link', { name: personaId }).click();
    await owner.page.getByRole('heading', { level: 1, name: `Order ${personaId}` }).waitFor();
    const amounts = squash(await admin.getByRole('region', { name: 'Book and amounts' }).innerText());
    expect(amounts).toContain(`Discount (${CODE}) −${inr(discount)} Total ${inr(total)}`);

    // Switched off: the list says so, and the checkout hears it in words.
    await owner.page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Coupons' }).click();
    await row.getByRole('button', { name: `Deactivate ${CODE}` }).click();
    await row.getByText('Inactive', { exact: true }).waitFor();
    const priced = await fetch(`${shop.url}/api/coupons/price`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: CODE, book: book._id, deliveryType: 'digital' }),
    });
    expect((await priced.json()).data).toMatchObject({ applies: false, reason: 'inactive', message: 'This code is no longer in use' });
    await owner.context.close();
  }, 180_000);
});
