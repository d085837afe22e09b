// Browser journeys through checkout and payment in real Chromium, against the whole shop in
// test mode (the local Razorpay stand-in and the storefront's test-mode payment dialog):
// buying digital and printed Personas, the PIN code rule, a declined payment, a dismissed dialog,
// /send-persona preparing then offering the PDF, and verifying that PDF.
import { verify } from 'node:crypto';
import type { Page, Request } from 'playwright-core';
import type { Book } from '@persona/contracts';
import { downloadedBytes, settle, open } from './support/browser';
import { extractPageTexts, popplerPageTexts } from '@persona/test-kit';
import { shopDate } from '@persona/contracts';
import { adminAuth, buyPersonaThroughApi, declineThroughApi, initiateThroughApi, mailsTo } from './support/shop';
import { browserJourney, squash } from './support/journey';

const inr = (rupees: number) => `₹${rupees.toFixed(2)}`;
const PERSONA_ID = /^PRS-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;
const READY_TIMEOUT_MS = 60000;

const buyer = { fullName: 'Asha Rao', email: 'asha.rao@example.com', phone: '+91 98765 43210' };
/** A printed copy's address: the PIN code fills the city and the state (Kerala, the invoice's place of supply); India is fixed. */
const address = { line1: '12 MG Road', city: 'Kochi', zip: '682016', country: 'India' };

/** A book to buy digitally, and one to print (with a printing cost when the catalogue has one). */
function pickBooks(): { digitalBook: Book; physicalBook: Book } {
  const physicalBook = journey.books.find((b) => b.printingCost > 0) ?? journey.books[1] ?? journey.books[0]!;
  const digitalBook = journey.books.find((b) => b._id !== physicalBook._id) ?? physicalBook;
  return { digitalBook, physicalBook };
}

const journey = browserJourney({ contextOptions: { acceptDownloads: true } });
const { main, field } = journey;

const submitButton = () => main().getByRole('button', { name: /^(Complete Purchase - ₹|Processing\.\.\.)/ });
const testModeDialog = () => journey.page.getByRole('dialog', { name: 'Test-mode payment' });

async function openCheckout(book: Book) {
  await open(journey.page, `/checkout/${book._id}`);
  await main().getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
  await main().getByText(book.title, { exact: true }).first().waitFor();
}

async function fillBuyer() {
  await field('Full Name').fill(buyer.fullName);
  await field('Email').fill(buyer.email);
  await field('Phone Number').fill(buyer.phone);
}

async function choosePhysical(values = address) {
  await main().getByRole('radio', { name: 'Physical' }).check();
  await field('PIN code').fill(values.zip);
  // A whole PIN code fills the city (the directory knows Kochi's) and the state.
  if (/^[1-9][0-9]{5}$/.test(values.zip)) await settle(() => field('City').inputValue(), values.city);
  await field('City').fill(values.city);
  await field('Address Line 1').fill(values.line1);
}

/** Records the API calls the page makes (method and path). */
function recordApiCalls(): string[] {
  const calls: string[] = [];
  journey.page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) calls.push(`${request.method()} ${url.pathname}`);
  });
  return calls;
}

