// Downloads counted and bounded (issue 24), in real Chromium on the embedded shop (two downloads
// per format here, PERSONA_DOWNLOADS_PER_FORMAT): the buyer's page names each download by its
// format with what it has left; past the limit it says how often the Persona was downloaded and
// offers "Ask for more downloads", which e-mails the buyer (never an address typed on the page) a
// link that gives a fresh allowance once; the owner's order page shows the counts and resets them,
// audited. SCREENSHOTS=1 writes the pages at 390 and 1366 px to e2e/.screenshots/downloads/.
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { Book } from '@persona/contracts';
import { open } from './support/browser';
import { adminAuth, buyPersonaThroughApi, mailsTo } from './support/shop';
import { browserJourney, layoutCheck, pageAtWidth, startOwnShop } from './support/journey';

const BUYER = { fullName: 'Ishaan Verma', email: 'ishaan.downloads@example.com' };
const LIMIT = 2;
const SHOTS = process.env.SCREENSHOTS ? path.resolve(__dirname, '..', '.screenshots', 'downloads') : null;

let adminToken: string;

const journey = browserJourney({
  // Two downloads a format, so the limit is met in a few clicks.
  start: () => startOwnShop('persona-downloads-', { PERSONA_DOWNLOADS_PER_FORMAT: String(LIMIT) }),
  books: false,
  viewport: null,
  prepare: async (shop) => {
    adminToken = (await adminAuth(shop.url)).authorization.replace(/^Bearer /, '');
  },
});

/** A page at `width` px that may download (an administrator's session in it when `admin`), with console errors collected. */
const pageAt = (width: number, admin = false) => pageAtWidth(journey, width, { acceptDownloads: true, adminToken: admin ? adminToken : undefined });

/** Nothing scrolls sideways or sticks out of the window; writes the screenshot when asked. */
const laidOut = layoutCheck(SHOTS);

async function readyPersona(): Promise<{ orderId: string; personaId: string; book: Book }> {
  const books = ((await (await fetch(`${journey.shop.url}/api/books?limit=1`)).json()) as { data: Book[] }).data;
  const book = books[0]!;
  const { orderId, personaId } = await buyPersonaThroughApi(journey.shop.url, { bookId: book._id, ...BUYER });
  for (const end = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 250))) {
    const order = (await (await fetch(`${journey.shop.url}/api/orders/${personaId}`)).json()) as { data?: { personaStatus: string } };
    if (order.data?.personaStatus === 'ready') return { orderId, personaId, book };
    if (Date.now() > end) throw new Error(`${personaId} was not made`);
  }
}

/** Clicks a download button and waits for the browser's download to finish; answers its failure (null: saved). */
async function clickDownload(page: Page, name: string): Promise<string | null> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
  return download.failure();
}

