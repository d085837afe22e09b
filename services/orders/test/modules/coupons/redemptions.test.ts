// A coupon's redemptions against real checkouts (issue 23), on both databases: 50 concurrent
// checkouts of a code limited to one make one order with its discount and 49 refusals (no order
// without its discount), and paying them makes one paid redemption; one e-mail's share is kept
// under concurrent checkouts too; a redemption is given back when its payment fails (and taken
// again if the order is paid after all), when its checkout is left, and when the order is refunded
// in full; the invoice of a discounted order shows the discount before tax.
import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { sql } from '@persona/db';
import { describeWithPostgres, popplerPageTexts } from '@persona/test-kit';
import { COUPON_HOLD_MS, releaseStaleReservations } from '../../../src/modules/coupons/coupon-redemptions';
import { checkout, signedWebhook, startOrdersHarness, verifyBody, type OrdersHarness } from '../../support';
import { couponBody } from './fixtures';

function contract(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrdersHarness(kind);
  });
  afterAll(() => h.close());

  const inject = (opts: InjectOptions) => h.service.app.inject(opts);
  async function coupon(over: Record<string, unknown>) {
    const res = await inject({ method: 'POST', url: '/api/coupons', payload: { couponId: randomUUID(), ...couponBody(over) }, headers: h.admin });
    expect(res.statusCode).toBe(200);
    return res.json().data as { _id: string; code: string };
  }
  const initiate = (over: Record<string, unknown>) => inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout(over) });
  const used = async (couponId: string) => (await h.database.db.selectFrom('coupons').select('used').where('id', '=', couponId).executeTakeFirstOrThrow()).used;
  const redemption = (orderId: string) => h.database.db.selectFrom('coupon_redemptions').selectAll().where('order_id', '=', orderId).executeTakeFirst();
  const order = (orderId: string) => h.database.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  /** Lets the stand-in's webhooks arrive and the inbox handle them until `done` holds. */
  async function until(done: () => Promise<boolean>, what: string) {
    for (let i = 0; i < 150; i += 1) {
      await h.service.drainWebhooks();
      if (await done()) return;
      await new Promise((r) => setTimeout(r, 30));
    }
    throw new Error(`never: ${what}`);
  }

  it('50 concurrent checkouts of a code limited to one: one order with its discount, 49 refused; one paid redemption', async () => {
    const { _id: couponId, code } = await coupon({ code: 'ONLY-ONE', totalLimit: 1, perEmailLimit: null });
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => initiate({ coupon: code, email: `race${i}@example.com` })));
    const won = answers.filter((a) => a.statusCode === 200);
    const refused = answers.filter((a) => a.statusCode !== 200);
    expect(won).toHaveLength(1);
    expect(refused.map((a) => [a.statusCode, a.json().code])).toEqual(Array.from({ length: 49 }, () => [409, 'COUPON_USED_UP']));
    expect(refused[0]!.json().message).toBe('This code has been used up');
    // No buyer is charged without their discount: every order made carries it.
    const orders = await h.database.db.selectFrom('orders').selectAll().where('email', 'like', 'race%@example.com').execute();
    expect(orders.map((o) => [o.coupon_code, o.discount_paise, o.amount_paise])).toEqual([['ONLY-ONE', 6990, 27960]]);
    expect(won[0]!.json().data).toMatchObject({ amount: 27960, breakdown: { basePaise: 34950, discountPaise: 6990, totalPaise: 27960 } });
    expect(await used(couponId)).toBe(1);
    // Paid (the browser's proof, and the capture's webhook): the one redemption is final.
    const { orderId, razorpayOrderId } = won[0]!.json().data;
    const paid = await inject({
      method: 'POST',
      url: '/api/payments/verify',
      payload: verifyBody(orderId, razorpayOrderId, `pay_${orderId.replace(/-/g, '').slice(0, 14)}`),
    });
    expect(paid.statusCode).toBe(200);
    // The receipt the browser is handed says what the code took off.
    expect(paid.json().data.receipt).toMatchObject({ amountPaid: 279.6, breakdown: { base: 349.5, discount: 69.9 }, coupon: 'ONLY-ONE' });
    const redemptions = await h.database.db.selectFrom('coupon_redemptions').selectAll().where('coupon_id', '=', couponId).execute();
    expect(redemptions.map((r) => [r.order_id, r.state, r.discount_paise])).toEqual([[orderId, 'final', 6990]]);
    expect(await used(couponId)).toBe(1);
    // The next buyer hears it is used up, before paying and when starting to.
    expect((await initiate({ coupon: code, email: 'late@example.com' })).json().code).toBe('COUPON_USED_UP');
  }, 60_000);

  it("keeps one e-mail's share under concurrent checkouts, whatever the case of the address", async () => {
    const { _id: couponId, code } = await coupon({ code: 'ONCE-EACH', totalLimit: 100, perEmailLimit: 1 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => initiate({ coupon: code, email: i % 2 ? 'Same@Example.com' : 'same@example.com', fullName: `Buyer ${i}` })),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409).map((a) => a.json().code)).toEqual(Array.from({ length: 9 }, () => 'COUPON_USED_BY_YOU'));
    expect(await used(couponId)).toBe(1);
    const uses = await h.database.db.selectFrom('coupon_email_uses').selectAll().where('coupon_id', '=', couponId).execute();
    expect(uses.map((u) => [u.email, u.used])).toEqual([['same@example.com', 1]]);
    expect((await initiate({ coupon: code, email: 'other@example.com' })).statusCode).toBe(200);
  }, 60_000);

  it('answers a checkout sent again (same Idempotency-Key), at once or after, with its order, reserving once', async () => {
    // One use in all and per e-mail: the twin must not be told the code is used up by its own order.
    const { _id: couponId, code } = await coupon({ code: 'RETRY', totalLimit: 1, perEmailLimit: 1 });
    const key = randomUUID();
    const body = checkout({ coupon: code, email: 'retry@example.com' });
    const send = () => inject({ method: 'POST', url: '/api/payments/initiate', payload: body, headers: { 'idempotency-key': key } });
    const answers = await Promise.all([send(), send(), send()]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.json().data.orderId)).size).toBe(1);
    expect(answers[0]!.json().data.breakdown.discountPaise).toBe(6990);
    expect((await send()).json().data.orderId).toBe(answers[0]!.json().data.orderId);
    expect(await used(couponId)).toBe(1);
    // The same key with another code is another checkout: refused.
    const other = await inject({ method: 'POST', url: '/api/payments/initiate', payload: { ...body, coupon: 'ELSE' }, headers: { 'idempotency-key': key } });
    expect(other.statusCode).toBe(409);
  });

  it('gives the code back when the payment fails, and takes it again when the order is paid after all', async () => {
    const { _id: couponId, code } = await coupon({ code: 'FAILS', totalLimit: 1, perEmailLimit: 1 });
    const { orderId, razorpayOrderId } = (await initiate({ coupon: code, email: 'fails@example.com' })).json().data;
    await h.service.standIn!.pay(razorpayOrderId, 'failure');
    await until(async () => (await redemption(orderId))?.state === 'released', 'released after the failure');
    expect(await used(couponId)).toBe(0);
    expect((await order(orderId)).payment_status).toBe('failed');
    // The buyer tried again in Razorpay's window and paid the discounted price: theirs, even over the limit.
    const hook = signedWebhook('payment.captured', razorpayOrderId, 27960);
    expect((await inject({ method: 'POST', url: '/api/payments/webhook', payload: hook.body, headers: hook.headers })).statusCode).toBe(200);
    await until(async () => (await order(orderId)).payment_status === 'paid', 'paid by the capture');
    expect((await redemption(orderId))?.state).toBe('final');
    expect(await used(couponId)).toBe(1);
  });

  it('gives back the holds of checkouts left longer than a checkout lives, and only those', async () => {
    const { _id: couponId, code } = await coupon({ code: 'LEFT', totalLimit: 10, perEmailLimit: 1 });
    const left = (await initiate({ coupon: code, email: 'left@example.com' })).json().data.orderId;
    const paid = (await initiate({ coupon: code, email: 'payer@example.com' })).json().data;
    await inject({
      method: 'POST',
      url: '/api/payments/verify',
      payload: verifyBody(paid.orderId, paid.razorpayOrderId, `pay_${paid.orderId.replace(/-/g, '').slice(0, 14)}`),
    });
    expect(await used(couponId)).toBe(2);
    expect(await releaseStaleReservations(h.database.db, undefined, new Date(Date.now() + COUPON_HOLD_MS - 60_000))).toBe(0);
    expect((await redemption(left))?.state).toBe('reserved');
    expect(await releaseStaleReservations(h.database.db, undefined, new Date(Date.now() + COUPON_HOLD_MS + 1000))).toBeGreaterThanOrEqual(1);
    expect((await redemption(left))?.state).toBe('released');
    expect((await redemption(paid.orderId))?.state).toBe('final');
    expect(await used(couponId)).toBe(1);
    // The e-mail's share is back too: the buyer can start again.
    expect((await initiate({ coupon: code, email: 'left@example.com', fullName: 'Back Again' })).statusCode).toBe(200);
  });

  it('shows the discount on the invoice before tax, and gives the code back once the order is refunded in full', async () => {
    const { _id: couponId, code } = await coupon({ code: 'REFUNDED', totalLimit: 1, perEmailLimit: 1 });
    const { orderId, razorpayOrderId } = (await initiate({ coupon: code, email: 'refund@example.com' })).json().data;
    await h.service.standIn!.pay(razorpayOrderId, 'success');
    const invoice = () => h.database.db.selectFrom('invoices').selectAll().where('order_id', '=', orderId).where('kind', '=', 'invoice').executeTakeFirst();
    await until(async () => (await invoice()) !== undefined, 'invoiced');
    expect((await redemption(orderId))?.state).toBe('final');
    const issued = (await invoice())!;
    expect([issued.gross_paise, issued.discount_paise, issued.total_paise]).toEqual([34950, 6990, 27960]);
    expect(issued.taxable_paise + issued.cgst_paise + issued.sgst_paise + issued.igst_paise).toBe(27960);
    const personaId = (await order(orderId)).persona_id;
    const pdf = await inject({ method: 'GET', url: `/api/orders/${personaId}/invoice` });
    expect(pdf.statusCode).toBe(200);
    const text = (await popplerPageTexts(new Uint8Array(pdf.rawPayload), 'layout')).join('\n');
    expect(text).toMatch(/Less discount\s+−₹69\.90/);
    expect(text).toMatch(/−69\.90/);
    const refund = (amountPaise: number) =>
      inject({
        method: 'POST',
        url: `/api/orders/${orderId}/refunds`,
        payload: { refundId: randomUUID(), amountPaise, reason: 'Asked for' },
        headers: h.admin,
      });
    const refunds = () => h.database.db.selectFrom('refunds').selectAll().where('order_id', '=', orderId).execute();
    expect((await refund(10_000)).statusCode).toBe(200);
    await until(async () => (await refunds()).every((r) => r.status === 'processed'), 'the first refund processed');
    // A part refunded: the redemption stays the buyer's.
    expect((await redemption(orderId))?.state).toBe('final');
    expect(await used(couponId)).toBe(1);
    expect((await refund(17_960)).statusCode).toBe(200);
    await until(async () => (await refunds()).every((r) => r.status === 'processed'), 'the rest refunded');
    expect((await redemption(orderId))?.state).toBe('released');
    expect(await used(couponId)).toBe(0);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM coupon_email_uses WHERE coupon_id = ${couponId} AND used > 0`.execute(
      h.database.db,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it("shows the code and its discount among the order page's amounts", async () => {
    const { code } = await coupon({ code: 'ON-THE-PAGE', perEmailLimit: null });
    const { orderId } = (await initiate({ coupon: code, email: 'page@example.com' })).json().data;
    const page = await inject({ method: 'GET', url: `/api/orders/${orderId}/detail`, headers: h.admin });
    expect(page.statusCode).toBe(200);
    expect(page.json().data.amounts).toEqual({
      basePaise: 34950,
      printingPaise: 0,
      deliveryPaise: 0,
      discountPaise: 6990,
      couponCode: 'ON-THE-PAGE',
      totalPaise: 27960,
    });
  });
}

describe('coupon redemptions on PGlite', () => contract('pglite'));
describeWithPostgres()('coupon redemptions on PostgreSQL', () => contract('postgres'));
