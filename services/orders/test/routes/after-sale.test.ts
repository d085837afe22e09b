// After the sale (issue 23), through the routes on PGlite and PostgreSQL: a Persona re-issued with a
// corrected name (one new Persona however often it is pressed, the order naming it, the buyer
// e-mailed the new one, the old id still finding the order), an order refunded in full ending its
// Personas' licence (told once), and a printed copy cancelled before dispatch with its refund —
// refused once dispatched. Bad input is refused with nothing changed.
import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { createEvent } from '@persona/bus';
import { shopDate } from '@persona/contracts';
import { sql } from '@persona/db';
import { describeOnOneDatabase } from '@persona/test-kit';
import { toLibraryPersona } from '../../src/modules/library/library.mapper';
import { ADDRESS, checkout, outboxEvents, paidOrder, startOrdersHarness, type OrdersHarness } from '../support';

function contract(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrdersHarness(kind);
  });
  afterAll(() => h.close());

  const inject = (opts: InjectOptions) => h.service.app.inject(opts);
  const reissue = (id: string, payload: object, headers: Record<string, string> = h.admin) =>
    inject({ method: 'POST', url: `/api/orders/${id}/persona/reissue`, payload, headers });
  const cancel = (id: string, payload: object, headers: Record<string, string> = h.admin) =>
    inject({ method: 'POST', url: `/api/orders/${id}/print/cancel`, payload, headers });
  const order = (id: string) => h.database.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const events = async (type: string, orderId: string) => (await outboxEvents(h.database)).filter((e) => e.type === type && e.payload.orderId === orderId);
  const refunds = (orderId: string) => h.database.db.selectFrom('refunds').selectAll().where('order_id', '=', orderId).orderBy('created_at').execute();
  async function until<T>(check: () => Promise<T | undefined | false>, what: string): Promise<T> {
    for (let i = 0; i < 200; i += 1) {
      const value = await check();
      if (value) return value;
      await h.service.drainWebhooks();
      await new Promise((r) => setTimeout(r, 30));
    }
    throw new Error(`timed out waiting for ${what}`);
  }
  /** personalisation's word that a Persona is made, as the bus brings it. */
  async function personaReady(orderId: string, personaId: string) {
    await h.bus.publish(createEvent('persona.ready', { orderId, personaId, sha256: 'a'.repeat(64), pages: 40 }, { correlationId: `ready-${personaId}` }));
    await until(async () => (await order(orderId)).persona_status === 'ready' && (await order(orderId)).persona_id === personaId, 'the Persona to be ready');
  }
  /** An order paid at the stand-in (a payment it can refund). */
  async function paidAtStandIn(body: object) {
    const { orderId, razorpayOrderId } = (await inject({ method: 'POST', url: '/api/payments/initiate', payload: body })).json().data;
    await h.service.standIn!.pay(razorpayOrderId, 'success');
    await until(async () => (await order(orderId)).payment_status === 'paid', 'the payment');
    return order(orderId);
  }

  describe('re-issuing a Persona', () => {
    it('makes one new Persona with the corrected name however often it is pressed; the order, the lookup and the e-mail name the new one', async () => {
      const { orderId, personaId } = await paidOrder(h, checkout({ fullName: 'Zoe Unal' }));
      await personaReady(orderId, personaId);
      const reissueId = randomUUID();
      const body = { reissueId, buyerName: 'Zoë Ünal', reason: 'The buyer typed their name without its accents' };
      const [first, second] = await Promise.all([reissue(orderId, body), reissue(orderId, body)]);
      expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
      const made = first.json().data;
      expect(second.json().data).toEqual(made);
      expect(made).toMatchObject({ _id: reissueId, oldPersonaId: personaId, buyerName: 'Zoë Ünal', requestedBy: 'admin@example.com' });
      expect(made.newPersonaId).toMatch(/^PRS-/);
      expect(made.newPersonaId).not.toBe(personaId);
      expect(first.json().message).toBe(`Persona ${made.newPersonaId} is being made; the buyer is e-mailed when it is ready`);
      // A third press, later: still the one.
      expect((await reissue(orderId, body)).json().data.newPersonaId).toBe(made.newPersonaId);

      const requested = await events('persona.reissue_requested', orderId);
      expect(requested).toHaveLength(1);
      expect(requested[0]!.payload).toMatchObject({ personaId: made.newPersonaId, replacesPersonaId: personaId, buyerName: 'Zoë Ünal', reissueId });
      expect(requested[0]!.actor?.email).toBe('admin@example.com');
      expect(await order(orderId)).toMatchObject({ persona_id: made.newPersonaId, full_name: 'Zoë Ünal', persona_status: 'generating' });

      // The buyer's older e-mails carry the old id: it still finds the order, which names the new Persona.
      const lookup = await inject({ method: 'GET', url: `/api/orders/${personaId}` });
      expect(lookup.json().data.personaId).toBe(made.newPersonaId);

      await personaReady(orderId, made.newPersonaId);
      const { rows: mails } = await sql<{ subject: string; text_body: string }>`
        SELECT subject, text_body FROM emails WHERE order_id = ${orderId} AND kind = 'persona-ready' ORDER BY created_at`.execute(h.database.db);
      // The first, ready within the minute of payment, was the receipt too; the corrected one is the re-issue's own.
      expect(mails.map((m) => m.subject)).toEqual(['Order confirmed: your Persona of "Gitanjali" is ready', 'Your corrected Persona of "Gitanjali" is ready']);
      expect(mails[1]!.text_body).toContain(made.newPersonaId);
      expect(mails[1]!.text_body).toContain(`It replaces Persona ${personaId}, which can no longer be downloaded.`);
      expect(mails[1]!.text_body).toContain('Dear Zoë Ünal,');

      const detail = (await inject({ method: 'GET', url: `/api/orders/${orderId}/detail`, headers: h.admin })).json().data;
      expect(detail.order.personaId).toBe(made.newPersonaId);
      expect(detail.reissues).toEqual([made]);
      // The tax invoice stays the one issued: it cites the order.
      const { rows: invoices } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM invoices WHERE order_id = ${orderId}`.execute(h.database.db);
      expect(invoices[0]!.n).toBeLessThanOrEqual(1);
    });

    it('corrects a gift’s recipient and message, and refuses what it cannot print, a Persona not made, or nothing corrected — changing nothing', async () => {
      // For a day to come: its e-mail waits, and must not go out with the replaced Persona's links.
      const gift = { recipientName: 'Ananya', message: 'Happy birthday', recipientEmail: 'ananya@example.com', deliverOn: shopDate(new Date(), -5) };
      const { orderId, personaId } = await paidOrder(h, checkout({ gift }));
      const refusals: Array<[object, number, string | RegExp]> = [
        [{ reissueId: randomUUID(), buyerName: 'Zoë Ünal', recipientName: 'Anaya', reason: 'typo' }, 409, /not ready/],
      ];
      for (const [body, status, message] of refusals) {
        const res = await reissue(orderId, body);
        expect({ status: res.statusCode, message: res.json().message }).toEqual({ status, message: expect.stringMatching(message) });
      }
      await personaReady(orderId, personaId);
      const bad: Array<[object, number, string | RegExp]> = [
        [{ reissueId: randomUUID(), buyerName: 'Li Bai 李白', reason: 'typo' }, 400, /^We cannot print “李”/],
        [{ reissueId: randomUUID(), buyerName: 'Zoë Ünal', reason: 'typo' }, 400, 'Nothing is corrected: change the name or the message before re-issuing'],
        [{ reissueId: 'not-a-uuid', buyerName: 'Zoë Ünal', recipientName: 'Anaya', reason: 'typo' }, 400, /reissueId/],
        [{ reissueId: randomUUID(), buyerName: 'Zoë Ünal', recipientName: 'Anaya', reason: 'typo', amountPaise: 1 }, 400, /amountPaise|additional/i],
        [{ reissueId: randomUUID(), buyerName: 'Zoë Ünal', recipientName: 'Anaya' }, 400, /reason/],
      ];
      for (const [body, status, message] of bad) {
        const res = await reissue(orderId, body);
        expect({ status: res.statusCode, message: res.json().message }).toEqual({ status, message: expect.stringMatching(message) });
      }
      expect((await reissue(orderId, { reissueId: randomUUID(), buyerName: 'X', reason: 'y' }, {})).statusCode).toBe(401);
      expect((await order(orderId)).persona_id).toBe(personaId);
      expect(await events('persona.reissue_requested', orderId)).toHaveLength(0);

      const fixed = await reissue(orderId, {
        reissueId: randomUUID(),
        buyerName: 'Zoë Ünal',
        recipientName: 'Anaya',
        message: 'Happy 30th birthday',
        reason: 'Misspelt',
      });
      expect(fixed.statusCode).toBe(200);
      expect(fixed.json().data).toMatchObject({ recipientName: 'Anaya', message: 'Happy 30th birthday' });
      const [event] = await events('persona.reissue_requested', orderId);
      expect(event!.payload.gift).toEqual({ recipientName: 'Anaya', message: 'Happy 30th birthday' });
      const newId = fixed.json().data.newPersonaId as string;
      await personaReady(orderId, newId);
      const { rows: giftMails } = await sql<{ text_body: string; sent_at: Date | null }>`
        SELECT text_body, sent_at FROM emails WHERE order_id = ${orderId} AND kind = 'gift-delivery'`.execute(h.database.db);
      expect(giftMails).toHaveLength(1);
      expect(giftMails[0]!.text_body).toContain(newId);
      expect(giftMails[0]!.text_body).toContain('Dear Anaya,');
      expect(giftMails[0]!.text_body).not.toContain(personaId);

      // A digital order that is no gift has no recipient to correct; another order's re-issue id is not this one's.
      const other = await paidOrder(h);
      await personaReady(other.orderId, other.personaId);
      const notGift = await reissue(other.orderId, { reissueId: randomUUID(), buyerName: 'Zoë Ünal', recipientName: 'Anaya', reason: 'typo' });
      expect({ status: notGift.statusCode, message: notGift.json().message }).toEqual({
        status: 400,
        message: 'This order is not a gift: it has no recipient or message to correct',
      });
      const taken = await reissue(other.orderId, { reissueId: fixed.json().data._id, buyerName: 'Zoe', reason: 'typo' });
      expect(taken.statusCode).toBe(409);
      expect((await order(other.orderId)).persona_id).toBe(other.personaId);
    });
  });

  it('ends the licence of an order refunded in full, once, with the refund that completes it', async () => {
    const paid = await paidAtStandIn(checkout());
    await personaReady(paid.id, paid.persona_id);
    const part = await inject({
      method: 'POST',
      url: `/api/orders/${paid.id}/refunds`,
      payload: { refundId: randomUUID(), amountPaise: 10_000, reason: 'Part' },
      headers: h.admin,
    });
    expect(part.statusCode).toBe(200);
    await until(async () => (await refunds(paid.id)).every((r) => r.status === 'processed'), 'the first refund');
    expect(await events('order.refunded_in_full', paid.id)).toHaveLength(0);
    expect((await order(paid.id)).refunded_in_full_at).toBeNull();
    const rest = await inject({
      method: 'POST',
      url: `/api/orders/${paid.id}/refunds`,
      payload: { refundId: randomUUID(), amountPaise: paid.amount_paise - 10_000, reason: 'The rest' },
      headers: h.admin,
    });
    expect(rest.statusCode).toBe(200);
    await until(async () => (await refunds(paid.id)).every((r) => r.status === 'processed'), 'the second refund');
    const ended = await events('order.refunded_in_full', paid.id);
    expect(ended).toHaveLength(1);
    const after = await order(paid.id);
    expect(ended[0]!.payload).toEqual({ orderId: paid.id, personaId: paid.persona_id, refundedAt: after.refunded_in_full_at!.toISOString() });
    // Its downloads are gone from what the buyer sees; a refunded order is not re-issued.
    const lookup = (await inject({ method: 'GET', url: `/api/orders/${paid.persona_id}` })).json().data;
    expect(lookup).toMatchObject({ downloads: [], personalizedPdfUrl: null, refundedAt: after.refunded_in_full_at!.toISOString() });
    expect(toLibraryPersona(after, 'zoe@example.com')).toMatchObject({ downloads: [], refundedAt: after.refunded_in_full_at!.toISOString() });
    const refused = await reissue(paid.id, { reissueId: randomUUID(), buyerName: 'Zoe', reason: 'typo' });
    expect({ status: refused.statusCode, message: refused.json().message }).toEqual({
      status: 409,
      message: "This order was refunded in full: its Persona's licence has ended, there is nothing to re-issue",
    });
  });

  describe('cancelling a printed copy', () => {
    it('before dispatch: cancelled, its printing and delivery refunded, once however often it is pressed', async () => {
      const paid = await paidAtStandIn(checkout({ deliveryType: 'physical', address: ADDRESS }));
      const body = { cancelId: randomUUID(), refund: 'print', reason: 'The buyer wants the PDF only' };
      const [first, second] = await Promise.all([cancel(paid.id, body), cancel(paid.id, body)]);
      expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
      expect(first.json().data).toMatchObject({ deliveryStatus: 'cancelled' });
      expect(first.json().message).toMatch(/^Printed copy cancelled; ₹[\d,.]+ (is being refunded|refunded)$/);
      expect((await cancel(paid.id, body)).statusCode).toBe(200);
      const made = await refunds(paid.id);
      expect(made.map((r) => [r.id, r.amount_paise])).toEqual([[body.cancelId, paid.printing_paise + paid.delivery_paise]]);
      expect(made[0]!.reason).toBe('Printed copy cancelled before dispatch (printing and delivery refunded): The buyer wants the PDF only');
      expect(await events('order.delivery_status_changed', paid.id)).toHaveLength(1);
      const { rows: mails } = await sql<{ text_body: string }>`SELECT text_body FROM emails WHERE order_id = ${paid.id} AND kind = 'cancelled'`.execute(
        h.database.db,
      );
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text_body).toContain('Your digital Persona stays yours to download.');
      // Another press (a new id) finds it cancelled already.
      const again = await cancel(paid.id, { ...body, cancelId: randomUUID() });
      expect({ status: again.statusCode, message: again.json().message }).toEqual({ status: 409, message: 'This printed copy is already cancelled' });
      expect(await refunds(paid.id)).toHaveLength(1);
    });

    it('with the whole order refunded, when the owner chooses', async () => {
      const paid = await paidAtStandIn(checkout({ deliveryType: 'physical', address: ADDRESS }));
      const res = await cancel(paid.id, { cancelId: randomUUID(), refund: 'order', reason: 'Out of stock' });
      expect(res.statusCode).toBe(200);
      expect((await refunds(paid.id)).map((r) => r.amount_paise)).toEqual([paid.amount_paise]);
      await until(async () => (await events('order.refunded_in_full', paid.id)).length === 1, 'the full refund');
    });

    it('refuses a copy already dispatched, a digital order and bad input, changing nothing', async () => {
      const paid = await paidAtStandIn(checkout({ deliveryType: 'physical', address: ADDRESS }));
      const shipped = await inject({
        method: 'PATCH',
        url: `/api/orders/${paid.id}/status`,
        payload: { deliveryStatus: 'shipped', carrier: 'India Post', trackingNumber: 'EE123456789IN' },
        headers: h.admin,
      });
      expect(shipped.statusCode).toBe(200);
      const late = await cancel(paid.id, { cancelId: randomUUID(), refund: 'print', reason: 'Too late' });
      expect(late.statusCode).toBe(409);
      expect(late.json().message).toMatch(
        /^This printed copy was already dispatched on \d{4}-\d\d-\d\d: it can no longer be cancelled\. Refund the order once the copy comes back\.$/,
      );
      for (const body of [
        { cancelId: randomUUID(), refund: 'half', reason: 'x' },
        { cancelId: randomUUID(), refund: 'print' },
        { cancelId: randomUUID(), refund: 'print', reason: 'x', amountPaise: 100 },
      ]) {
        expect((await cancel(paid.id, body)).statusCode).toBe(400);
      }
      expect((await cancel(paid.id, { cancelId: randomUUID(), refund: 'print', reason: 'x' }, {})).statusCode).toBe(401);
      expect((await order(paid.id)).delivery_status).toBe('shipped');
      expect(await refunds(paid.id)).toHaveLength(0);

      const digital = await paidOrder(h);
      const none = await cancel(digital.orderId, { cancelId: randomUUID(), refund: 'print', reason: 'x' });
      expect({ status: none.statusCode, message: none.json().message }).toEqual({ status: 409, message: 'A digital order has no printed copy to cancel' });
    });
  });
}

// Routes, not the database: once, on PostgreSQL where it answers (the repositories' suites run on both).
describeOnOneDatabase('after the sale', contract);
