// The contact page and the footer newsletter in real Chromium, against the whole shop started
// in-process with a known administrator: a message sent from /contact-us goes through the gateway
// to POST /api/feedback and is then in the admin's feedback list (DESIGN §9.9).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startShop, type RunningShop } from '@persona/launcher';
import { launchChromium, settle, closeChromium, open, SHOP_HOOK_TIMEOUT_MS } from './support/browser';
import { fromShopTemplate, TEST_ADMIN } from './support/shared-fixtures';

// The run's template's administrator (the shop starts from the template).
const { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } = TEST_ADMIN;

let shop: RunningShop;
let dataDir: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Bodies of every POST /api/feedback the page made. */
let feedbackPosts: string[];

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
const digits = (text: string) => text.replace(/\D/g, '');
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'persona-contact-'));
  await fromShopTemplate(path.join(dataDir, 'shop'));
  shop = await startShop({ dataDir: path.join(dataDir, 'shop'), port: 0, host: '127.0.0.1', env: { ...process.env, ADMIN_EMAIL, ADMIN_PASSWORD } });
  browser = await launchChromium();
}, 120000);

afterAll(async () => {
  await closeChromium(browser);
  await shop?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, SHOP_HOOK_TIMEOUT_MS);

beforeEach(async () => {
  context = await browser.newContext({ baseURL: shop.url, viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  feedbackPosts = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/feedback') feedbackPosts.push(request.postData() ?? '');
  });
});

afterEach(async () => {
  await context?.close();
});

const main = () => page.getByRole('main');
const field = (label: 'Name' | 'Email' | 'Message') => main().getByLabel(label, { exact: true });
const sendButton = () => main().getByRole('button', { name: /^(Send Message|Sending\.\.\.)$/ });
const contactForm = () =>
  main()
    .locator('form')
    .filter({ has: page.getByRole('heading', { name: 'Send us a message' }) });

async function openContactPage() {
  await open(page, '/contact-us');
  await main().getByRole('heading', { level: 1, name: 'Contact Us' }).waitFor();
}

async function fillForm(values: { name: string; email: string; message: string }) {
  await field('Name').fill(values.name);
  await field('Email').fill(values.email);
  await field('Message').fill(values.message);
}

async function adminFeedback(): Promise<Array<{ name: string; email: string; message: string; bookId: unknown }>> {
  const login = await fetch(`${shop.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  expect(login.status).toBe(200);
  const { token } = ((await login.json()) as { data: { token: string } }).data;
  const list = await fetch(`${shop.url}/api/feedback/all`, { headers: { authorization: `Bearer ${token}` } });
  expect(list.status).toBe(200);
  // Only `data` is read: the answer may carry paging details beside it.
  return ((await list.json()) as { data: Array<{ name: string; email: string; message: string; bookId: unknown }> }).data;
}

describe('contact form', () => {
  it('sends the message through the gateway once, shows "Sending..." meanwhile, lands on "Thank You", and the admin sees it', async () => {
    const tag = unique();
    const email = `asha.${tag}@example.com`;
    const message = `Will the printed edition of my Persona ship before Diwali? (${tag})\nThanks!`;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Hold the real request so the sending state can be seen; then let it through to the gateway.
    await page.route('**/api/feedback', async (route) => {
      await held;
      await route.continue();
    });

    await openContactPage();
    await fillForm({ name: '  Asha Rao ', email: ` ${email} `, message: `\n${message}  ` });
    await sendButton().click();

    await main().getByRole('button', { name: 'Sending...' }).waitFor();
    expect(await sendButton().isDisabled()).toBe(true);
    // A second submit while sending is ignored (the disabled button cannot, so ask the form itself).
    await contactForm().evaluate((form) => (form as HTMLFormElement).requestSubmit());
    await field('Name').press('Enter');
    await page.waitForTimeout(300);
    expect(feedbackPosts).toHaveLength(1);

    release();
    await page.waitForURL((url) => url.pathname === '/contact-success');
    await main().getByRole('heading', { level: 1, name: 'Thank You' }).waitFor();
    expect(squash(await main().innerText())).toMatch(/Your message has reached us, and we reply within two working days\./);
    expect(await main().getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
    expect(await main().getByRole('link', { name: 'Explore Books' }).getAttribute('href')).toBe('/books');
    expect(await settle(() => page.title(), 'Thank You | Persona Books')).toBe('Thank You | Persona Books');

    expect(feedbackPosts).toHaveLength(1);
    expect(JSON.parse(feedbackPosts[0]!)).toEqual({ name: 'Asha Rao', email, message });

    const stored = (await adminFeedback()).filter((item) => item.email === email);
    expect(stored).toEqual([expect.objectContaining({ name: 'Asha Rao', email, message, bookId: null })]);
  });

  it('refuses an invalid e-mail with a visible, announced error and sends nothing', async () => {
    await openContactPage();
    const emailInput = field('Email');
    expect(await emailInput.getAttribute('type')).toBe('email');
    for (const label of ['Name', 'Email', 'Message'] as const)
      expect({ label, required: await field(label).evaluate((el) => (el as HTMLInputElement).required) }).toEqual({ label, required: true });

    await fillForm({ name: 'Asha Rao', email: 'not an email', message: 'Hello there' });
    // The browser's own check refuses it too.
    expect(await emailInput.evaluate((el) => (el as HTMLInputElement).checkValidity())).toBe(false);
    await sendButton().click();
    const error = main().getByRole('alert').filter({ hasText: 'Please enter a valid email address' });
    await error.waitFor();
    expect(await emailInput.getAttribute('aria-invalid')).toBe('true');
    expect(await emailInput.getAttribute('aria-describedby')).toBe(await error.getAttribute('id'));
    expect(await emailInput.evaluate((el) => el === document.activeElement)).toBe(true);

    // A shape the browser lets through but the server would refuse (no dot in the domain).
    await emailInput.fill('asha@example');
    await sendButton().click();
    await error.waitFor();

    // Everything empty: three errors, focus on the first field.
    await fillForm({ name: ' ', email: '', message: '  ' });
    await sendButton().click();
    for (const text of ['Please enter your name', 'Please enter a valid email address', 'Please enter your message']) {
      await main().getByRole('alert').filter({ hasText: text }).waitFor();
    }
    expect(await field('Name').evaluate((el) => el === document.activeElement)).toBe(true);

    await page.waitForTimeout(300);
    expect(feedbackPosts).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/contact-us');

    // Corrected, the errors go as the visitor types.
    await fillForm({ name: 'Asha Rao', email: 'asha@example.com', message: 'Hello there' });
    expect(await settle(() => main().getByRole('alert').count(), 0)).toBe(0);
    expect(await emailInput.getAttribute('aria-invalid')).toBeNull();
  });

  it('a refused message shows the server\'s words (else "Something went wrong!") in a destructive toast and keeps the text', async () => {
    const typed = { name: 'Asha Rao', email: 'asha@example.com', message: 'Please call me back about my order.' };
    await page.route('**/api/feedback', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 429, error: 'Too Many Requests', message: 'Too many requests; please try again in 42 seconds' }),
      }),
    );
    await openContactPage();
    await fillForm(typed);
    await sendButton().click();

    const toast = page.getByRole('alert').filter({ hasText: 'Message not sent' });
    await toast.waitFor();
    expect(squash(await toast.innerText())).toContain('Too many requests; please try again in 42 seconds');
    expect(await page.locator('.toast').count()).toBe(1);
    expect(await sendButton().innerText()).toBe('Send Message');
    expect(await sendButton().isEnabled()).toBe(true);
    // Focus is back on the button, ready for another try.
    expect(await settle(() => sendButton().evaluate((el) => el === document.activeElement), true)).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/contact-us');
    expect({ name: await field('Name').inputValue(), email: await field('Email').inputValue(), message: await field('Message').inputValue() }).toEqual(typed);

    await page.unroute('**/api/feedback');
    await page.route('**/api/feedback', (route) =>
      route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1></body></html>' }),
    );
    await sendButton().click();
    await page.getByRole('alert').filter({ hasText: 'Something went wrong!' }).waitFor();
    expect(await page.locator('.toast').count()).toBe(1);
    expect(await field('Message').inputValue()).toBe(typed.message);
  });

  it('lists the support e-mail (mailto:), phone (tel:) and postal address, and sets the page head', async () => {
    await openContactPage();
    const details = main().getByRole('region', { name: 'Other ways to reach us' });
    const mail = details.locator('a[href^="mailto:"]');
    expect(await mail.count()).toBe(1);
    const mailText = (await mail.innerText()).trim();
    expect(mailText).toMatch(/^[^\s@]+@[^\s@]+\.[^\s@]+$/);
    expect(await mail.getAttribute('href')).toBe(`mailto:${mailText}`);

    const phone = details.locator('a[href^="tel:"]');
    expect(await phone.count()).toBe(1);
    const phoneText = (await phone.innerText()).trim();
    expect(digits(phoneText).length).toBeGreaterThanOrEqual(8);
    expect(digits((await phone.getAttribute('href'))!)).toBe(digits(phoneText));

    const address = details.locator('address');
    expect(await address.count()).toBe(1);
    expect(squash(await address.innerText()).length).toBeGreaterThan(10);

    expect(await settle(() => page.title(), 'Contact Us | Persona Books')).toBe('Contact Us | Persona Books');
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    expect(description).toContain(mailText);
  });

  it('the header "Contact" and footer "Contact Us" links go to /contact-us', async () => {
    await open(page, '/books');
    expect(await page.getByRole('contentinfo').getByRole('link', { name: 'Contact Us', exact: true }).getAttribute('href')).toBe('/contact-us');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contact', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/contact-us');
    await main().getByRole('heading', { level: 1, name: 'Contact Us' }).waitFor();
  });

  it('the gateway answers /contact-us and /contact-success with the page (200)', async () => {
    for (const pathname of ['/contact-us', '/contact-success']) {
      const res = await fetch(`${shop.url}${pathname}`);
      expect({ pathname, status: res.status }).toEqual({ pathname, status: 200 });
    }
  });
});

describe('footer newsletter', () => {
  async function subscribeViaApi(email: string): Promise<string> {
    const res = await fetch(`${shop.url}/api/newsletter/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { message: string }).message;
  }

  it("subscribes with the server's message, and a second time answers the already-subscribed message", async () => {
    // What the server says to a new and to a known address, learnt from the API itself.
    const probe = `probe.${unique()}@example.com`;
    const welcome = await subscribeViaApi(probe);
    const already = await subscribeViaApi(probe);
    expect(already).not.toBe(welcome);
    expect(already).toMatch(/already subscribed/i);

    await open(page, '/contact-us');
    const footer = page.getByRole('contentinfo');
    const email = footer.getByRole('textbox', { name: 'Email address' });
    const status = footer.getByRole('status');
    const reader = `reader.${unique()}@example.com`;

    await email.fill(reader);
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    expect(await settle(async () => (await status.innerText()).trim(), welcome)).toBe(welcome);
    expect(await email.inputValue()).toBe('');

    await email.fill(reader);
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    expect(await settle(async () => (await status.innerText()).trim(), already)).toBe(already);
  });
});
