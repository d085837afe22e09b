// Refunds through Razorpay (issue 23), against the test-mode stand-in on both databases: partial
// refunds up to what was paid and not a paisa more, one refund per key however often it is asked
// for (a lost answer, a double press), states that only move forward whatever the webhooks repeat,
// the buyer's e-mail and a credit note per processed refund, and refusals in plain words.
import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { sql } from '@persona/db';
import { describeWithPostgres, popplerPageTexts } from '@persona/test-kit';
import { createEvent } from '@persona/bus';
import { DEFAULT_SELLER, invoiceSettings } from '../../../src/modules/invoices/order-invoice';
import { applyOrderPaid } from '../../../src/modules/orders/persona-events';
import { personaRequest } from '../../../src/modules/payments/mark-order-paid';
import { recordPaymentWebhook } from '../../../src/modules/payments/handle-payment-webhook';
import { razorpayWebhookAction } from '../../../src/modules/payments/razorpay/razorpay-provider';
import { nextRefundCheck, REFUND_CHECK_SCHEDULE_MS, refundFailureInWords } from '../../../src/modules/refunds/refunds';
import { checkout, outboxEvents, startOrdersHarness, type OrdersHarness } from '../../support';

describe('the refund check schedule and words', () => {
  it('asks a minute after, then less often, for two weeks', () => {
    const made = new Date('2026-11-27T10:00:00Z');
    expect(nextRefundCheck(made, made)).toEqual(new Date(made.getTime() + 60_000));
    expect(REFUND_CHECK_SCHEDULE_MS.at(-1)).toBe(14 * 24 * 3600_000);
    expect(nextRefundCheck(made, new Date(made.getTime() + 15 * 24 * 3600_000))).toBeNull();
  });

  it("says Razorpay's refusals as an owner reads them", () => {
    expect(refundFailureInWords('Payment is older than 6 months')).toMatch(/six months only/);
    expect(refundFailureInWords('The total refund amount is greater than the refund payment amount')).toMatch(/no more to refund/);
    expect(refundFailureInWords('Something else')).toBe('Razorpay refused the refund: Something else');
  });
});

