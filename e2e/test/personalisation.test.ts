// Personalisation first (issue 24, point 7) and the little things a buyer notices (point 12), in
// real Chromium against the whole shop in test mode: the name typed in the book page's preview
// reaches the checkout and a change there comes back; on a phone the name field is on the first
// screen; the home page's "Try it with your name"; the success page turning into the downloads
// once the Persona is ready; "My Personas" in the header and the phone menu; "Read a free sample".
import type { Book } from '@persona/contracts';
import { open, settle } from './support/browser';
import { browserJourney, squash } from './support/journey';

const READY_TIMEOUT_MS = 60000;

const journey = browserJourney({ viewport: null, contextOptions: { acceptDownloads: true } });
/** Opens this test's page at `width` × `height`. */
const newPage = (width: number, height: number) => journey.openPage({ width, height });
const { main, field } = journey;

/** The preview's picture once the Persona engine has drawn the page for `name`. */
const previewOf = (name: string) => main().getByRole('img', { name: `Your dedication page, printed for ${name}` });

async function openBook(book: Book, query = '') {
  await open(journey.page, `/book/${book._id}${query}`);
  await main().getByRole('heading', { level: 1, name: book.title }).waitFor();
}

describe('the name and message travel between the preview and the checkout', () => {
  it('a name typed in the preview is at checkout, and a change there is back in the preview', async () => {
    await newPage(1280, 900);
    const book = journey.books[0]!;
    await openBook(book);
    await field('Name to print').fill('Meera Nair');
    await previewOf('Meera Nair').waitFor();

    await main().getByRole('link', { name: 'Buy Persona' }).first().click();
    await main().getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
    await settle(() => field('Full Name').inputValue(), 'Meera Nair');
    await previewOf('Meera Nair').waitFor();

    await field('Full Name').fill('Ravi Kumar');
    await previewOf('Ravi Kumar').waitFor();
    await journey.page.goBack();
    await main().getByRole('heading', { level: 1, name: book.title }).waitFor();
    await settle(() => field('Name to print').inputValue(), 'Ravi Kumar');
    await previewOf('Ravi Kumar').waitFor();
  }, 60000);

  it("a gift's recipient and message typed at checkout are the book page's, and a message typed there makes the checkout a gift", async () => {
    await newPage(1280, 900);
    const book = journey.books[1] ?? journey.books[0]!;
    await open(journey.page, `/checkout/${book._id}`);
    await main().getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
    await field('Full Name').fill('Asha Rao');
    await main().getByLabel('This is a gift').check();
    await field("Recipient's name").fill('Ananya');
    await field('Message (optional)').fill('Happy birthday, Ananya!');

    await openBook(book);
    await settle(() => field('Name to print').inputValue(), 'Ananya');
    // The message is unfolded, as it was typed.
    await settle(() => field('Gift message (optional)').inputValue(), 'Happy birthday, Ananya!');
    await previewOf('Ananya').waitFor();

    await field('Gift message (optional)').fill('With love from Asha');
    await main().getByRole('link', { name: 'Buy Persona' }).first().click();
    await main().getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
    await settle(() => field('Message (optional)').inputValue(), 'With love from Asha');
    expect(await main().getByLabel('This is a gift').isChecked()).toBe(true);
    expect(await field("Recipient's name").inputValue()).toBe('Ananya');
  }, 60000);

  it('on a phone (390 px) the name field is on the first screen, under the title and price, not under the buy bar', async () => {
    await newPage(390, 844);
    const book = journey.books[0]!;
    await openBook(book);
    const input = field('Name to print');
    const box = (await input.boundingBox())!;
    const title = (await main().getByRole('heading', { level: 1, name: book.title }).boundingBox())!;
    const price = (await main().locator('.book-detail__price').boundingBox())!;
    expect(box.y).toBeGreaterThan(title.y);
    expect(box.y).toBeGreaterThan(price.y);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    // Nothing (the sticky buy bar included) covers it: the point at its middle is the field itself.
    const onTop = await journey.page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.getAttribute('autocomplete') ?? null, {
      x: box.x + box.width / 2,
      y: box.y + box.height / 2,
    });
    expect(onTop).toBe('name');
    expect(await journey.page.getByRole('complementary', { name: 'Buy this book' }).isVisible()).toBe(false);
    await input.fill('Kabir');
    await previewOf('Kabir').waitFor();
  }, 60000);

  it('the home page\'s "Try it with your name" opens a book\'s preview with the name', async () => {
    await newPage(390, 844);
    await open(journey.page, '/');
    // The featured books have loaded: there is a book to show the name in.
    await main().getByRole('tabpanel').getByRole('link').first().waitFor();
    await field('Try it with your name').fill('Zoya Khan');
    await main().getByRole('button', { name: 'See your page' }).click();
    await journey.page.waitForURL((url) => url.pathname.startsWith('/book/') && url.searchParams.get('name') === 'Zoya Khan');
    await settle(() => field('Name to print').inputValue(), 'Zoya Khan');
    await previewOf('Zoya Khan').waitFor();
  }, 60000);

  it('"Try it with your name" without a name asks for one and stays', async () => {
    await newPage(1366, 900);
    await open(journey.page, '/');
    await main().getByRole('button', { name: 'See your page' }).click();
    expect(squash(await main().getByRole('alert').innerText())).toBe('Type the name you would like printed');
    expect(new URL(journey.page.url()).pathname).toBe('/');
  });
});