/** Pays in the test-mode dialog and answers the persona id shown on the success page, checking its receipt of `book`. */
async function payAndReachSuccess(book: Book, deliveryType: 'digital' | 'physical' = 'digital'): Promise<string> {
  const dialog = testModeDialog();
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Pay successfully' }).click();
  await journey.page.waitForURL((url) => url.pathname === '/payment-success', { timeout: 30000 });
  await main().getByRole('heading', { level: 1, name: 'Payment Successful!' }).waitFor();
  const url = new URL(journey.page.url());
  const personaId = url.searchParams.get('personaId') ?? '';
  expect(personaId).toMatch(PERSONA_ID);
  expect(url.searchParams.get('orderId')).toMatch(/^[0-9a-f-]{36}$/);
  expect(squash(await main().innerText())).toContain(personaId);
  const toast = journey.page.getByRole('region', { name: 'Notifications' });
  expect(squash(await toast.innerText())).toContain('Payment Successful');
  expect(squash(await toast.innerText())).toContain('Your order has been placed!');
  expect(await main().getByRole('link', { name: 'View your Persona' }).getAttribute('href')).toBe(`/send-persona?personaId=${personaId}`);
  expect(await main().getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
  // The receipt: what was bought, the amount paid, where the confirmation went, and for a printed copy where it goes.
  const receipt = squash(await main().getByRole('region', { name: 'Your order' }).innerText());
  const total = deliveryType === 'physical' ? book.price + book.printingCost + 50 : book.price;
  expect(receipt).toContain(`Book ${book.title} by ${book.author}`);
  expect(receipt).toContain(`Amount paid ${inr(total)}`);
  // The receipt e-mail goes within the minute (with the Persona's links if it is ready by then).
  expect(receipt).toMatch(/Your receipt (and the links to your Persona are on their|is on its) way to /);
  expect(receipt).toContain(`way to ${buyer.email}`);
  if (deliveryType === 'physical') {
    expect(receipt).toContain(`Printing ${inr(book.printingCost)}`);
    // Whom the courier brings it to and where, and the day the shop promised (issue 24).
    expect(receipt).toMatch(
      new RegExp(`Delivering to: .*${address.line1}.*${address.city}.*${address.zip}, ${address.country}\\. Arrives by \\d{1,2} [A-Z][a-z]+ \\d{4}\\.`),
    );
  } else {
    expect(receipt).not.toContain('Delivering to');
  }
  return personaId;
}

/**
 * The buyer's e-mails about `personaId`: a Persona ready within a minute of payment is told in one
 * (the ready e-mail is the receipt too); a slower one has the confirmation at a minute, then its own.
 */
async function expectOrderEmails(personaId: string, book: Book, total: number) {
  const [ready] = await mailsTo(journey.shop.mailDir, buyer.email, `/api/personas/${personaId}/download`, 1, 90_000);
  expect(ready!.html).toContain(`/api/personas/${personaId}/download`);
  expect(ready!.html).toContain('>Download PDF</a>');
  const combined = ready!.text.includes('This e-mail is your receipt.');
  const receipts = (await mailsTo(journey.shop.mailDir, buyer.email, 'This e-mail is your receipt.', 1, 90_000)).filter((mail) =>
    mail.text.includes(personaId),
  );
  expect(receipts).toHaveLength(1);
  const receipt = receipts[0]!;
  if (combined) expect(receipt.text).toContain('Thank you: your Persona is ready');
  else expect(receipt.text).toContain('Thank you for your order');
  expect((await mailsTo(journey.shop.mailDir, buyer.email, personaId, 1, 0)).length).toBe(combined ? 1 : 2);
  expect(receipt.text).toContain(`We have received your payment of ${inr(total)}. This e-mail is your receipt.`);
  expect(receipt.text).toContain(book.title);
  expect(receipt.text).toContain(`/send-persona?personaId=${personaId}`);
  // It names the tax invoice, with its link.
  expect(receipt.text).toMatch(new RegExp(`Tax invoice: +PB/\\d\\d-\\d\\d/\\d{6}: \\S+/api/orders/${personaId}/invoice`));
  expect(receipt.html).toContain(`${inr(total)}`);
}

/** Opens /send-persona from the success page and waits, without reloading, for the download. */
async function waitForPersona(personaId: string, book: Book, deliveryType: 'Digital' | 'Physical') {
  await main().getByRole('link', { name: 'View your Persona' }).click();
  await journey.page.waitForURL((url) => url.pathname === '/send-persona');
  await main().getByRole('heading', { level: 1, name: 'Your Persona is Ready!' }).waitFor({ timeout: 15000 });
  const download = main().getByRole('link', { name: `Download PDF of ${book.title}` });
  await download.waitFor({ timeout: READY_TIMEOUT_MS });
  const text = squash(await main().innerText());
  expect(text).toContain(book.title);
  expect(text).toContain(book.author);
  expect(text).toContain(personaId);
  expect(text).toContain(deliveryType);
  // One true state: the timeline has reached "Ready to download"; a digital copy has no delivery status.
  const steps = main().getByRole('list', { name: 'Order progress' }).getByRole('listitem');
  expect((await steps.allInnerTexts()).map(squash)).toEqual(
    deliveryType === 'Digital'
      ? ['Paid (done)', 'Prepared (done)', 'Ready to download (done)']
      : ['Paid (done)', 'Prepared (done)', 'Ready to download (done)', 'Shipped (in progress)', 'Delivered (to come)'],
  );
  if (deliveryType === 'Digital') {
    expect(text).not.toContain('Delivery Status');
  } else {
    expect(squash(await main().locator('dt:has-text("Delivery Status") + dd').innerText())).toBe('Pending');
    expect(text).toContain('Your printed copy is dispatched within 2 business days.');
  }
  expect(await download.getAttribute('download')).not.toBeNull();
  // The download page offers both formats when the book is typeset from its text; a publisher's PDF is the PDF only.
  const epub = main().getByRole('link', { name: `Download EPUB of ${book.title}` });
  expect(await epub.count()).toBe(book.hasFullPdf ? 0 : 1);
  if (!book.hasFullPdf) expect(await epub.getAttribute('href')).toBe(`/api/personas/${personaId}/download?format=epub`);
  expect(await main().getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
  return download;
}

/** Fetches the PDF behind the download link and checks it is a real, non-trivial PDF; then downloads it through the browser. */
async function downloadPdf(download: ReturnType<Page['getByRole']>): Promise<Buffer> {
  const href = (await download.getAttribute('href')) ?? '';
  expect(href).not.toBe('');
  const response = await journey.page.request.get(href);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/pdf');
  const pdf = await response.body();
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdf.length).toBeGreaterThan(5000);

  const [file] = await Promise.all([journey.page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toMatch(/\.pdf$/i);
  expect((await downloadedBytes(file)).length).toBe(pdf.length);
  return pdf;
}

describe('checkout page', () => {
  it('shows the book, the digital total and the purchase button; physical adds the address and the fees', async () => {
    const { physicalBook: book } = pickBooks();
    await openCheckout(book);
    expect(await settle(() => journey.page.title(), 'Checkout | Persona Books')).toBe('Checkout | Persona Books');

    const summary = main().getByRole('region', { name: 'Order summary' });
    let text = squash(await summary.innerText());
    expect(text).toContain(book.title);
    expect(text).toContain(book.author);
    expect(text).toContain(`Base Price ${inr(book.price)}`);
    expect(text).not.toContain('Printing Fee');
    expect(text).not.toContain('Delivery Fee');
    expect(text).toContain(`Total ${inr(book.price)}`);
    expect(await submitButton().innerText()).toBe(`Complete Purchase - ${inr(book.price)}`);

    expect(await main().getByRole('radio', { name: 'Digital' }).isChecked()).toBe(true);
    // Each option shows its whole price, before it is chosen; the terms and refund policy are a link away.
    const options = squash(await main().getByRole('group', { name: 'Delivery' }).innerText());
    expect(options).toContain(`Digital Your personalised ${book.hasFullPdf ? 'PDF' : 'PDF + EPUB'} to download at once ${inr(book.price)}`);
    expect(options).toContain(inr(book.price + book.printingCost + 50));
    expect(await main().getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/terms');
    expect(await main().getByRole('link', { name: 'Refund and Cancellation Policy' }).getAttribute('href')).toBe('/refund-policy');
    expect(await field('Email').getAttribute('type')).toBe('email');
    expect(await field('Address Line 1').count()).toBe(0);

    await main().getByRole('radio', { name: 'Physical' }).check();
    for (const label of [
      'Name for the courier',
      'Phone for the courier',
      'PIN code',
      'City',
      'State',
      'Address Line 1',
      'Address Line 2 (optional)',
      'Landmark (optional)',
    ])
      await field(label).waitFor();
    expect(await main().getByRole('textbox', { name: 'Country' }).count()).toBe(0);
    const total = book.price + book.printingCost + 50;
    text = squash(await summary.innerText());
    expect(text).toContain(`Printing Fee ${inr(book.printingCost)}`);
    expect(text).toContain(`Delivery Fee ${inr(50)}`);
    expect(text).toContain(`Total ${inr(total)}`);
    expect(await submitButton().innerText()).toBe(`Complete Purchase - ${inr(total)}`);

    await main().getByRole('radio', { name: 'Digital' }).check();
    expect(await settle(async () => field('Address Line 1').count(), 0)).toBe(0);
    expect(squash(await summary.innerText())).not.toContain('Delivery Fee');
  });

  it('enforces the required fields and the 6-digit PIN code rule next to the field, sending nothing', async () => {
    const { physicalBook: book } = pickBooks();
    const calls = recordApiCalls();
    await openCheckout(book);
    await submitButton().click();
    expect(await field('Full Name').getAttribute('aria-invalid')).toBe('true');
    expect(await settle(() => field('Full Name').evaluate((el) => el === document.activeElement), true)).toBe(true);

    await fillBuyer();
    await choosePhysical({ ...address, zip: '5600' });
    await submitButton().click();
    const zip = field('PIN code');
    expect(await zip.getAttribute('aria-invalid')).toBe('true');
    // Described by its error first, then the line under it (what a PIN code is for).
    const [describedBy = '', hint = ''] = ((await zip.getAttribute('aria-describedby')) ?? '').split(' ');
    expect(describedBy).not.toBe('');
    expect(squash(await journey.page.locator(`[id="${describedBy}"]`).innerText())).toBe('Please enter a valid 6-digit PIN code');
    expect(squash(await journey.page.locator(`[id="${hint}"]`).innerText())).toBe('Six digits: the city and state are filled from it');
    expect(await settle(() => zip.evaluate((el) => el === document.activeElement), true)).toBe(true);

    await zip.fill('56000a');
    await submitButton().click();
    await main().getByText('Please enter a valid 6-digit PIN code').waitFor();

    await zip.fill('560001');
    expect(await settle(async () => zip.getAttribute('aria-invalid'), null)).toBeNull();
    expect(await main().getByText('Please enter a valid 6-digit PIN code').count()).toBe(0);
    expect(calls.filter((call) => call.startsWith('POST /api/payments'))).toEqual([]);
  });

  it('an unknown book shows "Book not found" with a way home', async () => {
    await open(journey.page, '/checkout/00000000-0000-4000-8000-000000000000');
    await main().getByRole('heading', { level: 1, name: 'Book not found' }).waitFor();
    expect(await main().getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
  });
});

describe('buying a Persona (test mode)', () => {
  it('digital: pay in the test-mode dialog, see the persona id, wait on /send-persona, download and verify the PDF', async () => {
    const { digitalBook: book } = pickBooks();
    const calls = recordApiCalls();
    await openCheckout(book);
    await fillBuyer();
    await submitButton().click();

    const dialog = testModeDialog();
    await dialog.waitFor();
    const dialogText = squash(await dialog.innerText());
    expect(dialogText).toContain('no real money moves');
    expect(dialogText).toContain(book.title);
    expect(dialogText).toContain(inr(book.price));
    expect(await dialog.getByRole('button', { name: 'Pay successfully' }).evaluate((el) => el === document.activeElement)).toBe(true);

    const personaId = await payAndReachSuccess(book);
    expect(calls.filter((call) => call === 'POST /api/payments/initiate')).toHaveLength(1);
    expect(calls.filter((call) => call === 'POST /api/payments/verify')).toHaveLength(1);

    const download = await waitForPersona(personaId, book, 'Digital');
    const pdf = await downloadPdf(download);
    await expectOrderEmails(personaId, book, book.price);

    await open(journey.page, `/verify/${personaId}`);
    await main().getByRole('heading', { level: 2, name: 'Genuine Persona' }).waitFor();
    const verifyText = squash(await main().innerText());
    expect(verifyText).toContain(book.title);
    expect(verifyText).toContain(`Personalised for ${buyer.fullName} on`);
    expect(verifyText).toContain(personaId);
    expect(await settle(() => journey.page.title(), 'Verify a Persona | Persona Books')).toBe('Verify a Persona | Persona Books');

    // Its place in the public log (issue 27), proved by the browser itself: the signed checkpoint, the
    // entry's commitment to this record, the inclusion proof. The copy is logged within seconds.
    const log = main().getByRole('region', { name: 'In the public log of Personas' });
    let logText = '';
    for (let tries = 0; tries < 20; tries += 1) {
      await log.getByText(/^(Proved|The public log does not prove|This copy is not in a signed checkpoint)/).waitFor({ timeout: 30_000 });
      logText = squash(await log.innerText());
      if (!logText.includes('This Persona is not in the public log yet')) break;
      await journey.page.waitForTimeout(500);
      await journey.page.reload();
    }
    expect(logText).toContain('Proved: this copy is in the public log');
    expect(logText).toMatch(/The log's latest checkpoint is signed by the shop's log key: \d+ entr/);
    expect(logText).toMatch(/Entry \d+ is copy No\. \d+ of this book, and commits to this Persona's signed record/);
    expect(logText).toMatch(/Its inclusion proof \(\d+ hash(es)?, from \d+ tiles?\) leads to the signed root/);
    expect(squash(await main().innerText())).toMatch(/Copy No\. \d+ of the Personas of this book/);
    // Files served changed (a log that lies about this copy): the page says the proof fails. A tile,
    // when the proof reads one (a log of one entry has none to read), and the checkpoint always.
    if (Number(/Its inclusion proof \((\d+) hash/.exec(logText)![1]) > 0) {
      await journey.page.route('**/api/log/tile/**', async (route) => {
        const answer = await route.fetch();
        const bytes = Buffer.from(await answer.body());
        for (let at = 0; at < bytes.length; at += 32) bytes[at] ^= 1;
        await route.fulfill({ response: answer, body: bytes });
      });
      await journey.page.reload();
      await log.getByText('The public log does not prove this copy').waitFor();
      expect(squash(await log.innerText())).toMatch(/Entry \d+ is not in the log the checkpoint signs/);
      await journey.page.unroute('**/api/log/tile/**');
    }
    // The entry the shop answers for this copy, changed (another copy's commitment): the page says it is not this copy's.
    await journey.page.route(`**/api/personas/${personaId}/verify`, async (route) => {
      const answer = await route.fetch();
      const body = (await answer.json()) as { data: { log: { entry: string } } };
      body.data.log.entry = body.data.log.entry.replace(/"commitment":"(.)/, (_m, c: string) => `"commitment":"${c === '0' ? '1' : '0'}`);
      await route.fulfill({ response: answer, json: body });
    });
    await journey.page.reload();
    await log.getByText('The public log does not prove this copy').waitFor();
    expect(squash(await log.innerText())).toMatch(/Entry \d+ does not commit to this Persona's signed record: it is not this copy's entry\./);
    await journey.page.unroute(`**/api/personas/${personaId}/verify`);
    await journey.page.route('**/api/log/checkpoint', async (route) => {
      const answer = await route.fetch();
      const [origin, size, ...rest] = (await answer.text()).split('\n');
      await route.fulfill({ response: answer, body: [origin, String(Number(size) + 1), ...rest].join('\n') });
    });
    await journey.page.reload();
    await log.getByText('The public log does not prove this copy').waitFor();
    expect(squash(await log.innerText())).toMatch(/The log's checkpoint is not signed by the shop's log key/);
    await journey.page.unroute('**/api/log/checkpoint');

    const upload = main().getByLabel('Check a Persona PDF or EPUB');
    expect(await upload.getAttribute('accept')).toBe('application/pdf,application/epub+zip,.pdf,.epub');
    await upload.setInputFiles({ name: 'persona.pdf', mimeType: 'application/pdf', buffer: pdf });
    await main().getByRole('button', { name: 'Check file' }).click();
    await main().getByText('Genuine, unmodified Persona', { exact: true }).waitFor();

    const tampered = Buffer.from(pdf);
    const at = Math.floor(tampered.length / 2);
    tampered[at] = tampered[at]! ^ 0x01;
    await upload.setInputFiles({ name: 'persona.pdf', mimeType: 'application/pdf', buffer: tampered });
    await main().getByRole('button', { name: 'Check file' }).click();
    await main().getByText('Not a genuine, unmodified Persona', { exact: true }).waitFor();

    // Its EPUB checks too (an EPUB often comes with no type: its name says what it is).
    const epub = Buffer.from(await (await fetch(`${journey.shop.url}/api/personas/${personaId}/download?format=epub`)).arrayBuffer());
    await upload.setInputFiles({ name: 'persona.epub', mimeType: '', buffer: epub });
    await main().getByRole('button', { name: 'Check file' }).click();
    await main().getByText(`A genuine, unmodified Persona EPUB of "${book.title}"`, { exact: false }).waitFor();
  }, 180000);

  it('physical: the address, the state and fees are shown and sent, the tax invoice names the state, and the Persona becomes ready', async () => {
    const { physicalBook: book } = pickBooks();
    await openCheckout(book);
    await fillBuyer();
    await choosePhysical();
    // The state is the address's, filled from the PIN code.
    expect(await field('State').inputValue()).toBe('32');
    const total = book.price + book.printingCost + 50;
    const initiated = journey.page.waitForRequest((request) => new URL(request.url()).pathname === '/api/payments/initiate');
    await submitButton().click();
    const body = (await initiated).postDataJSON() as { deliveryType: string; address: unknown; book: string; state: string };
    expect(body.book).toBe(book._id);
    expect(body.deliveryType).toBe('physical');
    expect(body.address).toEqual({ ...address, name: buyer.fullName, phone: buyer.phone, state: '32' });
    expect(body.state).toBe('32');
    expect(squash(await testModeDialog().innerText())).toContain(inr(total));

    const personaId = await payAndReachSuccess(book, 'physical');
    // The tax invoice, from the success page's link: a printed book to Kerala (IGST; the book exempt).
    const invoiceLink = main().getByRole('link', { name: 'Download your tax invoice (PDF)' });
    expect(await invoiceLink.getAttribute('href')).toBe(`/api/orders/${personaId}/invoice`);
    let invoice: Response | undefined;
    for (let i = 0; i < 100 && invoice?.status !== 200; i += 1) {
      invoice = await fetch(`${journey.shop.url}/api/orders/${personaId}/invoice`);
      if (invoice.status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(invoice?.headers.get('content-type')).toBe('application/pdf');
    const invoiceText = (await popplerPageTexts(new Uint8Array(await invoice!.arrayBuffer()), 'layout')).join('\n');
    expect(invoiceText).toMatch(/Kerala \(32\)/);
    expect(invoiceText).toContain(personaId);
    expect(invoiceText).toContain('4901');
    const download = await waitForPersona(personaId, book, 'Physical');
    await downloadPdf(download);
    await expectOrderEmails(personaId, book, total);

    // The twin (issue 27): the printed book's QR code opens this Persona's verify page, whose entry in
    // the public log is followed by one saying its printed copy was made (its print files passed the preflight).
    const log = main().getByRole('region', { name: 'In the public log of Personas' });
    let twin = '';
    for (let tries = 0; tries < 20 && !twin.includes('a printed copy of it was made'); tries += 1) {
      await open(journey.page, `/verify/${personaId}`);
      await log.getByText(/^(Proved|The public log does not prove|This copy is not in a signed checkpoint)/).waitFor({ timeout: 30_000 });
      twin = squash(await log.innerText());
      if (!twin.includes('a printed copy of it was made')) await journey.page.waitForTimeout(500);
    }
    expect(twin).toContain('Proved: this copy is in the public log');
    expect(twin).toMatch(/Entry \d+: a printed copy of it was made; its QR code opens this page\./);
  }, 180000);

  it("charges the shop's price when it changed after the page opened: the summary shows the server's charge and the receipt the amount paid", async () => {
    const book = journey.books.at(-1)!;
    const auth = await adminAuth(journey.shop.url);
    const setPrice = async (price: number) => {
      const form = new FormData();
      form.append('price', String(price));
      const res = await fetch(`${journey.shop.url}/api/books/${book._id}`, { method: 'PUT', headers: auth, body: form });
      expect(res.status).toBe(200);
    };
    await openCheckout(book);
    await fillBuyer();
    expect(await submitButton().innerText()).toBe(`Complete Purchase - ${inr(book.price)}`);
    const newPrice = book.price + 100;
    await setPrice(newPrice);
    try {
      await submitButton().click();
      await testModeDialog().waitFor();
      await main()
        .getByText(`The price changed since this page opened: the shop charges ${inr(newPrice)}.`)
        .waitFor();
      expect(squash(await main().locator('.checkout__line--total').innerText())).toBe(`Total ${inr(newPrice)}`);
      await payAndReachSuccess({ ...book, price: newPrice });
    } finally {
      await setPrice(book.price);
    }
  });

  it('a declined payment lands on /payment-failed with a link to try the same book again', async () => {
    const { digitalBook: book } = pickBooks();
    const calls = recordApiCalls();
    await openCheckout(book);
    await fillBuyer();
    await submitButton().click();
    await testModeDialog().getByRole('button', { name: 'Decline payment' }).click();
    await journey.page.waitForURL((url) => url.pathname === '/payment-failed', { timeout: 30000 });
    await main().getByRole('heading', { level: 1, name: 'Payment Failed' }).waitFor();
    expect(squash(await main().innerText())).toContain('Something went wrong during the payment. Please try again.');
    expect(calls).not.toContain('POST /api/payments/verify');
    const retry = main().getByRole('link', { name: 'Try again' });
    expect(await retry.getAttribute('href')).toBe(`/checkout/${book._id}`);
    expect(await main().getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
    await retry.click();
    await main().getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
    expect(new URL(journey.page.url()).pathname).toBe(`/checkout/${book._id}`);
    // The form is as the buyer left it, and still works: paying now succeeds.
    expect(await settle(() => field('Full Name').inputValue(), buyer.fullName)).toBe(buyer.fullName);
    expect(await field('Email').inputValue()).toBe(buyer.email);
    expect(await field('Phone Number').inputValue()).toBe(buyer.phone);
    await submitButton().click();
    await testModeDialog().getByRole('button', { name: 'Pay successfully' }).click();
    await journey.page.waitForURL((url) => url.pathname === '/payment-success', { timeout: 30000 });
    // Paid: a new checkout in this tab starts empty.
    await openCheckout(book);
    await journey.page.waitForLoadState('networkidle');
    expect(await field('Full Name').inputValue()).toBe('');
    expect(await journey.page.evaluate(() => sessionStorage.getItem('persona.checkout-draft'))).toBeNull();
  }, 120000);

  it('closing the dialog (button or Escape) leaves the form filled and usable and the order unpaid', async () => {
    const { physicalBook: book } = pickBooks();
    const calls = recordApiCalls();
    await openCheckout(book);
    await fillBuyer();
    await choosePhysical();

    const initiations: Array<{ key: string | null; orderId: string; razorpayOrderId: string }> = [];
    journey.page.on('response', async (response) => {
      if (new URL(response.url()).pathname !== '/api/payments/initiate' || !response.ok()) return;
      const { data } = (await response.json()) as { data: { orderId: string; razorpayOrderId: string } };
      initiations.push({ key: response.request().headers()['idempotency-key'] ?? null, orderId: data.orderId, razorpayOrderId: data.razorpayOrderId });
    });

    await submitButton().click();
    expect(await submitButton().innerText()).toBe('Processing...');
    expect(await submitButton().isDisabled()).toBe(true);
    await testModeDialog().getByRole('button', { name: 'Close' }).click();
    await testModeDialog().waitFor({ state: 'hidden' });

    expect(await settle(async () => submitButton().isEnabled(), true)).toBe(true);
    expect((await submitButton().innerText()).startsWith('Complete Purchase - ₹')).toBe(true);
    expect(new URL(journey.page.url()).pathname).toBe(`/checkout/${book._id}`);
    expect(await field('Full Name').inputValue()).toBe(buyer.fullName);
    expect(await field('PIN code').inputValue()).toBe(address.zip);
    expect(await field('Full Name').isEditable()).toBe(true);

    // The same form again: the same Idempotency-Key, so the same (still unpaid) order; Escape closes too.
    await submitButton().click();
    await testModeDialog().waitFor();
    await journey.page.keyboard.press('Escape');
    await testModeDialog().waitFor({ state: 'hidden' });
    expect(await settle(async () => submitButton().isEnabled(), true)).toBe(true);
    expect(await settle(async () => initiations.length, 2)).toBe(2);
    expect(initiations[1]).toEqual(initiations[0]);
    expect(initiations[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(calls.filter((call) => call === 'POST /api/payments/verify' || call === 'POST /api/payments/test-mode/pay')).toEqual([]);

    // Changed content: a new key and a new order; that unpaid first order can still be paid later (not paid twice).
    await field('City').fill('Mysuru');
    await submitButton().click();
    await testModeDialog().waitFor();
    expect(await settle(async () => initiations.length, 3)).toBe(3);
    expect(initiations[2]!.key).not.toBe(initiations[0]!.key);
    expect(initiations[2]!.orderId).not.toBe(initiations[0]!.orderId);
    await testModeDialog().getByRole('button', { name: 'Close' }).click();
    await testModeDialog().waitFor({ state: 'hidden' });
    expect(calls.filter((call) => call === 'POST /api/payments/verify' || call === 'POST /api/payments/test-mode/pay')).toEqual([]);
  }, 120000);
});

describe('a gift', () => {
  it('is bought with a message in Devanagari, reaches its recipient by e-mail with their name and the message printed, and opens in their library', async () => {
    const book = journey.books.find((b) => !b.hasFullPdf) ?? journey.books[0]!;
    const recipient = { name: 'अनन्या शर्मा', email: `ananya.${Date.now().toString(36)}@example.com` };
    const message = ['जन्मदिन मुबारक हो!', 'With love, Asha'];
    await openCheckout(book);
    await fillBuyer();
    await main().getByRole('checkbox', { name: 'This is a gift' }).check();
    await field("Recipient's name").fill(recipient.name);
    // What the Persona cannot print is refused on the page, before anything is sent.
    await field('Message (optional)').fill('Happy birthday 🎉');
    await submitButton().click();
    // The message field says why (the live preview and the form's status line may say it too).
    const messageField = field('Message (optional)');
    expect(await settle(() => messageField.getAttribute('aria-invalid'), 'true')).toBe('true');
    const messageError = journey.page.locator(`[id="${((await messageField.getAttribute('aria-describedby')) ?? '').split(' ')[0]}"]`);
    expect(squash(await messageError.innerText())).toMatch(/^We cannot print “🎉”/);
    expect(await testModeDialog().count()).toBe(0);
    await field('Message (optional)').fill(message.join('\n'));
    // The dedication page as it will be printed, drawn by the Persona engine as the name and message are typed.
    const preview = main().getByRole('img', { name: `Your dedication page, printed for ${recipient.name}` });
    await preview.waitFor();
    expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(600);
    expect(squash(await main().locator('.dedication-preview').innerText())).toContain('Your dedication page, as it will be printed.');
    await field("Recipient's email (optional)").fill(recipient.email);
    // The day starts as today, the shop's day.
    expect(await field('Deliver on').inputValue()).toBe(shopDate(new Date()));
    await submitButton().click();
    const personaId = await payAndReachSuccess(book);
    const receipt = squash(await main().getByRole('region', { name: 'Your order' }).innerText());
    expect(receipt).toContain(`A gift for ${recipient.name}: we e-mail it to ${recipient.email} on`);

    // The buyer gets the receipt; the recipient the Persona, today, with the giver's message.
    const [toRecipient] = await mailsTo(journey.shop.mailDir, recipient.email, 'has given you a Persona', 1, READY_TIMEOUT_MS);
    expect(toRecipient!.text).toContain(`Dear ${recipient.name},`);
    expect(toRecipient!.text).toContain(`${buyer.fullName} has given you a Persona of "${book.title}"`);
    for (const line of message) expect(toRecipient!.text).toContain(`“${line}”`);
    const [receiptMail] = await mailsTo(journey.shop.mailDir, buyer.email, personaId);
    expect(receiptMail!.text).toContain(`A gift for:`);

    // Its Persona prints the recipient's name and the message on the dedication page, and in every footer.
    const download = /(https?:\/\/\S+\/api\/personas\/[A-Z0-9-]+\/download)/.exec(toRecipient!.text)![1]!;
    const pdf = new Uint8Array(await (await fetch(`${journey.shop.url}${new URL(download).pathname}`)).arrayBuffer());
    const pages = await extractPageTexts(pdf);
    // The book's cover opens the Persona when it has one: the dedication page is the one that says "Ex libris".
    const dedication = squash(pages.find((text) => text.includes('Ex libris'))!);
    expect(dedication).toContain(`Personalised for ${recipient.name}`);
    for (const line of message) expect(dedication).toContain(line);
    expect(squash(pages[pages.length - 1]!)).toContain(`Personal copy of ${recipient.name} · ${personaId}`);
    expect(pages.join('\n')).not.toContain(buyer.fullName);
    // Genuine; and anyone with its id (printed on every page) is told the printed name, never who gave it nor the message.
    const verifyAnswer = await (await fetch(`${journey.shop.url}/api/personas/${personaId}/verify`)).text();
    const verified = (JSON.parse(verifyAnswer) as { data: Record<string, unknown> }).data;
    expect(verified).toMatchObject({ valid: true, name: recipient.name, gift: true });
    for (const secret of [buyer.fullName, ...message]) expect({ secret, told: verifyAnswer.includes(secret) }).toEqual({ secret, told: false });
    // The signed record it answers holds the giver and the message only as salted hashes, and the signature verifies from it alone.
    const publicKey = ((await (await fetch(`${journey.shop.url}/api/personas/public-key`)).json()) as { data: { publicKeyPem: string } }).data.publicKeyPem;
    const record = JSON.parse(verified.record as string) as Record<string, unknown>;
    expect(record).toMatchObject({
      v: 2,
      personaId,
      name: recipient.name,
      buyerNameHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      messageHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(verify(null, Buffer.from(verified.record as string, 'utf8'), publicKey, Buffer.from(verified.signature as string, 'base64'))).toBe(true);
    // The verify page says it was personalised for the recipient, and what stays private.
    await open(journey.page, `/verify/${personaId}`);
    await main().getByRole('heading', { level: 2, name: 'Genuine Persona' }).waitFor();
    const verifyPage = squash(await main().innerText());
    expect(verifyPage).toContain(`Personalised for ${recipient.name} on`);
    expect(verifyPage).toContain('who gave it and their message stay private');
    for (const secret of [buyer.fullName, ...message]) expect({ secret, shown: verifyPage.includes(secret) }).toEqual({ secret, shown: false });

    // The recipient's library, by an e-mail link, lists it as given to them, with its download.
    await open(journey.page, '/my-personas');
    await field('Email').fill(recipient.email);
    await main().getByRole('button', { name: 'Send me a sign-in link' }).click();
    const [linkMail] = await mailsTo(journey.shop.mailDir, recipient.email, 'Open my Personas');
    const link = /(https?:\/\/\S+\/my-personas#token=[A-Za-z0-9_-]+)/.exec(linkMail!.text)![1]!;
    await journey.page.goto(`/my-personas${new URL(link).hash}`);
    await main().getByText(`Bought with or given to ${recipient.email}`).waitFor();
    const item = main().getByRole('listitem').filter({ hasText: book.title });
    expect(squash(await item.innerText())).toContain(`Gift From ${buyer.fullName}`);
    expect(await item.getByRole('link', { name: `Download PDF of ${book.title}` }).getAttribute('href')).toBe(`/api/personas/${personaId}/download`);
    // Both formats: the book is typeset from its text, so its Persona is an EPUB too, valid and with the recipient's name.
    const epubUrl = await item.getByRole('link', { name: `Download EPUB of ${book.title}` }).getAttribute('href');
    expect(epubUrl).toBe(`/api/personas/${personaId}/download?format=epub`);
    const epub = await fetch(`${journey.shop.url}${epubUrl}`);
    expect(epub.headers.get('content-type')).toBe('application/epub+zip');
    expect(
      Buffer.from(await epub.arrayBuffer())
        .subarray(30, 58)
        .toString('latin1'),
    ).toBe('mimetypeapplication/epub+zip');
  }, 180000);
});

describe('finding a Persona', () => {
  it('/my-personas: a sign-in link by e-mail opens every Persona of the address with its download, once; a reload keeps it open', async () => {
    const email = `library.${Date.now().toString(36)}@example.com`;
    const [first, second] = journey.books;
    const one = await buyPersonaThroughApi(journey.shop.url, { bookId: first!._id, fullName: 'Library Reader', email });
    const two = await buyPersonaThroughApi(journey.shop.url, { bookId: second!._id, fullName: 'Library Reader', email, deliveryType: 'physical' });
    // Both Personas made, so the library offers both downloads.
    for (const personaId of [one.personaId, two.personaId]) {
      await settle(
        async () => ((await (await fetch(`${journey.shop.url}/api/orders/${personaId}`)).json()) as { data: { personaStatus: string } }).data.personaStatus,
        'ready',
        READY_TIMEOUT_MS,
      );
    }

    await open(journey.page, '/my-personas');
    await main().getByRole('heading', { level: 1, name: 'My Personas' }).waitFor();
    await field('Email').fill('not an address');
    await main().getByRole('button', { name: 'Send me a sign-in link' }).click();
    await main().getByText('Please enter a valid email address').waitFor();
    await field('Email').fill(email.toUpperCase());
    await main().getByRole('button', { name: 'Send me a sign-in link' }).click();
    await main().getByText(`If ${email.toUpperCase()} has Personas, a sign-in link is on its way to it. The link works once, within 15 minutes.`).waitFor();

    const [mail] = await mailsTo(journey.shop.mailDir, email, 'Open my Personas');
    expect(mail?.html).toContain('Open my Personas');
    const link = /(https?:\/\/\S+\/my-personas#token=[A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
    const fragment = new URL(link).hash;

    await journey.page.goto(`/my-personas${fragment}`);
    await main().getByText(`Bought with or given to ${email}`).waitFor();
    // The token left the address at once.
    expect(new URL(journey.page.url()).hash).toBe('');
    const items = main().getByRole('listitem');
    expect(await items.count()).toBe(2);
    const titles = (await main().getByRole('heading', { level: 2 }).allInnerTexts()).map(squash);
    expect(titles).toEqual([second!.title, first!.title]);
    for (const [book, personaId] of [
      [first!, one.personaId],
      [second!, two.personaId],
    ] as const) {
      expect(
        await main()
          .getByRole('link', { name: `Download PDF of ${book.title}` })
          .getAttribute('href'),
      ).toBe(`/api/personas/${personaId}/download`);
      expect(
        await main()
          .getByRole('link', { name: `Verify ${personaId}` })
          .getAttribute('href'),
      ).toBe(`/verify/${personaId}`);
      // Its tax invoice, by Persona ID as the receipt e-mail links it.
      const invoice = main().getByRole('link', {
        name: new RegExp(`^Tax invoice PB/\\d\\d-\\d\\d/\\d{6} of ${book.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(PDF\\)$`),
      });
      expect(await invoice.getAttribute('href')).toBe(`/api/orders/${personaId}/invoice`);
    }
    const invoicePdf = await fetch(`${journey.shop.url}/api/orders/${one.personaId}/invoice`);
    expect(invoicePdf.headers.get('content-type')).toBe('application/pdf');
    const pdf = await fetch(`${journey.shop.url}/api/personas/${one.personaId}/download`);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');

    // A reload keeps the library open (the session the link opened, in this tab).
    await journey.page.reload();
    await main().getByText(`Bought with or given to ${email}`).waitFor();

    // The link opened it once: used again, elsewhere, it opens nothing and says so.
    const other = await journey.browser.newContext({ baseURL: journey.shop.url });
    try {
      const again = await other.newPage();
      await open(again, `/my-personas${fragment}`);
      await again.getByRole('heading', { level: 1, name: 'This link no longer opens your Personas' }).waitFor();
      await again.getByText('This sign-in link has expired or was already used. Ask for a new one.').waitFor();
      expect(await again.getByRole('listitem').filter({ hasText: first!.title }).count()).toBe(0);
    } finally {
      await other.close();
    }

    // Signing out closes it in this tab.
    await main().getByRole('button', { name: 'Sign out' }).click();
    await main().getByRole('button', { name: 'Send me a sign-in link' }).waitFor();
    await journey.page.reload();
    await main().getByRole('button', { name: 'Send me a sign-in link' }).waitFor();
  });

  it('/send-persona without an id shows the "Find my Persona" form, which normalises the id', async () => {
    await open(journey.page, '/send-persona');
    await main().getByRole('heading', { level: 1, name: 'Find my Persona' }).waitFor();
    const input = main().getByLabel('Persona ID', { exact: true });
    expect(await input.getAttribute('placeholder')).toBe('PRS-XXXX-XXXX-XXXX-XXXX');

    await input.fill('not an id');
    await main().getByRole('button', { name: 'Find my Persona' }).click();
    await main().getByText('Please enter a valid Persona ID').waitFor();
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(new URL(journey.page.url()).search).toBe('');

    await input.fill(' prs 7k3m 9qxd 2hfa j8tw ');
    await main().getByRole('button', { name: 'Find my Persona' }).click();
    await journey.page.waitForURL((url) => url.searchParams.get('personaId') === 'PRS-7K3M-9QXD-2HFA-J8TW');
    // Nobody bought this one: the page says so instead of failing.
    await main().getByText('No Persona has the ID PRS-7K3M-9QXD-2HFA-J8TW', { exact: false }).waitFor();
  });

  it('/send-persona says one true state: awaiting the payment, then a failed payment with a way to try again', async () => {
    const { digitalBook: book } = pickBooks();
    const { orderId, razorpayOrderId } = await initiateThroughApi(journey.shop.url, { bookId: book._id, fullName: 'Nila Unpaid' });
    const order = await fetch(`${journey.shop.url}/api/orders/${orderId}`, { headers: await adminAuth(journey.shop.url) });
    const { personaId } = ((await order.json()) as { data: { personaId: string } }).data;
    const steps = () => main().getByRole('list', { name: 'Order progress' }).getByRole('listitem');

    await open(journey.page, `/send-persona?personaId=${personaId}`);
    await main().getByRole('heading', { level: 1, name: 'Waiting for your payment' }).waitFor();
    expect(await main().getByRole('heading', { name: 'Your Persona is Ready!' }).count()).toBe(0);
    expect((await steps().allInnerTexts()).map(squash)).toEqual(['Paid (in progress)', 'Prepared (to come)', 'Ready to download (to come)']);
    expect(await steps().first().getAttribute('aria-current')).toBe('step');
    expect(
      await main()
        .getByRole('link', { name: /^Download (PDF|EPUB)/ })
        .count(),
    ).toBe(0);
    expect(await main().getByRole('link', { name: 'Try again' }).count()).toBe(0);

    // The payment is declined; its webhook marks the order failed and the open page follows by itself.
    await declineThroughApi(journey.shop.url, razorpayOrderId);
    await main().getByRole('heading', { level: 1, name: 'Your payment did not go through' }).waitFor({ timeout: 30000 });
    expect((await steps().allInnerTexts()).map(squash)).toEqual(['Paid (did not happen)', 'Prepared (to come)', 'Ready to download (to come)']);
    expect(squash(await main().innerText())).toContain('This order was not paid, so there is no Persona to prepare.');
    expect(await main().getByRole('link', { name: 'verify this Persona' }).count()).toBe(0);
    const retry = main().getByRole('link', { name: 'Try again' });
    expect(await retry.getAttribute('href')).toBe(`/checkout/${book._id}`);
    await retry.click();
    await main().getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
  }, 90000);

  it('the payment pages answer directly, and /payment-success without an id still reads well', async () => {
    await open(journey.page, '/payment-success');
    await main().getByRole('heading', { level: 1, name: 'Payment Successful!' }).waitFor();
    expect(await main().getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
    expect(await main().getByRole('link', { name: 'View your Persona' }).count()).toBe(0);

    const response = await open(journey.page, '/payment-failed');
    expect(response?.status()).toBe(200);
    await main().getByRole('heading', { level: 1, name: 'Payment Failed' }).waitFor();
    expect(await main().getByRole('link', { name: 'Try again' }).count()).toBe(0);
  });
});
