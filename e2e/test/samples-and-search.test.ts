// Issue 24, points 6 and 11 in real Chromium: a book whose only sample is an uploaded PDF is read
// in the reader (pdf.js, its worker served by the shop), a book without a sample offers none and
// its reader address says so; a typo ("backwatr") finds the book from the header search, and a
// search that finds nothing offers "Did you mean" and the popular books; the admin form takes
// the author's signature and says what the shop shows as the sample.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Book } from '@persona/contracts';
import { open, settle } from './support/browser';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { checkPage, describeViolations, type PageCheck } from './support/accessibility';
import { layoutReport } from './support/layout';
import { adminAuth, TEST_ADMIN } from './support/shop';
import { browserJourney } from './support/journey';

let pdfOnly: string;
let noSample: string;

const PDF_PAGES = 3;

async function samplePdf(title: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  for (let i = 1; i <= PDF_PAGES; i += 1) doc.addPage([420, 595]).drawText(`${title}, sample page ${i}`, { x: 40, y: 520, size: 16, font });
  return doc.save();
}

/** A book made as the administrator would, with only the files and sample named. */
async function createBook(title: string, extra: (form: FormData) => void): Promise<string> {
  const form = new FormData();
  form.append('title', title);
  form.append('author', 'Lata Menon');
  form.append('description', `${title}: a book to test samples.`);
  form.append('category', journey.books.find((b) => b.category)!.category!._id);
  form.append('price', '249');
  extra(form);
  const res = await fetch(`${journey.shop.url}/api/books`, { method: 'POST', headers: await adminAuth(journey.shop.url), body: form });
  const answer = (await res.json()) as { data: { _id: string }; message?: string };
  if (!res.ok) throw new Error(`POST /api/books answered ${res.status}: ${answer.message ?? ''}`);
  return answer.data._id;
}

const journey = browserJourney({
  // The books under test, made once the catalogue is read and before Chromium starts.
  prepare: async () => {
    const pdf = await samplePdf('Paper Boats');
    pdfOnly = await createBook('Paper Boats', (form) => form.append('samplePdf', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'sample.pdf'));
    noSample = await createBook('Unread Shelves', () => undefined);
  },
});

