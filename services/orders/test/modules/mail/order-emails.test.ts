// The buyer's e-mails as they read: the confirmation (a receipt), the Persona's being ready (alone,
// or as the receipt too) or having failed, a gift's to its recipient, a printed copy's news, a
// refund and a library link, each the same in text and HTML, every value escaped in the HTML and
// no address shown as visible text there (a button or a short link text carries it); and the
// shop's own alert that a paid Persona failed.
import { PERSONA_FAILED_NOTICE } from '@persona/contracts';
import {
  CONFIRMATION_DELAY_MS,
  deliveryEmail,
  giftDeliveryEmail,
  libraryLinkEmail,
  orderConfirmedEmail,
  personaFailedAlert,
  personaFailedEmail,
  personaReadyEmail,
  refundProcessedEmail,
} from '../../../src/modules/mail/order-emails';
import type { OrderRow } from '../../../src/modules/order-records/orders.repository';

const SHOP = { publicUrl: 'https://shop.example', supportEmail: 'help@shop.example' };
const order = (over: Partial<OrderRow> = {}): OrderRow =>
  ({
    id: 'o1',
    persona_id: 'PRS-7K3M-9QXD-2HFA-J8TW',
    book_id: 'b1',
    book_title: 'Tales <of> "Rain" & Sun',
    book_author: 'Meera Nair',
    full_name: 'Asha Rao',
    email: 'asha@example.com',
    phone: '+91 98765 43210',
    delivery_type: 'digital',
    address: null,
    base_paise: 34950,
    printing_paise: 0,
    delivery_paise: 0,
    amount_paise: 34950,
    paid_at: new Date('2026-11-24T20:00:00Z'),
    ...over,
  }) as OrderRow;