describe('downloads counted and bounded', () => {
  it('refuses past the limit with a way to ask for more, e-mails the buyer a single-use link that gives more, and the owner sees and resets the counts', async () => {
    const { orderId, personaId, book } = await readyPersona();
    const personaPage = `/send-persona?personaId=${personaId}`;

    for (const width of [390, 1366]) {
      const { page, errors, close } = await pageAt(width);
      try {
        await open(page, personaPage);
        const main = page.locator('main');
        if (width === 390) {
          // Named by format, with what each has left; no "Download Your Book".
          await main.getByText(`${LIMIT} of ${LIMIT} downloads left`).first().waitFor();
          expect(await main.getByRole('link', { name: /^Download (PDF|EPUB) of / }).allTextContents()).toEqual([
            `Download PDF of ${book.title}`,
            `Download EPUB of ${book.title}`,
          ]);
          expect(await main.getByText('Download Your Book').count()).toBe(0);
          await laidOut(page, width, 'persona-open');
          // The PDF twice in this browser; the EPUB twice by its link (a copy lent along with its ID).
          expect(await clickDownload(page, `Download PDF of ${book.title}`)).toBeNull();
          await main.getByText(`1 of ${LIMIT} downloads left`).waitFor();
          expect(await clickDownload(page, `Download PDF of ${book.title}`)).toBeNull();
          for (let i = 0; i < LIMIT; i++) expect((await fetch(`${journey.shop.url}/api/personas/${personaId}/download?format=epub`)).status).toBe(200);
          const refused = await fetch(`${journey.shop.url}/api/personas/${personaId}/download`);
          expect({ status: refused.status, code: ((await refused.json()) as { code: string }).code }).toEqual({ status: 403, code: 'DOWNLOAD_LIMIT_REACHED' });
          await open(page, personaPage);
        }
        await main.getByRole('heading', { name: `This Persona has been downloaded ${LIMIT} times, the most we allow` }).waitFor();
        expect(await main.getByRole('link', { name: /^Download (PDF|EPUB)/ }).count()).toBe(0);
        await laidOut(page, width, 'persona-used-up');
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    }

    // Asking for more: the buyer's address on the order is e-mailed, the page never names it.
    const { page, errors, close } = await pageAt(390);
    try {
      await open(page, personaPage);
      const main = page.locator('main');
      await main.getByRole('button', { name: 'Ask for more downloads' }).click();
      await main.getByText("We've e-mailed the buyer a link for more downloads.").waitFor();
      expect(await main.textContent()).not.toContain(BUYER.email);
      const [mail] = await mailsTo(path.join(journey.shop.dataDir, 'mail'), BUYER.email, 'Give more downloads');
      expect(mail!.text).toContain(`it has been downloaded ${LIMIT} times, the most we allow for each format`);
      const link = new URL(/Give more downloads: (\S+)/.exec(mail!.text)![1]!);
      expect(link.pathname + link.search).toBe(personaPage);
      expect(link.hash).toMatch(/^#renew=[A-Za-z0-9_-]{43}$/);

      // The link, opened from the e-mail, gives a fresh allowance (and leaves the address at once); the PDF downloads again.
      await page.goto('about:blank');
      await open(page, `${personaPage}${link.hash}`);
      await main.getByText('Your Persona has a fresh allowance of downloads.').waitFor();
      expect(new URL(page.url()).hash).toBe('');
      await main.getByText(`${LIMIT} of ${LIMIT} downloads left`).first().waitFor();
      expect(await clickDownload(page, `Download PDF of ${book.title}`)).toBeNull();
      await laidOut(page, 390, 'persona-renewed');

      // Once only.
      await page.goto('about:blank');
      await open(page, `${personaPage}${link.hash}`);
      await main.getByText('This link has expired or was already used: ask for more downloads again on this page').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await close();
    }

    // The owner's order page: the counts, and a reset (with its reason) that the timeline records.
    for (const width of [1366, 390]) {
      const admin = await pageAt(width, true);
      try {
        await admin.page.goto(`/admin/orders/${orderId}`);
        const panel = admin.page.locator('section', { has: admin.page.getByRole('heading', { name: 'Downloads', exact: true }) });
        const pdfRow = panel.locator('tr[data-format="pdf"]');
        if (width === 1366) {
          await pdfRow.getByText(`1 of ${LIMIT}`).waitFor();
          expect(await pdfRow.locator('td').nth(3).textContent()).toBe(String(LIMIT + 1));
          await laidOut(admin.page, width, 'order-downloads');
          await panel.getByLabel('Reason').fill('The buyer lost their tablet');
          await panel.getByRole('button', { name: 'Reset downloads' }).click();
          const dialog = admin.page.getByRole('dialog', { name: 'Please confirm' });
          await dialog.getByRole('button', { name: 'Reset downloads' }).click();
          await pdfRow.getByText(`0 of ${LIMIT}`).waitFor();
          await admin.page.getByText(`Downloads of Persona ${personaId} reset (a fresh allowance): The buyer lost their tablet`).waitFor({ timeout: 20_000 });
        } else {
          await pdfRow.getByText(`0 of ${LIMIT}`).waitFor();
          await laidOut(admin.page, width, 'order-downloads');
        }
        expect(admin.errors).toEqual([]);
      } finally {
        await admin.close();
      }
    }
    const allowance = (
      (await (await fetch(`${journey.shop.url}/api/personas/${personaId}/downloads`)).json()) as { data: { formats: Array<{ left: number }> } }
    ).data;
    expect(allowance.formats.map((f) => f.left)).toEqual([LIMIT, LIMIT]);

    // The buyer's library: the book's cover, each download named by its format with what it has left (a link per width: each opens it once).
    const askLink = () =>
      fetch(`${journey.shop.url}/api/library/link`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: BUYER.email }),
      });
    for (let i = 0; i < 2; i++) expect((await askLink()).status).toBe(202);
    const tokens = (await mailsTo(path.join(journey.shop.dataDir, 'mail'), BUYER.email, 'Open my Personas', 2)).map(
      (m) => /#token=([A-Za-z0-9_-]+)/.exec(m.text)![1]!,
    );
    for (const [i, width] of [390, 1366].entries()) {
      const reader = await pageAt(width);
      try {
        await open(reader.page, `/my-personas#token=${tokens[i]}`);
        const item = reader.page.locator('main').getByRole('listitem').filter({ hasText: book.title });
        await item.getByText(`${LIMIT} of ${LIMIT} downloads left`).first().waitFor();
        expect(await item.getByRole('link', { name: /^Download (PDF|EPUB) of / }).allTextContents()).toEqual([
          `Download PDF of ${book.title}`,
          `Download EPUB of ${book.title}`,
        ]);
        const cover = item.locator('img.my-personas__cover');
        await cover.waitFor();
        await reader.page.waitForLoadState('networkidle');
        expect(await cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
        await laidOut(reader.page, width, 'library');
        expect(reader.errors).toEqual([]);
      } finally {
        await reader.close();
      }
    }
  }, 240_000);
});
