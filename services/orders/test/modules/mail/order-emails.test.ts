// The buyer's e-mails as they read: the confirmation (a receipt), the Persona's being ready or
// having failed, each the same in text and HTML, every value escaped in the HTML; and the shop's
// own alert that a paid Persona failed.
import { PERSONA_FAILED_NOTICE } from '@persona/contracts';
import { orderConfirmedEmail, personaFailedAlert, personaFailedEmail, personaReadyEmail } from '../../../src/modules/mail/order-emails';
import type { OrderRow } from '../../../src/modules/orders/orders.repository';

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

describe('the order confirmation', () => {
  it('is a receipt: the book, the format, the amount, the date in India, the Persona ID and its page', () => {
    const mail = orderConfirmedEmail(order(), SHOP, 'c1');
    expect(mail).toMatchObject({ kind: 'order-confirmed', to: 'asha@example.com', orderId: 'o1', correlationId: 'c1' });
    expect(mail.subject).toBe('Order confirmed: your Persona of "Tales <of> "Rain" & Sun"');
    expect(mail.text).toContain('We have received your payment of ₹349.50. This e-mail is your receipt.');
    expect(mail.text).toMatch(/Format: +Digital Persona \(PDF\)/);
    expect(mail.text).toMatch(/Amount paid: +₹349\.50/);
    // 20:00 UTC on the 24th is the 25th in India.
    expect(mail.text).toMatch(/Paid on: +25 November 2026/);
    expect(mail.text).toMatch(/Persona ID: +PRS-7K3M-9QXD-2HFA-J8TW/);
    expect(mail.text).toContain('View your Persona: https://shop.example/send-persona?personaId=PRS-7K3M-9QXD-2HFA-J8TW');
    expect(mail.text).toContain('Questions? Write to help@shop.example, quoting your Persona ID.');
    expect(mail.text).not.toContain('Delivering to');
  });

  it("with a coupon shows the book's price and the discount, so the parts add up to what was paid", () => {
    const mail = orderConfirmedEmail(order({ discount_paise: 6990, coupon_code: 'LAUNCH-20', amount_paise: 27960 }), SHOP, null);
    expect(mail.text).toMatch(/Book price: +₹349\.50\n.*Discount \(LAUNCH-20\): +−₹69\.90\n.*Amount paid: +₹279\.60/);
    expect(mail.html).toContain('Discount (LAUNCH-20)');
    expect(orderConfirmedEmail(order(), SHOP, null).text).not.toContain('Discount');
  });

  it('for a printed copy adds the printing and delivery, the address and the dispatch estimate', () => {
    const mail = orderConfirmedEmail(
      order({
        delivery_type: 'physical',
        address: { line1: '12 MG Road', city: 'Bengaluru', zip: '560001', country: 'India' },
        printing_paise: 12000,
        delivery_paise: 5000,
        amount_paise: 51950,
      }),
      SHOP,
      null,
    );
    expect(mail.text).toMatch(/Printing: +₹120\.00/);
    expect(mail.text).toMatch(/Delivery: +₹50\.00/);
    expect(mail.text).toMatch(/Amount paid: +₹519\.50/);
    expect(mail.text).toMatch(/Delivering to: +12 MG Road, Bengaluru, 560001, India/);
    expect(mail.text).toContain('dispatched within 5–7 business days');
    expect(mail.html).toContain('12 MG Road, Bengaluru, 560001, India');
  });

  it('says the same in HTML, escaped, with the page as a button', () => {
    const mail = orderConfirmedEmail(order(), SHOP, null);
    expect(mail.html).toMatch(/^<!doctype html>/);
    expect(mail.html).toContain('Tales &lt;of&gt; &quot;Rain&quot; &amp; Sun by Meera Nair');
    expect(mail.html).not.toContain('<of>');
    expect(mail.html).toContain('<a href="https://shop.example/send-persona?personaId=PRS-7K3M-9QXD-2HFA-J8TW"');
    expect(mail.html).toContain('We have received your payment of ₹349.50. This e-mail is your receipt.');
  });
});

describe('the Persona-ready e-mail', () => {
  it('links the page and the download, as text and as a button', () => {
    const mail = personaReadyEmail(order(), SHOP, null);
    expect(mail.kind).toBe('persona-ready');
    expect(mail.text).toContain('Download your Persona: https://shop.example/api/personas/PRS-7K3M-9QXD-2HFA-J8TW/download');
    expect(mail.html).toContain('<a href="https://shop.example/api/personas/PRS-7K3M-9QXD-2HFA-J8TW/download"');
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
    expect(mail.text).toContain('View your Persona: https://shop.example/send-persona?personaId=PRS-7K3M-9QXD-2HFA-J8TW');
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
    expect(mail.html).toContain('the &lt;source&gt; cannot be read');
    expect(mail.html).not.toContain('<source>');
  });

  it('says so when no reason was given', () => {
    expect(personaFailedAlert(order({ persona_error: null }), SHOP, 'e', null).text).toMatch(/Reason: +None given/);
  });
});
