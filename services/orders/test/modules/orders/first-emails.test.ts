// The buyer's first e-mail (issue 24): the confirmation waits a minute after payment; a Persona
// ready by then is told in one e-mail, the ready one that is also the receipt; a Persona ready
// later gets its own e-mail after the confirmation said "we e-mail you again". Both events may
// arrive in either order (they travel on different queues), again (redelivery), or after a
// restart: the decision is made from the `emails` table under the order's lock, never a timer.
import { createEvent } from '@persona/bus';
import { sql } from '@persona/db';
import { describeWithPostgres } from '@persona/test-kit';
import { applyOrderPaid, applyPersonaEvent } from '../../../src/modules/orders/persona-events';
import { personaRequest } from '../../../src/modules/payments/mark-order-paid';
import { DEFAULT_SELLER, invoiceSettings } from '../../../src/modules/invoices/order-invoice';
import * as repo from '../../../src/modules/order-records/orders.repository';
import { checkout, paidOrder, startOrdersHarness, type OrdersHarness } from '../../support';

const SHOP = { publicUrl: 'https://shop.example', supportEmail: 'help@shop.example' };

function contract(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  // The relay's clock: the machine's, or a minute on when a test says so.
  let ahead = 0;
  beforeAll(async () => {
    h = await startOrdersHarness(kind, { mailNow: () => new Date(Date.now() + ahead) });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    ahead = 0;
  });

  /**
   * An order paid as verify would pay it, but with no order.paid on the bus: the test hands each
   * event to its handler itself, in the order it wants.
   */
  async function paidQuietly(email: string) {
    const res = await h.service.app.inject({
      method: 'POST',
      url: '/api/payments/initiate',
      payload: checkout({ email, deliveryType: 'physical', address: { line1: '12 MG Road', city: 'Kochi', zip: '682001', country: 'India' } }),
    });
    expect(res.statusCode).toBe(200);
    const { orderId } = res.json().data as { orderId: string };
    await sql`UPDATE orders SET payment_status = 'paid', paid_at = now() WHERE id = ${orderId}`.execute(h.database.db);
    const order = (await repo.findOrderById(h.database.db, orderId))!;
    return { orderId, personaId: order.persona_id, paid: createEvent('order.paid', personaRequest(order), { correlationId: `paid-${orderId}` }) };
  }
  const orderPaid = (event: Parameters<typeof applyOrderPaid>[1]) => applyOrderPaid(h.database.db, event, SHOP, invoiceSettings(DEFAULT_SELLER));
  const ready = (orderId: string, personaId: string) =>
    createEvent('persona.ready', { orderId, personaId, sha256: 'a'.repeat(64), pages: 40, formats: ['pdf', 'epub'] }, { correlationId: `ready-${orderId}` });

  const emails = async (orderId: string) =>
    (
      await sql<{ kind: string; subject: string; text_body: string; sent_at: Date | null }>`
        SELECT kind, subject, text_body, sent_at FROM emails WHERE order_id = ${orderId} ORDER BY created_at`.execute(h.database.db)
    ).rows;

  it('paid, then ready within the minute: one e-mail, the ready one, which is the receipt with its invoice', async () => {
    const { orderId, personaId, paid } = await paidQuietly('one@example.com');
    expect(await orderPaid(paid)).toBe(true);
    // Queued, due in a minute: a drain now sends nothing of it.
    await h.service.drainMail();
    expect((await emails(orderId)).map((e) => [e.kind, e.sent_at])).toEqual([['order-confirmed', null]]);

    expect(await applyPersonaEvent(h.database.db, ready(orderId, personaId), SHOP)).toBe('ready');
    await h.service.drainMail();
    const [only, ...more] = await emails(orderId);
    expect(more).toEqual([]);
    expect(only).toMatchObject({ kind: 'persona-ready', sent_at: expect.any(Date) });
    expect(only!.subject).toBe('Order confirmed: your Persona of "Gitanjali" is ready');
    expect(only!.text_body).toContain('This e-mail is your receipt.');
    expect(only!.text_body).toMatch(/Tax invoice: +PB\/\d\d-\d\d\/\d{6}: https:\/\/shop\.example\/api\/orders\//);
    expect(only!.text_body).toContain(`Download EPUB: https://shop.example/api/personas/${personaId}/download?format=epub`);
    expect(only!.text_body).not.toContain('e-mail you again');

    // order.paid redelivered (the inbox), or a new order.paid for the same order: still one e-mail.
    expect(await orderPaid(paid)).toBe(false);
    expect(await orderPaid(createEvent('order.paid', paid.payload, { correlationId: 'again' }))).toBe(false);
    expect((await emails(orderId)).map((e) => e.kind)).toEqual(['persona-ready']);
  });

  it('ready before order.paid is handled: the ready e-mail is the receipt; order.paid then adds the invoice to it while it waits, and no confirmation', async () => {
    const { orderId, personaId, paid } = await paidQuietly('two@example.com');
    expect(await applyPersonaEvent(h.database.db, ready(orderId, personaId), SHOP)).toBe('ready');
    const [first] = await emails(orderId);
    expect(first!.kind).toBe('persona-ready');
    expect(first!.text_body).toContain('This e-mail is your receipt.');
    expect(first!.text_body).not.toContain('Tax invoice');

    expect(await orderPaid(paid)).toBe(true);
    const after = await emails(orderId);
    expect(after.map((e) => e.kind)).toEqual(['persona-ready']);
    expect(after[0]!.text_body).toMatch(/Tax invoice: +PB\//);
    await h.service.drainMail();
    expect((await emails(orderId)).map((e) => [e.kind, Boolean(e.sent_at)])).toEqual([['persona-ready', true]]);
  });

  it('ready before order.paid, and already sent: order.paid sends nothing more', async () => {
    const { orderId, personaId, paid } = await paidQuietly('three@example.com');
    await applyPersonaEvent(h.database.db, ready(orderId, personaId), SHOP);
    await h.service.drainMail();
    expect(await orderPaid(paid)).toBe(false);
    ahead = 120_000;
    await h.service.drainMail();
    expect((await emails(orderId)).map((e) => [e.kind, Boolean(e.sent_at)])).toEqual([['persona-ready', true]]);
  });

  it('ready after the confirmation went (a minute on): the confirmation said "we e-mail you again", then the ready e-mail', async () => {
    const { orderId, personaId, paid } = await paidQuietly('four@example.com');
    await orderPaid(paid);
    ahead = 61_000;
    await h.service.drainMail();
    const [confirmation] = await emails(orderId);
    expect(confirmation).toMatchObject({ kind: 'order-confirmed', sent_at: expect.any(Date) });
    expect(confirmation!.text_body).toContain(
      'We are printing your name and the date in it and signing it now, and e-mail you again when your Persona is ready to download.',
    );

    await applyPersonaEvent(h.database.db, ready(orderId, personaId), SHOP);
    await h.service.drainMail();
    const both = await emails(orderId);
    expect(both.map((e) => [e.kind, Boolean(e.sent_at)])).toEqual([
      ['order-confirmed', true],
      ['persona-ready', true],
    ]);
    expect(both[1]!.subject).toBe('Your Persona of "Gitanjali" is ready');
    expect(both[1]!.text_body).not.toContain('This e-mail is your receipt.');
  });

  it('a confirmation a relay is sending at that moment is not withdrawn: the ready e-mail comes on its own', async () => {
    const { orderId, personaId, paid } = await paidQuietly('five@example.com');
    await orderPaid(paid);
    // A relay (another process) has claimed it: it is being sent.
    await sql`UPDATE emails SET claimed_until = now() + interval '30 seconds' WHERE order_id = ${orderId}`.execute(h.database.db);
    await applyPersonaEvent(h.database.db, ready(orderId, personaId), SHOP);
    const rows = await emails(orderId);
    expect(rows.map((e) => e.kind)).toEqual(['order-confirmed', 'persona-ready']);
    expect(rows[1]!.text_body).not.toContain('This e-mail is your receipt.');
  });

  it('through the bus, as the shop runs: a Persona ready at once gets one e-mail to its buyer', async () => {
    const { orderId, personaId } = await paidOrder(h, checkout({ email: 'six@example.com' }));
    // order.paid is handled by its consumer; persona.ready comes from personalisation.
    const deadline = Date.now() + 10_000;
    while (!(await emails(orderId)).some((e) => e.kind === 'order-confirmed') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await h.bus.publish(ready(orderId, personaId));
    while (!(await emails(orderId)).some((e) => e.kind === 'persona-ready') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    ahead = 120_000;
    await h.service.drainMail();
    expect((await emails(orderId)).map((e) => [e.kind, Boolean(e.sent_at)])).toEqual([['persona-ready', true]]);
  });
}

describe("an order's first e-mail on PGlite", () => contract('pglite'));
describeWithPostgres()("an order's first e-mail on PostgreSQL", () => contract('postgres'));