/** What a reader sees of the HTML: its text, without tags or attributes. */
const visible = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
/** The HTML's links: where each goes and what it says. */
const links = (html: string) =>
  [...html.matchAll(/<a href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map(([, href, label]) => ({ href: href!.replace(/&amp;/g, '&'), label }));
const gift = { gift_recipient_name: 'Ravi', gift_deliver_on: '2026-12-10', gift_recipient_email: 'ravi@example.com', gift_message: 'Happy birthday,\nRavi!' };
const printed = {
  delivery_type: 'physical' as const,
  address: { line1: '12 MG Road', city: 'Bengaluru', zip: '560001', country: 'India' },
  printing_paise: 12000,
  delivery_paise: 5000,
  amount_paise: 51950,
};

describe('the order confirmation', () => {
  it('is a receipt: the book, the format, the amount, the date in India, the Persona ID and its page', () => {
    const mail = orderConfirmedEmail(order(), SHOP, 'c1');
    expect(mail).toMatchObject({ kind: 'order-confirmed', to: 'asha@example.com', orderId: 'o1', correlationId: 'c1' });
    expect(mail.subject).toBe('Order confirmed: your Persona of "Tales <of> "Rain" & Sun"');
    expect(mail.text).toContain('We have received your payment of ₹349.50. This e-mail is your receipt.');
    expect(mail.text).toMatch(/Format: +Digital Persona\n/);
    expect(mail.text).toMatch(/Amount paid: +₹349\.50/);
    // 20:00 UTC on the 24th is the 25th in India.
    expect(mail.text).toMatch(/Paid on: +25 November 2026/);
    expect(mail.text).toMatch(/Persona ID: +PRS-7K3M-9QXD-2HFA-J8TW/);
    expect(mail.text).toContain('Your Persona page: https://shop.example/send-persona?personaId=PRS-7K3M-9QXD-2HFA-J8TW');
    expect(mail.text).toContain('Questions? Write to help@shop.example, quoting your Persona ID.');
    expect(mail.text).not.toContain('Delivering to');
    expect(mail.text).toContain(
      'We are printing your name and the date in it and signing it now, and e-mail you again when your Persona is ready to download.',
    );
  });

  it('is due a minute after payment, so that a Persona ready by then is told in one e-mail', () => {
    const mail = orderConfirmedEmail(order(), SHOP, null);
    expect(CONFIRMATION_DELAY_MS).toBe(60_000);
    expect(mail.sendAfter).toEqual(new Date('2026-11-24T20:01:00Z'));
  });

  it("for a gift tells the giver whose name is printed, the gift's day and whether the recipient is e-mailed", () => {
    const mail = orderConfirmedEmail(order(gift), SHOP, null);
    expect(mail.text).toContain(
      "We are printing Ravi's name and the date in it and signing it now, and e-mail you again when the Persona is ready to download.",
    );
    expect(mail.text).toContain("We e-mail Ravi their Persona at ravi@example.com on 10 December 2026, your gift's day, with your message.");
    expect(mail.text).not.toContain('your name');
    const handed = orderConfirmedEmail(order({ ...gift, gift_recipient_email: null }), SHOP, null);
    expect(handed.text).toContain("We do not e-mail Ravi: the download is yours to hand over on 10 December 2026, your gift's day.");
  });

  it('names the tax invoice by a short link, never its address as text', () => {
    const mail = orderConfirmedEmail(order(), SHOP, null, { number: 'PB/26-27/000123' });
    expect(mail.text).toMatch(/Tax invoice: +PB\/26-27\/000123: https:\/\/shop\.example\/api\/orders\/PRS-7K3M-9QXD-2HFA-J8TW\/invoice/);
    expect(links(mail.html)).toContainEqual({ href: 'https://shop.example/api/orders/PRS-7K3M-9QXD-2HFA-J8TW/invoice', label: 'PB/26-27/000123' });
    expect(visible(mail.html)).not.toMatch(/https?:/);
  });

  it("with a coupon shows the book's price and the discount, so the parts add up to what was paid", () => {
    const mail = orderConfirmedEmail(order({ discount_paise: 6990, coupon_code: 'LAUNCH-20', amount_paise: 27960 }), SHOP, null);
    expect(mail.text).toMatch(/Book price: +₹349\.50\n.*Discount \(LAUNCH-20\): +−₹69\.90\n.*Amount paid: +₹279\.60/);
    expect(mail.html).toContain('Discount (LAUNCH-20)');
    expect(orderConfirmedEmail(order(), SHOP, null).text).not.toContain('Discount');
  });

  it('for a printed copy names whom the courier asks for and the whole Indian address, never the phone (issue 24)', () => {
    const address = {
      name: 'Ravi Menon',
      phone: '+91 98765 43210',
      line1: '12 Beach Road',
      line2: 'Flat 4B',
      landmark: 'Opposite the lighthouse',
      city: 'Kochi',
      state: '32',
      zip: '682001',
      country: 'India',
    };
    const mail = orderConfirmedEmail(order({ ...printed, address }), SHOP, null);
    expect(mail.text).toMatch(/Delivering to: +Ravi Menon, 12 Beach Road, Flat 4B, Opposite the lighthouse, Kochi, Kerala, 682001, India/);
    expect(mail.text + mail.html).not.toContain('98765');
  });

  it('for a printed copy adds the printing and delivery, the address and the dates it leaves by and arrives by', () => {
    const mail = orderConfirmedEmail(order(printed), SHOP, null);
    expect(mail.text).toMatch(/Printing: +₹120\.00/);
    expect(mail.text).toMatch(/Delivery: +₹50\.00/);
    expect(mail.text).toMatch(/Amount paid: +₹519\.50/);
    expect(mail.text).toMatch(/Delivering to: +12 MG Road, Bengaluru, 560001, India/);
    // Paid on Wednesday 25 November (India): printed within 2 business days, then at most 7 (no Sundays).
    expect(mail.text).toMatch(/Arrives by: +5 December 2026/);
    expect(mail.text).toContain('Your printed copy leaves us by 27 November 2026 and should arrive by 5 December 2026');
    expect(mail.text).not.toContain('5–7 business days');
    expect(mail.html).toContain('12 MG Road, Bengaluru, 560001, India');
  });

  it("for a printed gift plans from the gift's day", () => {
    const mail = orderConfirmedEmail(order({ ...printed, ...gift }), SHOP, null);
    // 7 business days (no Sundays) back from Thursday 10 December is Wednesday 2 December.
    expect(mail.text).toContain('Your printed copy leaves us by 2 December 2026 and should arrive by 10 December 2026');
  });

  it('says the same in HTML, escaped, with the page as a button and no address as text', () => {
    const mail = orderConfirmedEmail(order(), SHOP, null);
    expect(mail.html).toMatch(/^<!doctype html>/);
    expect(mail.html).toContain('Tales &lt;of&gt; &quot;Rain&quot; &amp; Sun by Meera Nair');
    expect(mail.html).not.toContain('<of>');
    expect(links(mail.html)).toContainEqual({ href: 'https://shop.example/send-persona?personaId=PRS-7K3M-9QXD-2HFA-J8TW', label: 'Your Persona page' });
    expect(mail.html).toContain('We have received your payment of ₹349.50. This e-mail is your receipt.');
    expect(visible(mail.html)).not.toMatch(/https?:/);
    // Long words (an address, an ID) break instead of widening the column on a phone.
    expect(mail.html).toContain('overflow-wrap:anywhere');
  });
});

describe('the Persona-ready e-mail', () => {
  it('has a download button per format and the page, as links in the text', () => {
    const mail = personaReadyEmail(order({ persona_formats: 'pdf,epub' }), SHOP, null);
    expect(mail.kind).toBe('persona-ready');
    expect(mail.sendAfter).toBeUndefined();
    expect(mail.subject).toBe('Your Persona of "Tales <of> "Rain" & Sun" is ready');
    expect(mail.text).toContain('Download PDF: https://shop.example/api/personas/PRS-7K3M-9QXD-2HFA-J8TW/download');
    expect(mail.text).toContain('Download EPUB: https://shop.example/api/personas/PRS-7K3M-9QXD-2HFA-J8TW/download?format=epub');
    expect(links(mail.html)).toEqual([
      { href: 'https://shop.example/api/personas/PRS-7K3M-9QXD-2HFA-J8TW/download', label: 'Download PDF' },
      { href: 'https://shop.example/api/personas/PRS-7K3M-9QXD-2HFA-J8TW/download?format=epub', label: 'Download EPUB' },
      { href: 'https://shop.example/send-persona?personaId=PRS-7K3M-9QXD-2HFA-J8TW', label: 'Your Persona page' },
      { href: 'https://shop.example', label: 'Visit Persona Books' },
    ]);
    expect(visible(mail.html)).not.toMatch(/https?:/);
    expect(mail.text).not.toContain('This e-mail is your receipt');
  });

  it('without an EPUB has the PDF button alone', () => {
    const mail = personaReadyEmail(order({ persona_formats: 'pdf' }), SHOP, null);
    expect(links(mail.html).map((l) => l.label)).toEqual(['Download PDF', 'Your Persona page', 'Visit Persona Books']);
  });

  it("is the receipt too when it is the order's first e-mail: the payment, the parts, the invoice and the Persona ready", () => {
    const mail = personaReadyEmail(order({ ...printed, persona_formats: 'pdf,epub' }), SHOP, null, undefined, { invoice: { number: 'PB/26-27/000123' } });
    expect(mail.kind).toBe('persona-ready');
    expect(mail.subject).toBe('Order confirmed: your Persona of "Tales <of> "Rain" & Sun" is ready');
    expect(mail.text).toContain('Thank you: your Persona is ready');
    expect(mail.text).toContain('We have received your payment of ₹519.50. This e-mail is your receipt.');
    expect(mail.text).toContain('Your Persona of "Tales <of> "Rain" & Sun" by Meera Nair is ready.');
    expect(mail.text).toMatch(/Printing: +₹120\.00/);
    expect(mail.text).toMatch(/Amount paid: +₹519\.50/);
    expect(mail.text).toMatch(/Tax invoice: +PB\/26-27\/000123: /);
    expect(mail.text).toContain('Your printed copy leaves us by 27 November 2026 and should arrive by 5 December 2026');
    // Nothing left to promise: no "we e-mail you again".
    expect(mail.text).not.toContain('e-mail you again');
    expect(links(mail.html).map((l) => l.label)).toEqual(['PB/26-27/000123', 'Download PDF', 'Download EPUB', 'Your Persona page', 'Visit Persona Books']);
  });

  it("as a gift's receipt tells the giver the gift's day and whether the recipient is e-mailed", () => {
    const mail = personaReadyEmail(order(gift), SHOP, null, undefined, {});
    expect(mail.text).toContain("We e-mail Ravi their Persona at ravi@example.com on 10 December 2026, your gift's day, with your message.");
    expect(mail.text).toMatch(/A gift for: +Ravi/);
  });

  it("a re-issue's says which Persona it replaces", () => {
    const mail = personaReadyEmail(order(), SHOP, null, 'PRS-AAAA-BBBB-CCCC-DDDD');
    expect(mail.subject).toBe('Your corrected Persona of "Tales <of> "Rain" & Sun" is ready');
    expect(mail.text).toContain('It replaces Persona PRS-AAAA-BBBB-CCCC-DDDD, which can no longer be downloaded.');
  });
});

describe("a gift's e-mail to its recipient", () => {
  const pictures = {
    cover: 'https://shop.example/api/files/covers/c.jpg',
    dedication: 'https://shop.example/api/personas/PRS-7K3M-9QXD-2HFA-J8TW/dedication?token=t0k',
  };

  it("shows the book's cover and their dedication page, the giver's message, a download per format", () => {
    const mail = giftDeliveryEmail(order({ ...gift, persona_formats: 'pdf,epub' }), SHOP, null, pictures)!;
    expect(mail).toMatchObject({ kind: 'gift-delivery', to: 'ravi@example.com' });
    expect(mail.sendAfter).toEqual(new Date('2026-12-10T03:30:00Z'));
    expect(mail.html).toContain(
      '<img src="https://shop.example/api/files/covers/c.jpg" alt="The cover of &quot;Tales &lt;of&gt; &quot;Rain&quot; &amp; Sun&quot;"',
    );
    expect(mail.html).toContain(
      '<img src="https://shop.example/api/personas/PRS-7K3M-9QXD-2HFA-J8TW/dedication?token=t0k" alt="Your dedication page, with your name: Ravi"',
    );
    expect(mail.text).toContain('Dear Ravi,');
    expect(mail.text).toContain('“Happy birthday,”\n\n“Ravi!”');
    expect(links(mail.html).map((l) => l.label)).toEqual(['Download PDF', 'Download EPUB', 'Your Persona page', 'Visit Persona Books']);
    expect(visible(mail.html)).not.toMatch(/https?:/);
  });

  it('goes without pictures it could not find', () => {
    const mail = giftDeliveryEmail(order(gift), SHOP, null)!;
    expect(mail.html).not.toContain('<img');
    expect(giftDeliveryEmail(order({ ...gift, gift_recipient_email: null }), SHOP, null)).toBeNull();
  });
});

describe("a printed copy's e-mails", () => {
  it('shipped: when it should arrive, from the day it left', () => {
    // Left on Monday 30 November: 5 to 7 business days later.
    const mail = deliveryEmail(
      order({ ...printed, delivery_status: 'shipped', shipped_at: new Date('2026-11-30T06:00:00Z'), carrier: 'India Post', tracking_number: 'EE123456789IN' }),
      SHOP,
      null,
    )!;
    expect(mail.text).toContain('has left us and should arrive between 5 December 2026 and 8 December 2026.');
    expect(mail.text).not.toContain('after dispatch');
    expect(mail.text).toMatch(/Tracking number: +EE123456789IN/);
    expect(visible(mail.html)).not.toMatch(/https?:/);
  });
});

describe('a refund and a library link', () => {
  it("names the refund's credit note by a short link", () => {
    const mail = refundProcessedEmail(order(), { id: 'r1', amountPaise: 10000, speed: 'normal', refundedInAllPaise: 10000 }, SHOP, null, {
      id: 'cn1',
      number: 'PBC/26-27/000004',
    });
    expect(mail.text).toMatch(/Credit note: +PBC\/26-27\/000004: https:\/\/shop\.example\/api\/orders\/PRS-7K3M-9QXD-2HFA-J8TW\/invoice\?document=cn1/);
    expect(links(mail.html)).toContainEqual({
      href: 'https://shop.example/api/orders/PRS-7K3M-9QXD-2HFA-J8TW/invoice?document=cn1',
      label: 'PBC/26-27/000004',
    });
    expect(visible(mail.html)).not.toMatch(/https?:/);
  });

  it('opens the library by a button', () => {
    const mail = libraryLinkEmail('asha@example.com', 'https://shop.example/my-personas#token=abc', SHOP, null);
    expect(mail.text).toContain('Open my Personas: https://shop.example/my-personas#token=abc');
    expect(links(mail.html)[0]).toEqual({ href: 'https://shop.example/my-personas#token=abc', label: 'Open my Personas' });
    expect(visible(mail.html)).not.toMatch(/https?:/);
  });
});

describe('the Persona-failed e-mail to the buyer', () => {
  it("says the payment is safe, what happens next and by when, in the storefront's words, with the Persona ID and the order", () => {
    const mail = personaFailedEmail(order({ persona_error: 'font missing' }), SHOP, 'c2');
    expect(mail).toMatchObject({ kind: 'persona-failed', to: 'asha@example.com', orderId: 'o1', correlationId: 'c2' });
    expect(mail.occasion).toBeUndefined();
    expect(mail.subject).toBe('Your payment is safe: we couldn\'t make your Persona of "Tales <of> "Rain" & Sun" yet');
    expect(mail.text).toContain(PERSONA_FAILED_NOTICE.heading);
    expect(mail.text).toContain(PERSONA_FAILED_NOTICE.message);
    expect(mail.text).toContain('within 2 business days');
    expect(mail.text).toContain(PERSONA_FAILED_NOTICE.next);
    expect(mail.text).toMatch(/Persona ID: +PRS-7K3M-9QXD-2HFA-J8TW/);
    expect(mail.text).toMatch(/Order: +o1/);
    expect(mail.text).toMatch(/Amount paid: +₹349\.50/);
    expect(mail.text).toContain('Your Persona page: https://shop.example/send-persona?personaId=PRS-7K3M-9QXD-2HFA-J8TW');
    expect(mail.text).not.toContain('font missing');
    expect(mail.text).not.toContain('printed copy');
    expect(mail.html).toContain('Tales &lt;of&gt; &quot;Rain&quot; &amp; Sun by Meera Nair');
  });

  it('tells the giver of a gift and the buyer of a printed copy what waits for the Persona', () => {
    const mail = personaFailedEmail(
      order({ delivery_type: 'physical', gift_recipient_name: 'Ravi', gift_deliver_on: '2026-12-01', gift_recipient_email: 'ravi@example.com' }),
      SHOP,
      null,
    );
    expect(mail.to).toBe('asha@example.com');
    expect(mail.text).toMatch(/A gift for: +Ravi/);
    expect(mail.text).toContain('Your printed copy is printed and dispatched once your Persona is made.');
  });
});

describe("the shop's alert that a paid Persona failed", () => {
  it("goes to the shop's own address with the order, Persona, book, buyer and reason, and a link to the order where Retry is", () => {
    const mail = personaFailedAlert(order({ persona_error: 'the <source> cannot be read' }), SHOP, 'event-1', 'c3');
    expect(mail).toMatchObject({ kind: 'persona-failed-alert', to: 'help@shop.example', orderId: 'o1', occasion: 'event-1', correlationId: 'c3' });
    expect(mail.subject).toBe('Persona failed: PRS-7K3M-9QXD-2HFA-J8TW ("Tales <of> "Rain" & Sun") for Asha Rao');
    expect(mail.text).toMatch(/Order: +o1/);
    expect(mail.text).toMatch(/Persona ID: +PRS-7K3M-9QXD-2HFA-J8TW/);
    expect(mail.text).toMatch(/Buyer: +Asha Rao/);
    expect(mail.text).toMatch(/Buyer's e-mail: +asha@example\.com/);
    expect(mail.text).toMatch(/Phone: +\+91 98765 43210/);
    expect(mail.text).toMatch(/Reason: +the <source> cannot be read/);
    expect(mail.text).toContain('Open the order to retry: https://shop.example/admin/orders?search=PRS-7K3M-9QXD-2HFA-J8TW');
    expect(mail.text).toContain('Every failed Persona: https://shop.example/admin/orders?persona=failed');
    expect(visible(mail.html)).not.toMatch(/https?:/);
    expect(mail.html).toContain('the &lt;source&gt; cannot be read');
    expect(mail.html).not.toContain('<source>');
  });

  it('says so when no reason was given', () => {
    expect(personaFailedAlert(order({ persona_error: null }), SHOP, 'e', null).text).toMatch(/Reason: +None given/);
  });
});
