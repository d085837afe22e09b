// The order page's routes (issue 23): the whole order for an administrator, a private note and a
// copy of an e-mail, each safe to press twice, each with its audit event; bad input refused with
// nothing changed.
import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { describeOnOneDatabase } from '@persona/test-kit';
import { ADDRESS, checkout, outboxEvents, paidOrder, startOrdersHarness, type OrdersHarness } from '../support';

function contract(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  beforeAll(async () => {
    // The relay a minute ahead: the confirmation, due a minute after payment, goes at the next drain.
    h = await startOrdersHarness(kind, { mailNow: () => new Date(Date.now() + 61_000) });
  });
  afterAll(() => h.close());

  const inject = (opts: InjectOptions) => h.service.app.inject(opts);
  const detail = (id: string, headers = h.admin) => inject({ method: 'GET', url: `/api/orders/${id}/detail`, headers });
  const addNote = (id: string, payload: object) => inject({ method: 'POST', url: `/api/orders/${id}/notes`, payload, headers: h.admin });
  const resend = (id: string, emailId: string, payload: object) =>
    inject({ method: 'POST', url: `/api/orders/${id}/emails/${emailId}/resend`, payload, headers: h.admin });
  /** The order's detail once its confirmation e-mail is queued (order.paid's consumer queues it, after the commit). */
  const confirmed = async (id: string) => {
    for (let i = 0; i < 100; i += 1) {
      const data = (await detail(id)).json().data;
      if (data.emails.length > 0) return data;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('no confirmation e-mail was queued');
  };
  const events = async (type: string, orderId: string) => (await outboxEvents(h.database)).filter((e) => e.type === type && e.payload.orderId === orderId);

  it('shows an administrator the whole order: amounts by part, payment, attempts, e-mails and notes, never cached', async () => {
    const { orderId, personaId } = await paidOrder(h, checkout({ deliveryType: 'physical', address: ADDRESS }));
    const res = await detail(orderId);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const data = await confirmed(orderId);
    expect(data.order).toMatchObject({ _id: orderId, personaId, paymentStatus: 'paid', deliveryType: 'physical' });
    expect(data.amounts.basePaise + data.amounts.printingPaise + data.amounts.deliveryPaise).toBe(data.amounts.totalPaise);
    expect(data.amounts.deliveryPaise).toBe(5000);
    expect(data.payment).toMatchObject({
      razorpayOrderId: expect.stringMatching(/^order_/),
      razorpayPaymentId: expect.stringMatching(/^pay_/),
      paidVia: 'verify',
    });
    expect(data.attempts).toEqual([expect.objectContaining({ outcome: 'paid', source: 'verify' })]);
    expect(data.emails).toEqual([expect.objectContaining({ kind: 'order-confirmed', to: 'zoe@example.com', resendOf: null })]);
    expect(data.notes).toEqual([]);
    // Its tax invoice, once order.paid's consumer has issued it.
    for (let i = 0; i < 100 && (await detail(orderId)).json().data.invoices.length === 0; i += 1) await new Promise((r) => setTimeout(r, 50));
    expect((await detail(orderId)).json().data.invoices).toEqual([
      expect.objectContaining({
        kind: 'invoice',
        number: expect.stringMatching(/^PB\/\d\d-\d\d\/\d{6}$/),
        totalPaise: data.amounts.totalPaise,
        // A printed copy's place of supply is where it goes: the state of its PIN code (issue 24).
        placeOfSupply: 'Kerala (32)',
      }),
    ]);
  });

  it('refuses a visitor (401), an unknown order (404) and a malformed id (400)', async () => {
    const { orderId } = await paidOrder(h);
    expect((await detail(orderId, {} as typeof h.admin)).statusCode).toBe(401);
    expect((await detail(randomUUID())).statusCode).toBe(404);
    expect((await detail('not-an-id')).statusCode).toBe(400);
    expect((await inject({ method: 'POST', url: `/api/orders/${orderId}/notes`, payload: { noteId: randomUUID(), text: 'x' } })).statusCode).toBe(401);
  });

  it('adds a private note once however often it is sent, with its author and one audit event', async () => {
    const { orderId } = await paidOrder(h);
    const note = { noteId: randomUUID(), text: '  Buyer called: the name is spelt Ananya, with one n.  ' };
    const answers = await Promise.all([addNote(orderId, note), addNote(orderId, note), addNote(orderId, note)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers[0]!.json().data).toMatchObject({ _id: note.noteId, text: note.text.trim(), author: 'admin@example.com' });
    const notes = (await detail(orderId)).json().data.notes;
    expect(notes).toHaveLength(1);
    const added = await events('order.note_added', orderId);
    expect(added).toHaveLength(1);
    expect(added[0]!.actor).toMatchObject({ email: 'admin@example.com' });
    // The same id on another order is not this note.
    const other = await paidOrder(h);
    expect((await addNote(other.orderId, note)).statusCode).toBe(409);
  });

  it.each([
    ['an empty note', { text: '   ' }],
    ['no note id', { noteId: undefined }],
    ['a field the route does not know', { extra: 1 }],
    ['a note of 2,001 characters', { text: 'x'.repeat(2001) }],
  ])('refuses %s (400) and adds nothing', async (_label, change) => {
    const { orderId } = await paidOrder(h);
    const res = await addNote(orderId, { noteId: randomUUID(), text: 'ok', ...change });
    expect(res.statusCode).toBe(400);
    expect((await detail(orderId)).json().data.notes).toEqual([]);
  });

  it('sends a copy of a sent e-mail once per press, to the same address, and none of an e-mail still on its way', async () => {
    const { orderId } = await paidOrder(h);
    const [confirmation] = (await confirmed(orderId)).emails;
    // An e-mail not sent yet (a gift's, waiting for its day) has nothing to resend.
    const waiting = await h.database.db
      .insertInto('emails')
      .values({
        order_id: orderId,
        kind: 'gift-delivery',
        to_address: 'ravi@example.com',
        subject: 'A gift',
        text_body: 'x',
        send_after: new Date(Date.now() + 86_400_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const early = await resend(orderId, waiting.id, { requestId: randomUUID() });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/not been sent yet/);
    await h.database.db.deleteFrom('emails').where('id', '=', waiting.id).execute();
    await h.service.drainMail();
    const press = { requestId: randomUUID() };
    const twice = await Promise.all([resend(orderId, confirmation._id, press), resend(orderId, confirmation._id, press)]);
    expect(twice.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(twice[0]!.json().data._id).toBe(twice[1]!.json().data._id);
    expect(twice[0]!.json().data).toMatchObject({ kind: 'order-confirmed', to: confirmation.to, resendOf: confirmation._id });
    await h.service.drainMail();
    // A copy of the copy is a copy of the first.
    const again = await resend(orderId, twice[0]!.json().data._id, { requestId: randomUUID() });
    expect(again.json().data.resendOf).toBe(confirmation._id);
    await h.service.drainMail();
    const emails = (await detail(orderId)).json().data.emails;
    expect(emails).toHaveLength(3);
    expect(emails.every((e: { sentAt: string | null }) => e.sentAt !== null)).toBe(true);
    expect(await events('order.email_resent', orderId)).toHaveLength(2);
    // Another order's e-mail is not this order's.
    const other = await paidOrder(h);
    expect((await resend(other.orderId, confirmation._id, { requestId: randomUUID() })).statusCode).toBe(404);
    expect((await resend(orderId, confirmation._id, { requestId: 'not-a-uuid' })).statusCode).toBe(400);
  });
}

// Routes, not the database: once, on PostgreSQL where it answers (the repositories' suites run on both).
describeOnOneDatabase('the order page', contract);
