// Gifts (DESIGN §12): the recipient's name and message travel with order.paid to be printed, the
// buyer gets the receipt and the recipient the Persona on its day (a send kept in the database,
// made once, surviving a restart), the public lookup says only that it is a gift and when, the
// library lists it for both addresses; and what the Persona could not print is refused with a
// clear 400 and nothing written.
import { describeOnOneDatabase } from '@persona/test-kit';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { createEvent } from '@persona/bus';
import { LIBRARY_TOKEN_HEADER, shopDate } from '@persona/contracts';
import { sql } from 'kysely';
import { applyPersonaEvent } from '../../src/modules/orders/persona-events';
import { giftDeliveryTime } from '../../src/modules/mail/order-emails';
import { createMailRelay } from '../../src/modules/mail/mail-relay';
import { createLogger } from '@persona/service-kit';
import { checkout, issuedInvoice, outboxEvents, paidOrder, startOrdersHarness, type OrdersHarness } from '../support';

const SHOP = { publicUrl: 'https://shop.example', supportEmail: 'help@shop.example' };
const decode = (qp: string) =>
  Buffer.from(
    qp.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

describeOnOneDatabase('gifts', (kind) => {
  let h: OrdersHarness;
  // The mail relay's clock: the test moves it to a gift's day.
  let now = new Date();
  beforeAll(async () => {
    h = await startOrdersHarness(kind, { mailNow: () => now, libraryLinksPerMinute: 1000 });
  });
  afterAll(() => h.close());

  const inject = (opts: InjectOptions) => h.service.app.inject(opts);
  const initiate = (body: object) => inject({ method: 'POST', url: '/api/payments/initiate', payload: body });
  const countOrders = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM orders`.execute(h.database.db)).rows[0]!.n;
  async function mails(): Promise<string[]> {
    const files = (await readdir(h.mailDir)).filter((f) => f.endsWith('.eml'));
    return Promise.all(files.map(async (f) => decode(await readFile(path.join(h.mailDir, f), 'utf8'))));
  }
  const ready = (orderId: string, personaId: string) =>
    applyPersonaEvent(h.database.db, createEvent('persona.ready', { orderId, personaId, sha256: 'b'.repeat(64), pages: 12 }, { correlationId: 'gift' }), SHOP);

  it('prints the recipient and the message: order.paid carries them, the lookup says only "a gift" and its day', async () => {
    const deliverOn = shopDate(new Date(), -3);
    const gift = { recipientName: '  अनन्या   शर्मा ', message: 'जन्मदिन मुबारक!\r\n\r\nWith love,  Zoë', recipientEmail: 'ananya@example.com', deliverOn };
    const { orderId, personaId } = await paidOrder(h, checkout({ gift }));
    const paid = (await outboxEvents(h.database)).find((e) => e.type === 'order.paid' && e.payload.orderId === orderId)!;
    expect(paid.payload.gift).toEqual({ recipientName: 'अनन्या शर्मा', message: 'जन्मदिन मुबारक!\nWith love, Zoë' });
    expect(paid.payload.buyerName).toBe('Zoë Ünal');

    const pub = (await inject({ url: `/api/orders/${personaId}` })).json().data;
    expect(pub).toMatchObject({ gift: true, deliverOn });
    expect(JSON.stringify(pub)).not.toContain('ananya@example.com');
    const admin = (await inject({ url: `/api/orders/${orderId}`, headers: h.admin })).json().data;
    expect(admin.gift).toEqual({ recipientName: 'अनन्या शर्मा', message: 'जन्मदिन मुबारक!\nWith love, Zoë', recipientEmail: 'ananya@example.com', deliverOn });
  });

  it('leaves a request without a gift exactly as before: no gift in order.paid, none in the lookup', async () => {
    const { orderId, personaId } = await paidOrder(h, checkout({ email: 'plain@example.com' }));
    const paid = (await outboxEvents(h.database)).find((e) => e.type === 'order.paid' && e.payload.orderId === orderId)!;
    expect(Object.keys(paid.payload)).not.toContain('gift');
    expect((await inject({ url: `/api/orders/${personaId}` })).json().data).toMatchObject({ gift: false, deliverOn: null });
  });

  it("e-mails the recipient on the gift's day, once, whichever relay sends it and however often it runs", async () => {
    const deliverOn = shopDate(new Date(), -2);
    const { orderId, personaId } = await paidOrder(
      h,
      checkout({
        email: 'giver@example.com',
        fullName: 'Asha Rao',
        gift: { recipientName: 'Ravi', message: 'For the train', recipientEmail: 'ravi@example.com', deliverOn },
      }),
    );
    expect(await ready(orderId, personaId)).toBe('ready');
    now = new Date();
    await h.service.drainMail();
    const before = (await mails()).filter((m) => m.includes(personaId));
    // The buyer's Persona-ready, the receipt too (ready within the minute), saying who gets it and when; nothing to the recipient yet.
    expect(before.every((m) => m.includes('To: giver@example.com'))).toBe(true);
    expect(before).toHaveLength(1);
    expect(before.join('\n')).toContain('We e-mail it to:');
    expect(before.join('\n')).toContain('ravi@example.com on');

    // Its day at 9 in the morning, India time: sent, by a new relay as after a restart, and only once.
    const due = giftDeliveryTime(deliverOn);
    expect(due.toISOString()).toBe(new Date(`${deliverOn}T09:00:00+05:30`).toISOString());
    now = new Date(due.getTime() - 60_000);
    await h.service.drainMail();
    expect((await mails()).filter((m) => m.includes(personaId))).toHaveLength(1);
    now = new Date(due.getTime() + 1000);
    const restarted = createMailRelay(
      h.database.db,
      { dir: h.mailDir, from: 'Persona Books <orders@example.com>', now: () => now },
      createLogger('t', 'silent'),
    );
    expect(await restarted.drain()).toBe(1);
    await restarted.stop();
    await h.service.drainMail();
    const after = (await mails()).filter((m) => m.includes(personaId));
    const toRecipient = after.filter((m) => m.includes('To: ravi@example.com'));
    expect(toRecipient).toHaveLength(1);
    expect(toRecipient[0]).toContain('Dear Ravi,');
    expect(toRecipient[0]).toContain('Asha Rao has given you a Persona');
    expect(toRecipient[0]).toContain('“For the train”');
    expect(toRecipient[0]).toContain(`https://shop.example/api/personas/${personaId}/download`);
    // A second persona.ready (a redelivery) queues nothing more.
    await ready(orderId, personaId);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM emails WHERE order_id = ${orderId} AND kind = 'gift-delivery'`.execute(
      h.database.db,
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('e-mails a gift for today as soon as its Persona is ready', async () => {
    const { orderId, personaId } = await paidOrder(h, checkout({ gift: { recipientName: 'Tara', recipientEmail: 'tara@example.com' } }));
    await ready(orderId, personaId);
    now = new Date();
    await h.service.drainMail();
    expect((await mails()).filter((m) => m.includes(personaId) && m.includes('To: tara@example.com'))).toHaveLength(1);
  });

  it("lists a gift in the buyer's library at once and in the recipient's from its day", async () => {
    const later = shopDate(new Date(), -5);
    const { personaId } = await paidOrder(
      h,
      checkout({ email: 'lib.giver@example.com', gift: { recipientName: 'Meera', recipientEmail: 'Meera@Example.com', deliverOn: later } }),
    );
    // The library links the invoice order.paid's consumer issues, which may come after the payment's answer.
    await issuedInvoice(h, personaId);
    const libraryOf = async (email: string) => {
      await inject({ method: 'POST', url: '/api/library/link', payload: { email } });
      const { rows } = await sql<{
        text_body: string;
      }>`SELECT text_body FROM emails WHERE kind = 'library-link' AND to_address = ${email} ORDER BY created_at DESC LIMIT 1`.execute(h.database.db);
      if (!rows[0]) return null;
      const token = /#token=([A-Za-z0-9_-]+)/.exec(rows[0].text_body)![1]!;
      return (await inject({ url: '/api/library', headers: { [LIBRARY_TOKEN_HEADER]: token } })).json().data;
    };
    const giver = await libraryOf('lib.giver@example.com');
    expect(giver.personas.find((p: { personaId: string }) => p.personaId === personaId).gift).toEqual({
      direction: 'given',
      recipientName: 'Meera',
      deliverOn: later,
    });
    // Before its day the gift stays a surprise: the recipient's address has nothing, so no link is sent.
    expect(await libraryOf('meera@example.com')).toBeNull();
    await sql`UPDATE orders SET gift_deliver_on = ${shopDate(new Date())} WHERE persona_id = ${personaId}`.execute(h.database.db);
    const recipient = await libraryOf('meera@example.com');
    expect(recipient.personas).toHaveLength(1);
    expect(recipient.personas[0]).toMatchObject({ personaId, gift: { direction: 'received', from: 'Zoë Ünal' } });
    // The tax invoice is the buyer's paper: the giver's library links it, the recipient's does not.
    expect(giver.personas.find((p: { personaId: string }) => p.personaId === personaId).documents).toEqual([
      expect.objectContaining({ kind: 'invoice', url: `/api/orders/${personaId}/invoice` }),
    ]);
    expect(recipient.personas[0].documents).toEqual([]);
  });

  it('refuses what the Persona could not print, or a day it cannot keep, with a clear 400 and nothing written', async () => {
    const before = await countOrders();
    const today = shopDate(new Date());
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ gift: { recipientName: 'Ravi\u0007' } }, /recipient's name must be one line of text, without control characters/],
      [{ gift: { recipientName: 'Ravi\nKumar' } }, /one line of text/],
      [{ gift: { recipientName: '     ' } }, /recipient's name is required/],
      [{ gift: { recipientName: 'x'.repeat(10_000) } }, /"gift.recipientName" must be at most 200 characters/],
      [{ gift: { recipientName: 'x'.repeat(150) } }, /recipient's name must be at most 120 characters/],
      [{ gift: { recipientName: 'Аnna' } }, /mixes Cyrillic and Latin letters/],
      [{ gift: { recipientName: 'Ravi 😀' } }, /We cannot print “😀”/],
      [{ gift: { recipientName: 'Ravi', message: 'm'.repeat(10_000) } }, /"gift.message" must be at most 600 characters/],
      [{ gift: { recipientName: 'Ravi', message: 'm'.repeat(301) } }, /message must be at most 300 characters/],
      [{ gift: { recipientName: 'Ravi', message: 'a\nb\nc\nd\ne\nf\ng' } }, /at most 6 lines/],
      [{ gift: { recipientName: 'Ravi', message: 'Hi\u0000there' } }, /NUL character/],
      [{ gift: { recipientName: 'Ravi', message: 'Hi\u0008there' } }, /must not contain control characters/],
      [{ gift: { recipientName: 'Ravi', message: 'नमस्तेfriend' } }, /mixes Devanagari and Latin letters/],
      [{ gift: { recipientName: 'Ravi', deliverOn: shopDate(new Date(), 1) } }, /today or later/],
      [{ gift: { recipientName: 'Ravi', deliverOn: shopDate(new Date(), -400) } }, /within 366 days/],
      [{ gift: { recipientName: 'Ravi', deliverOn: '2026-02-30' } }, /"gift.deliverOn" must be a valid date/],
      [{ gift: { recipientName: 'Ravi', recipientEmail: 'not-an-address' } }, /"gift.recipientEmail" must be a valid email/],
      [{ gift: { recipientName: 'Ravi', surprise: true } }, /"gift.surprise" is not allowed/],
      [{ fullName: 'Zoë\u001bÜnal' }, /Full Name must be one line of text/],
      [{ fullName: 'Zoë 𝔘nal' }, /We cannot print/],
    ];
    for (const [over, message] of cases) {
      const res = await initiate(checkout(over));
      const sent = JSON.stringify(over).slice(0, 80);
      expect({ sent, status: res.statusCode, message: res.json().message }).toEqual({ sent, status: 400, message: expect.stringMatching(message) });
    }
    // Mixed scripts across words, accents and right-to-left text print: they are accepted.
    for (const gift of [
      { recipientName: 'Zoë Ünal', message: 'Happy birthday, अनन्या! நன்றி. শুভ জন্মদিন. عيد ميلاد سعيد' },
      { recipientName: 'مريم', deliverOn: today },
    ]) {
      expect((await initiate(checkout({ gift }))).statusCode).toBe(200);
    }
    expect(await countOrders()).toBe(before + 2);
  });
});