function contract(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrdersHarness(kind);
  });
  afterAll(() => h.close());

  const inject = (opts: InjectOptions) => h.service.app.inject(opts);
  const refund = (orderId: string, body: object, headers: Record<string, string> = h.admin) =>
    inject({ method: 'POST', url: `/api/orders/${orderId}/refunds`, payload: body, headers });
  const rows = (orderId: string) => h.database.db.selectFrom('refunds').selectAll().where('order_id', '=', orderId).orderBy('created_at').execute();
  /** Lets the stand-in's webhooks arrive and the inbox handle them, until the order's refunds are final. */
  async function settled(orderId: string) {
    for (let i = 0; i < 100; i += 1) {
      await h.service.drainWebhooks();
      const all = await rows(orderId);
      if (all.every((r) => r.status === 'processed' || r.status === 'failed')) return all;
      await new Promise((r) => setTimeout(r, 30));
    }
    throw new Error('the refunds did not settle');
  }
  const changes = async (orderId: string) =>
    (await outboxEvents(h.database)).filter((e) => e.type === 'order.refund_changed' && e.payload.orderId === orderId).map((e) => e.payload.status);
  const emails = async (orderId: string) =>
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM emails WHERE order_id = ${orderId} AND kind = 'refund-processed'`.execute(h.database.db)).rows[0]!
      .n;
  const creditNotes = async (orderId: string) =>
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM invoices WHERE order_id = ${orderId} AND kind = 'credit-note'`.execute(h.database.db)).rows[0]!.n;
  /** An order paid at the stand-in (a payment it can refund), with its invoice issued (a credit note cites it). */
  async function invoiced() {
    const { orderId, razorpayOrderId } = (await inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout() })).json().data;
    await h.service.standIn!.pay(razorpayOrderId, 'success');
    const order = { orderId };
    for (let i = 0; i < 100; i += 1) {
      const { rows: found } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM invoices WHERE order_id = ${order.orderId}`.execute(h.database.db);
      if (found[0]!.n > 0) return order;
      await h.service.drainWebhooks();
      await new Promise((r) => setTimeout(r, 30));
    }
    throw new Error('no invoice');
  }

  it('refunds part, then the rest, and not a paisa more; each processed refund e-mailed with its credit note', async () => {
    const { orderId } = await invoiced();
    const first = await refund(orderId, { refundId: randomUUID(), amountPaise: 10_000, reason: 'Name misspelt; reissued' });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ amountPaise: 10_000, speed: 'normal', requestedBy: 'admin@example.com' });
    expect(['pending', 'processed']).toContain(first.json().data.status);
    const rest = await refund(orderId, { refundId: randomUUID(), amountPaise: 24_950, reason: 'The buyer changed their mind' });
    expect(rest.statusCode).toBe(200);
    const tooMuch = await refund(orderId, { refundId: randomUUID(), amountPaise: 100, reason: 'One rupee more' });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().message).toBe('That is more than is left to refund: ₹0.00 of the ₹349.50 paid');
    const all = await settled(orderId);
    expect(all.map((r) => [r.amount_paise, r.status])).toEqual([
      [10_000, 'processed'],
      [24_950, 'processed'],
    ]);
    expect(all.every((r) => r.provider_refund_id?.startsWith('rfnd_'))).toBe(true);
    expect(await emails(orderId)).toBe(2);
    expect(await creditNotes(orderId)).toBe(2);
    const { rows: notes } = await sql<{
      total_paise: number;
      number: string;
    }>`SELECT total_paise, number FROM invoices WHERE order_id = ${orderId} AND kind = 'credit-note' ORDER BY sequence`.execute(h.database.db);
    expect(notes.map((n) => Number(n.total_paise))).toEqual([10_000, 24_950]);
    expect(notes.every((n) => /^PBCN\/\d\d-\d\d\/\d{5}$/.test(n.number))).toBe(true);
    // Each credit note is served by its id, from the link in its e-mail, and cites the invoice.
    const { rows: mails } = await sql<{
      text_body: string;
    }>`SELECT text_body FROM emails WHERE order_id = ${orderId} AND kind = 'refund-processed' ORDER BY created_at`.execute(h.database.db);
    const link = /Credit note: +(PBCN\S+): https:\/\/shop\.example(\/api\/orders\/\S+\/invoice\?document=[0-9a-f-]{36})/.exec(mails[0]!.text_body);
    expect(link?.[1]).toBe(notes[0]!.number);
    const note = await inject({ method: 'GET', url: link![2]! });
    expect(note.statusCode).toBe(200);
    const text = (await popplerPageTexts(new Uint8Array(note.rawPayload), 'layout')).join('\n');
    expect(text).toMatch(/Credit Note/);
    expect(text).toMatch(/PB\/\d\d-\d\d\/\d{6}/);
    expect(text).toContain(notes[0]!.number);
    // Another order's document is not this order's.
    const other = await invoiced();
    const { rows: otherRow } = await sql<{ persona_id: string }>`SELECT persona_id FROM orders WHERE id = ${other.orderId}`.execute(h.database.db);
    const documentId = new URL(`https://x${link![2]}`).searchParams.get('document');
    expect((await inject({ method: 'GET', url: `/api/orders/${otherRow[0]!.persona_id}/invoice?document=${documentId}` })).statusCode).toBe(404);
  });

  it('credits a refund processed before the invoice existed once the invoice is issued, and once only', async () => {
    const { orderId } = await invoiced();
    // As when a refund comes in the moments between the payment and its receipt (which issues the invoice).
    await sql`DELETE FROM invoices WHERE order_id = ${orderId}`.execute(h.database.db);
    expect((await refund(orderId, { refundId: randomUUID(), amountPaise: 10_000, reason: 'Refunded at once' })).statusCode).toBe(200);
    await settled(orderId);
    expect(await creditNotes(orderId)).toBe(0);
    const order = await h.database.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    const shop = { publicUrl: 'https://shop.example', supportEmail: 'help@shop.example' };
    const receipt = () =>
      applyOrderPaid(h.database.db, createEvent('order.paid', personaRequest(order), { correlationId: 'c-receipt' }), shop, invoiceSettings(DEFAULT_SELLER));
    await receipt();
    const documents = await h.database.db.selectFrom('invoices').selectAll().where('order_id', '=', orderId).orderBy('sequence').execute();
    expect(documents.map((d) => d.kind).sort()).toEqual(['credit-note', 'invoice']);
    const note = documents.find((d) => d.kind === 'credit-note')!;
    expect(note.credits_invoice_id).toBe(documents.find((d) => d.kind === 'invoice')!.id);
    expect(note.total_paise).toBe(10_000);
    // Told again (a redelivery, or another order.paid): the invoice stands, nothing more is credited.
    await receipt();
    expect(await creditNotes(orderId)).toBe(1);
  });

  it('makes one refund for one key, however often it is sent and even when the answer is lost', async () => {
    const { orderId } = await invoiced();
    const key = randomUUID();
    const body = { refundId: key, amountPaise: 5_000, reason: 'Late delivery' };
    // Performed at Razorpay, the answer cut on the way back: the refund stays requested here.
    h.service.standIn!.refundBehaviour.dropNextAnswer = true;
    const lost = await refund(orderId, body);
    expect(lost.statusCode).toBe(200);
    expect(h.service.standIn!.refundBehaviour.dropNextAnswer).toBe(false);
    // A second press, and the poller, send the same key again.
    const again = await Promise.all([refund(orderId, body), refund(orderId, body)]);
    expect(again.map((a) => a.json().data._id)).toEqual([key, key]);
    await h.database.db
      .updateTable('refunds')
      .set({ check_at: new Date(Date.now() - 1000) })
      .where('id', '=', key)
      .execute();
    await h.service.pollRefunds();
    const [row] = await settled(orderId);
    expect(row).toMatchObject({ id: key, status: 'processed' });
    const made = (await h.service.standIn!.refunds()).filter((r) => r.id === row!.provider_refund_id || (r.notes as Record<string, string>).refund_id === key);
    expect(made).toHaveLength(1);
    expect(await emails(orderId)).toBe(1);
    expect(await creditNotes(orderId)).toBe(1);
  });

  it('moves only forward: replayed webhooks change nothing, and a failed refund leaves the amount refundable', async () => {
    const { orderId } = await invoiced();
    h.service.standIn!.refundBehaviour.outcome = 'failed';
    try {
      await refund(orderId, { refundId: randomUUID(), amountPaise: 34_950, reason: 'Duplicate order' });
      await settled(orderId);
    } finally {
      h.service.standIn!.refundBehaviour.outcome = 'processed';
    }
    const [failed] = await rows(orderId);
    expect(failed).toMatchObject({ status: 'failed', failure: 'Razorpay could not make the refund' });
    expect(await emails(orderId)).toBe(0);
    // Replayed: the same refund.failed three times, then a stale refund.created: no change.
    const stale = (type: string, status: string) =>
      razorpayWebhookAction({
        event: type,
        payload: {
          refund: { entity: { id: failed!.provider_refund_id, payment_id: failed!.payment_id, amount: 34_950, status, notes: { refund_id: failed!.id } } },
        },
      });
    for (const action of [
      stale('refund.failed', 'failed'),
      stale('refund.failed', 'failed'),
      stale('refund.failed', 'failed'),
      stale('refund.created', 'pending'),
    ]) {
      await recordPaymentWebhook(h.database.db, `evt_${randomUUID()}`, action);
    }
    await h.service.drainWebhooks();
    expect((await rows(orderId))[0]).toMatchObject({ status: 'failed' });
    expect(await changes(orderId)).toEqual(['requested', 'pending', 'failed']);
    // The whole amount is refundable again.
    const retried = await refund(orderId, { refundId: randomUUID(), amountPaise: 34_950, reason: 'Duplicate order' });
    expect(retried.statusCode).toBe(200);
    expect((await settled(orderId)).map((r) => r.status)).toEqual(['failed', 'processed']);
  });

  it("says Razorpay's refusal in plain words, and refuses bad input with nothing recorded", async () => {
    const { orderId } = await invoiced();
    await h.database.db.updateTable('orders').set({ razorpay_payment_id: 'pay_NOTKNOWN00000' }).where('id', '=', orderId).execute();
    const refused = await refund(orderId, { refundId: randomUUID(), amountPaise: 1_000, reason: 'Test' });
    expect(refused.statusCode).toBe(200);
    expect(refused.json().data).toMatchObject({ status: 'failed', failure: 'Razorpay refused the refund: The id provided does not exist' });
    expect(refused.json().message).toBe('Razorpay refused the refund: The id provided does not exist');

    const { orderId: other } = await invoiced();
    for (const [body, status] of [
      [{ refundId: randomUUID(), amountPaise: 99, reason: 'x' }, 400],
      [{ refundId: randomUUID(), amountPaise: 150.5, reason: 'x' }, 400],
      [{ refundId: randomUUID(), amountPaise: 1_000, reason: '   ' }, 400],
      [{ refundId: 'nope', amountPaise: 1_000, reason: 'x' }, 400],
      [{ refundId: randomUUID(), amountPaise: 1_000, reason: 'x', status: 'processed' }, 400],
    ] as const) {
      expect((await refund(other, body)).statusCode).toBe(status);
    }
    expect((await refund(other, { refundId: randomUUID(), amountPaise: 1_000, reason: 'x' }, {})).statusCode).toBe(401);
    expect((await refund(randomUUID(), { refundId: randomUUID(), amountPaise: 1_000, reason: 'x' })).statusCode).toBe(404);
    const unpaid = (await inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout() })).json().data.orderId;
    const notPaid = await refund(unpaid, { refundId: randomUUID(), amountPaise: 1_000, reason: 'x' });
    expect(notPaid.statusCode).toBe(409);
    expect(notPaid.json().message).toBe('Only a paid order can be refunded');
    expect(await rows(other)).toEqual([]);
  });
}

describe('refunds on PGlite', () => contract('pglite'));
describeWithPostgres()('refunds on PostgreSQL', () => contract('postgres'));
