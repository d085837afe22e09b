// The buyer's e-mails as they read: the confirmation (a receipt) and the Persona's being ready,
// each the same in text and HTML, every value escaped in the HTML.
import { orderConfirmedEmail, personaReadyEmail } from '../../../src/modules/mail/order-emails';
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