describe('the little things', () => {
  it('the success page turns from "being personalised" into the downloads once the Persona is ready', async () => {
    await newPage(390, 844);
    const book = journey.books.find((b) => !b.hasFullPdf) ?? journey.books[0]!;
    await openBook(book);
    await field('Name to print').fill('Nisha Menon');
    await main().getByRole('link', { name: 'Buy Persona' }).first().click();
    await main().getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
    await settle(() => field('Full Name').inputValue(), 'Nisha Menon');
    await field('Email').fill('nisha.menon@example.com');
    await field('Phone Number').fill('+91 98765 43210');
    await main()
      .getByRole('button', { name: /^Complete Purchase - ₹/ })
      .click();
    const dialog = journey.page.getByRole('dialog', { name: 'Test-mode payment' });
    await dialog.getByRole('button', { name: 'Pay successfully' }).click();
    await journey.page.waitForURL((url) => url.pathname === '/payment-success', { timeout: 30000 });
    await main().getByRole('heading', { level: 1, name: 'Payment Successful!' }).waitFor();

    // Without a reload, the page asks again until the Persona is ready and offers its files by format.
    await main()
      .getByRole('link', { name: /^Download PDF/ })
      .waitFor({ timeout: READY_TIMEOUT_MS });
    const text = squash(await main().innerText());
    expect(text).toContain('Your Persona is ready to download.');
    expect(text).not.toContain('being personalised');
    expect(text).toContain(book.hasFullPdf ? 'Format Digital Persona (PDF)' : 'Format Digital Persona (PDF + EPUB)');
    if (!book.hasFullPdf)
      await main()
        .getByRole('link', { name: /^Download EPUB/ })
        .waitFor();
  }, 120000);

  it('"My Personas" is in the header on a wide screen and in the phone menu', async () => {
    await newPage(1366, 800);
    await open(journey.page, '/');
    const header = journey.page.getByRole('navigation', { name: 'Main' });
    expect(await header.getByRole('link', { name: 'My Personas' }).getAttribute('href')).toBe('/my-personas');
    await journey.context.close();

    await newPage(390, 844);
    await open(journey.page, '/');
    await journey.page.getByRole('button', { name: 'Open menu' }).click();
    const menu = journey.page.getByRole('navigation', { name: 'Mobile' });
    await menu.getByRole('link', { name: 'My Personas' }).click();
    await journey.page.waitForURL((url) => url.pathname === '/my-personas');
  });

  it('the book page offers "Read a free sample" only for a book with a sample, in one currency format and one spelling', async () => {
    await newPage(1366, 900);
    const withSample = journey.books.find((b) => b.sample !== null);
    const without = journey.books.find((b) => b.sample === null);
    for (const book of [withSample, without]) {
      if (!book) continue;
      await openBook(book);
      const text = squash(await main().innerText());
      expect(text).not.toContain('Try Book');
      expect(text).not.toMatch(/\bRs\b/);
      expect(text).not.toMatch(/personaliz/i);
      expect(text).toContain('Personalised edition');
      expect(text).toContain(`₹${book.price.toFixed(2)}`);
      expect(text).toContain(book.hasFullPdf ? 'Digital (PDF) or printed' : 'Digital (PDF + EPUB) or printed');
      expect(await main().getByRole('link', { name: 'Read a free sample' }).count()).toBe(book === withSample ? 1 : 0);
    }
    expect(withSample).toBeDefined();
  });
});
