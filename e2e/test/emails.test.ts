// Every e-mail the shop writes reads on a phone (issue 24, point 9): each one's HTML, rendered in
// Chromium 390 px wide, is no wider than the screen, however long the book's title, the buyer's
// address or an ID; no address is visible text (buttons and short link texts carry them); the
// Persona's downloads are a button per format; a gift's recipient sees the cover and their
// dedication page. The e-mails are the orders service's own builders, for an order written to
// stretch them.
import { orderEmails, downloadRenewalEmail, feedbackAnswerEmail, type DueEmail, type OrderRow } from '@persona/orders';
import type { Browser, Page } from 'playwright-core';
import { closeChromium, launchChromium } from './support/browser';

const PHONE = 390;
const SHOP = { publicUrl: 'https://personabooks.example', supportEmail: 'support.and.questions@personabooks.example' };
const PERSONA = 'PRS-7K3M-9QXD-2HFA-J8TW';

/** An order with the longest words a buyer could give us. */
const order = (over: Partial<OrderRow> = {}): OrderRow =>
  ({
    id: '0b5e7c1e-2f7a-4d59-9a55-4f0f3d2c9a11',
    persona_id: PERSONA,
    book_id: '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c',
    book_title: 'Supercalifragilisticexpialidociousness: The Unabridged Chronicles of Thiruvananthapuram',
    book_author: 'Venkatanarasimharajuvaripeta Subrahmanyam',
    full_name: 'Anaswara Raveendran-Kunnathuparambil',
    email: 'anaswara.raveendran.kunnathuparambil.books@example-mail-provider.co.in',
    phone: '+91 98765 43210',
    delivery_type: 'physical',
    delivery_status: 'pending',
    address: { line1: '12/345 Mahatma Gandhi Road, Near Thiruvananthapuram Central', city: 'Thiruvananthapuram', zip: '695001', country: 'India' },
    base_paise: 34950,
    printing_paise: 12000,
    delivery_paise: 5000,
    discount_paise: 6990,
    coupon_code: 'WELCOMEBACK-DIWALI-2026',
    amount_paise: 44960,
    persona_formats: 'pdf,epub',
    paid_at: new Date('2026-11-24T20:00:00Z'),
    created_at: new Date('2026-11-24T19:58:00Z'),
    shipped_at: new Date('2026-11-30T06:00:00Z'),
    carrier: 'India Post Speed Post',
    tracking_number: 'EE123456789INXXXXXXXXXXXXXXXX',
    persona_error: 'the catalogue answered 404 for /internal/books/6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c/pdf: The full PDF file is missing',
    ...over,
  }) as OrderRow;

const gift = {
  gift_recipient_name: 'Ravindranathan Thekkumkattil',
  gift_deliver_on: '2026-12-10',
  gift_recipient_email: 'ravindranathan.thekkumkattil.reads@example-mail-provider.co.in',
  gift_message: 'Happy birthday! https://a-very-long-link.example.com/with/a/path/that/never/ends/and/goes/on\nWith love',
};