describe('a sample PDF in the reader', () => {
  const progress = () => journey.page.locator('nav[aria-label="Sample pages"] [aria-live="polite"]');
  /** Whether the page's canvas has ink on it (pdf.js drew the page, not a blank box). */
  const inked = () =>
    journey.page.evaluate(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('.reader__pdf-canvas');
      if (!canvas || canvas.width === 0) return false;
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 0; i < data.length; i += 4) if (data[i]! < 128 && data[i + 3]! > 0) return true;
      return false;
    });

  it('the book page offers "Read a free sample", and the reader shows each page of the PDF, then the end of the sample', async () => {
    const errors: string[] = [];
    journey.page.on('pageerror', (error) => errors.push(error.message));
    journey.page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await open(journey.page, `/book/${pdfOnly}`);
    await journey.page.getByRole('link', { name: 'Read a free sample' }).click();
    await journey.page.waitForURL((url) => url.pathname === `/read/${pdfOnly}`);
    await journey.page.getByRole('img', { name: 'Page 1 of the sample of Paper Boats' }).waitFor();
    expect(await settle(inked, true)).toBe(true);
    expect(await progress().innerText()).toBe(`Page 1 of ${PDF_PAGES + 1}`);
    // The page's words are there for a screen reader.
    await journey.page.getByText('Paper Boats, sample page 1').waitFor({ state: 'attached' });

    await journey.page.getByRole('button', { name: /Next/ }).click();
    await journey.page.getByRole('img', { name: 'Page 2 of the sample of Paper Boats' }).waitFor();
    expect(await settle(inked, true)).toBe(true);
    await journey.page.getByText('Paper Boats, sample page 2').waitFor({ state: 'attached' });

    for (let i = 2; i <= PDF_PAGES; i += 1) {
      await journey.page.getByRole('button', { name: /Next/ }).click();
      await settle(async () => progress().innerText(), `Page ${i + 1} of ${PDF_PAGES + 1}`);
    }
    await journey.page.getByRole('heading', { name: "You've reached the end of the sample" }).waitFor();
    expect(await journey.page.getByRole('button', { name: /Next/ }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('fits the page on a phone without scrolling sideways', async () => {
    const phone = await journey.browser.newContext({ baseURL: journey.shop.url, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const tab = await phone.newPage();
      await open(tab, `/read/${pdfOnly}`);
      const canvas = tab.getByRole('img', { name: 'Page 1 of the sample of Paper Boats' });
      await canvas.waitFor();
      const box = await settle(async () => ((await canvas.boundingBox())?.width ?? 0) > 100, true);
      expect(box).toBe(true);
      const { width } = (await canvas.boundingBox())!;
      expect(width).toBeLessThanOrEqual(390);
      expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    } finally {
      await phone.close();
    }
  });
});

describe('a book without a sample', () => {
  it('offers no "Read a free sample", and its reader address says there is none, with the way back', async () => {
    await open(journey.page, `/book/${noSample}`);
    await journey.page.getByRole('heading', { level: 1, name: 'Unread Shelves' }).waitFor();
    expect(await journey.page.getByRole('link', { name: 'Read a free sample' }).count()).toBe(0);
    const response = await open(journey.page, `/read/${noSample}`);
    expect(response?.status()).toBe(404);
    await journey.page.getByRole('heading', { level: 1, name: 'No free sample yet' }).waitFor();
    await journey.page.getByText('Unread Shelves by Lata Menon has no free sample to read yet.').waitFor();
    await journey.page.getByRole('link', { name: 'Back to Book' }).click();
    await journey.page.waitForURL((url) => url.pathname === `/book/${noSample}`);
  });
});

describe('search never dead-ends', () => {
  const box = () => journey.page.getByRole('banner').getByRole('combobox', { name: 'Search books by title or author' });
  const cardTitles = () => journey.page.locator('article[data-book-id] h2').allInnerTexts();

  it('typing "backwatr" in the header search suggests The Backwaters Ledger, and searching finds it with "Did you mean"', async () => {
    await open(journey.page, '/about-us');
    await box().fill('backwatr');
    expect(await settle(() => box().getAttribute('aria-expanded'), 'true')).toBe('true');
    expect(await journey.page.getByRole('banner').getByRole('option').allInnerTexts()).toEqual([expect.stringContaining('The Backwaters Ledger')]);
    await box().press('Escape');
    await box().press('Enter');
    await journey.page.waitForURL((url) => url.pathname === '/books' && url.searchParams.get('search') === 'backwatr');
    expect(await settle(cardTitles, ['The Backwaters Ledger'])).toEqual(['The Backwaters Ledger']);
    const hint = journey.page.locator('.explore__did-you-mean');
    expect(await hint.innerText()).toBe('No book matches your search as typed. Did you mean The Backwaters Ledger?');
    await hint.getByRole('link', { name: 'The Backwaters Ledger' }).click();
    await journey.page.waitForURL((url) => url.searchParams.get('search') === 'The Backwaters Ledger');
    // The same card showed before the new search answered: the hint going is what says it has.
    expect(await settle(() => journey.page.locator('.explore__did-you-mean').count(), 0)).toBe(0);
    expect(await settle(cardTitles, ['The Backwaters Ledger'])).toEqual(['The Backwaters Ledger']);
  });

  it('a search that finds nothing says so and shows the popular books', async () => {
    await open(journey.page, '/books?search=qqqqzzzz');
    await journey.page.getByRole('heading', { name: 'No books found' }).waitFor();
    const popular = journey.page.getByRole('region', { name: 'Popular books' });
    await popular.waitFor();
    const expected = ((await (await fetch(`${journey.shop.url}/api/books?sort=rating&limit=4`)).json()) as { data: Book[] }).data.map((b) => b._id);
    expect(expected).toHaveLength(4);
    expect(
      await settle(() => popular.locator('article[data-book-id]').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-book-id'))), expected),
    ).toEqual(expected);
  });
});

describe('the new pages at a phone and a laptop width', () => {
  it('have no accessibility violation and no sideways scroll: the PDF reader, no sample, a corrected search, an empty one', async () => {
    const found: PageCheck[] = [];
    const problems: string[] = [];
    for (const width of [390, 1366]) {
      // bypassCSP: axe is injected as an inline script, which the shop's CSP (rightly) refuses.
      const ctx = await journey.browser.newContext({ baseURL: journey.shop.url, viewport: { width, height: width === 390 ? 844 : 900 }, bypassCSP: true });
      try {
        const tab = await ctx.newPage();
        const visit = async (label: string, url: string, ready: string) => {
          await open(tab, url);
          await tab.locator(ready).first().waitFor();
          found.push(await checkPage(tab, label, `${width}`));
          const report = await layoutReport(tab);
          if (report.scrollWidth > report.width) problems.push(`${label} at ${width} px scrolls sideways`);
          problems.push(...report.overflowing.map((e) => `${label} at ${width} px: sticks out: ${e}`));
        };
        await visit('PDF sample', `/read/${pdfOnly}`, '.reader__pdf-canvas');
        await visit('no sample', `/read/${noSample}`, 'h1');
        await visit('corrected search', '/books?search=backwatr', '.explore__did-you-mean');
        await visit('empty search', '/books?search=qqqqzzzz', '.explore__popular article');
      } finally {
        await ctx.close();
      }
    }
    expect(describeViolations(found)).toBe('');
    expect(problems).toEqual([]);
  });
});

describe('the admin book form', () => {
  // A signature as the form takes it: a PNG with an alpha channel (1×1: what matters here is its kind).
  const SIGNATURE_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

  it("uploads the author's signature and says which sample the shop shows", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'persona-signature-'));
    try {
      const file = path.join(dir, 'signature.png');
      await writeFile(file, SIGNATURE_PNG);
      const { authorization } = await adminAuth(journey.shop.url);
      await journey.page.goto('/admin/login');
      await journey.page.evaluate(
        ([token, admin]) => {
          localStorage.setItem('token', token);
          localStorage.setItem('admin', JSON.stringify(admin));
        },
        [authorization.replace(/^Bearer /, ''), { name: TEST_ADMIN.name, email: TEST_ADMIN.email }] as const,
      );
      await journey.page.goto(`/admin/books/${pdfOnly}/edit`);
      const note = journey.page.getByText('The shop shows the sample PDF as the free sample (there is no text sample).');
      await note.waitFor();
      await journey.page.getByLabel('Sample text, one page per line').fill('A first line of the sample.');
      await journey.page.getByText('The shop shows this text as the free sample (the sample PDF is not shown while there is one).').waitFor();
      await journey.page.getByLabel('Sample text, one page per line').fill('');
      await note.waitFor();
      expect(
        await journey.page
          .getByText("The author's own signature, a PNG with a transparent background; without it the copy says it is signed by Persona Books for the author")
          .count(),
      ).toBe(1);
      await journey.page.getByLabel('Signature of the author').setInputFiles(file);
      const saved = journey.page.waitForResponse((r) => r.url().endsWith(`/api/books/${pdfOnly}`) && r.request().method() === 'PUT');
      await journey.page.getByRole('button', { name: 'Update Book' }).click();
      const answer = (await (await saved).json()) as { data: Book };
      expect(answer.data).toMatchObject({ hasAuthorSignature: true, sample: 'pdf' });
      const book = (await (await fetch(`${journey.shop.url}/api/books/${pdfOnly}`)).json()) as { data: Book };
      expect(book.data.hasAuthorSignature).toBe(true);
      expect(JSON.stringify(book.data)).not.toContain('private/');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