/** One of every kind of e-mail the shop sends, by name. */
function everyEmail(): Array<[string, DueEmail]> {
  const e = orderEmails;
  return [
    ['order confirmation (printed, coupon, invoice)', e.orderConfirmedEmail(order(), SHOP, null, { number: 'PB/26-27/000123' })],
    ['order confirmation of a gift', e.orderConfirmedEmail(order({ ...gift, delivery_type: 'digital' }), SHOP, null)],
    ['Persona ready', e.personaReadyEmail(order(), SHOP, null)],
    ['Persona ready, the receipt too', e.personaReadyEmail(order(gift), SHOP, null, undefined, { invoice: { number: 'PB/26-27/000123' } })],
    ['corrected Persona ready (re-issue)', e.personaReadyEmail(order(), SHOP, null, 'PRS-AAAA-BBBB-CCCC-DDDD')],
    ['gift to its recipient, with the cover and the dedication page', e.giftDeliveryEmail(order(gift), SHOP, null, pictures)!],
    ['Persona failed', e.personaFailedEmail(order(gift), SHOP, null)],
    ["the shop's alert", e.personaFailedAlert(order(), SHOP, 'event-1', null)],
    ['shipped', e.deliveryEmail(order({ delivery_status: 'shipped' }), SHOP, null)!],
    ['delivered', e.deliveryEmail(order({ delivery_status: 'delivered' }), SHOP, null)!],
    ['print cancelled', e.deliveryEmail(order({ delivery_status: 'cancelled' }), SHOP, null)!],
    ['order cancelled and refunded', e.deliveryEmail(order({ delivery_status: 'cancelled' }), SHOP, null, 'order')!],
    [
      'refund with its credit note',
      e.refundProcessedEmail(order(), { id: 'r1', amountPaise: 10000, speed: 'optimum', refundedInAllPaise: 10000 }, SHOP, null, {
        id: 'cn1',
        number: 'PBCN/26-27/00012',
      }),
    ],
    ['library link', e.libraryLinkEmail(order().email, `${SHOP.publicUrl}/my-personas#token=${'t'.repeat(43)}`, SHOP, null)],
    [
      'more downloads',
      downloadRenewalEmail(order(), { renewalId: 'n1', token: 'k'.repeat(43), expiresAt: '2026-11-29T10:00:00Z', used: 10, limit: 10 }, SHOP, null),
    ],
    [
      "the shop's answer to a message",
      feedbackAnswerEmail(
        {
          feedbackId: '9b5e7c1e-2f7a-4d59-9a55-4f0f3d2c9a11',
          name: order().full_name,
          email: order().email,
          message: 'Where is my book? https://personabooks.example/send-persona?personaId=PRS-7K3M-9QXD-2HFA-J8TW',
          answer: 'It left us today.',
          bookTitle: order().book_title,
        },
        SHOP,
        null,
      ),
    ],
  ];
}

// The pictures are served to the page by the test (a cover and a dedication page as tall PNGs).
const pictures = { cover: `${SHOP.publicUrl}/api/files/covers/cover.png`, dedication: `${SHOP.publicUrl}/api/personas/${PERSONA}/dedication?token=abc` };
// A 1×1 PNG: shown at the width the e-mail gives it.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('the e-mails on a phone', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: PHONE, height: 844 } });
    await page.route(`${SHOP.publicUrl}/**`, (route) => route.fulfill({ contentType: 'image/png', body: PNG }));
  }, 60_000);
  afterAll(() => closeChromium(browser));

  it.each(everyEmail())('%s: no wider than 390 px, and no address as visible text', async (_name, mail) => {
    await page.setContent(mail.html, { waitUntil: 'load' });
    const { scrollWidth, visible } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, visible: document.body.innerText }));
    expect(scrollWidth).toBeLessThanOrEqual(PHONE);
    // A link the buyer wrote in their own message is quoted as they wrote it; the shop's own are never spelled out.
    expect(visible.replace(/https:\/\/a-very-long-link\S+|Where is my book\? \S+/g, '')).not.toMatch(/https?:\/\//);
  });

  it('downloads are a button per format, and a gift shows its cover and dedication page', async () => {
    await page.setContent(orderEmails.personaReadyEmail(order(), SHOP, null).html, { waitUntil: 'load' });
    const buttons = await page.getByRole('link').allInnerTexts();
    expect(buttons).toEqual(['Download PDF', 'Download EPUB', 'Your Persona page', 'Visit Persona Books']);

    await page.setContent(orderEmails.giftDeliveryEmail(order(gift), SHOP, null, pictures)!.html, { waitUntil: 'load' });
    const images = await page
      .getByRole('img')
      .evaluateAll((imgs) => imgs.map((img) => [(img as HTMLImageElement).alt, (img as HTMLImageElement).naturalWidth > 0]));
    expect(images).toEqual([
      [`The cover of "${order().book_title}"`, true],
      ['Your dedication page, with your name: Ravindranathan Thekkumkattil', true],
    ]);
  });
});
