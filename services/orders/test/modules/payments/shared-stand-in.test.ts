// Two orders replicas' test-mode stand-ins on one Redis (issue 25): one Razorpay account. An order
// made through one is paid through the other, its payments listed through the first; a payment is
// captured once and a refund made once however many of them are asked at the same time. Without
// Redis each keeps its own memory, as one process always did.
import { describeWithRedis, TEST_REDIS_URL, uniqueName } from '@persona/test-kit';
import Redis from 'ioredis';
import { RazorpayProvider, TEST_MODE_KEYS } from '../../../src/modules/payments/razorpay/razorpay-provider';
import type { WebhookDelivery } from '../../../src/modules/payments/test-mode/razorpay-stand-in';
import { startStandIn, type StandIn } from '../../../src/modules/payments/test-mode/start-stand-in';
import { RedisStandInStore, STAND_IN_TTL_SECONDS } from '../../../src/modules/payments/test-mode/stand-in-store';

const basic = `Basic ${Buffer.from(`${TEST_MODE_KEYS.keyId}:${TEST_MODE_KEYS.keySecret}`).toString('base64')}`;
const eventOf = (delivery: WebhookDelivery) => (JSON.parse(delivery.body) as { event: string }).event;

/** The stand-in's API, asked as the SDK asks it. */
async function post(standIn: StandIn, path: string, body: object, headers: Record<string, string> = {}) {
  const res = await fetch(`${standIn.url}${path}`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { error?: { description: string } } };
}

describeWithRedis()('two stand-ins on one Redis', () => {
  const prefix = `${uniqueName('persona:stand-in:test')}:`;
  const redis = new Redis(TEST_REDIS_URL);
  const webhooks: { a: WebhookDelivery[]; b: WebhookDelivery[] } = { a: [], b: [] };
  let a: StandIn;
  let b: StandIn;
  let viaA: RazorpayProvider;
  let viaB: RazorpayProvider;

  beforeAll(async () => {
    a = await startStandIn(TEST_MODE_KEYS, async (d) => void webhooks.a.push(d), { redisUrl: TEST_REDIS_URL, keyPrefix: prefix });
    b = await startStandIn(TEST_MODE_KEYS, async (d) => void webhooks.b.push(d), { redisUrl: TEST_REDIS_URL, keyPrefix: prefix });
    viaA = new RazorpayProvider('test', TEST_MODE_KEYS, a.url);
    viaB = new RazorpayProvider('test', TEST_MODE_KEYS, b.url);
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  const newOrder = (provider: RazorpayProvider, amountPaise = 34_950) =>
    provider.createOrder({ amountPaise, receipt: uniqueName('r').slice(0, 40), notes: { order_id: 'o' } });
  const settled = async (until: () => boolean) => {
    for (let i = 0; i < 100 && !until(); i += 1) await new Promise((r) => setTimeout(r, 20));
  };

  it('pays through B an order made through A, and lists its payment through A', async () => {
    const order = await newOrder(viaA);
    const before = { a: webhooks.a.length, b: webhooks.b.length };
    const paid = (await b.pay(order.id, 'success')) as { razorpay_payment_id: string; razorpay_order_id: string };
    expect(paid.razorpay_order_id).toBe(order.id);
    expect(viaA.isValidPaymentSignature(order.id, paid.razorpay_payment_id, (paid as unknown as { razorpay_signature: string }).razorpay_signature)).toBe(true);
    expect(await viaA.paymentsOf(order.id)).toEqual([{ id: paid.razorpay_payment_id, providerOrderId: order.id, status: 'captured', amountPaise: 34_950 }]);
    // The order as A answers it: attempted once, paid.
    const res = await fetch(`${a.url}/v1/orders/${order.id}`, { headers: { authorization: basic } });
    expect(await res.json()).toMatchObject({ id: order.id, status: 'paid', attempts: 1, amount_paid: 34_950, amount_due: 0, notes: { order_id: 'o' } });
    // B's webhooks went to B's own replica.
    await settled(() => webhooks.b.length >= before.b + 2);
    expect(webhooks.b.slice(before.b).map(eventOf).sort()).toEqual(['order.paid', 'payment.captured']);
    expect(webhooks.a.length).toBe(before.a);
    // Kept for a week, not for ever.
    const ttl = await redis.ttl(`${prefix}order:${order.id}`);
    expect(ttl).toBeGreaterThan(STAND_IN_TTL_SECONDS - 60);
    expect(ttl).toBeLessThanOrEqual(STAND_IN_TTL_SECONDS);
  });

  it('captures an authorised payment once when A and B are asked at the same time', async () => {
    const order = await newOrder(viaB);
    const { razorpay_payment_id: paymentId } = (await a.pay(order.id, 'success', { autoCapture: false })) as { razorpay_payment_id: string };
    const before = webhooks.a.length + webhooks.b.length;
    const answers = await Promise.all(
      [a, b, a, b, a, b].map((standIn) => post(standIn, `/v1/payments/${paymentId}/capture`, { amount: 34_950, currency: 'INR' })),
    );
    expect(answers.filter((x) => x.status === 200)).toHaveLength(1);
    expect(answers.filter((x) => x.status === 400).map((x) => x.body.error?.description)).toEqual(Array(5).fill('This payment has already been captured'));
    expect((await viaB.paymentsOf(order.id))[0]).toMatchObject({ id: paymentId, status: 'captured' });
    await settled(() => webhooks.a.length + webhooks.b.length >= before + 2);
    await new Promise((r) => setTimeout(r, 100));
    const events = [...webhooks.a, ...webhooks.b].slice(-(webhooks.a.length + webhooks.b.length - before)).map(eventOf);
    expect(events.sort()).toEqual(['order.paid', 'payment.captured']);
  });

  it('refunds through B once when the same idempotency key is sent to A and B at the same time', async () => {
    const order = await newOrder(viaA);
    const { razorpay_payment_id: paymentId } = (await a.pay(order.id, 'success')) as { razorpay_payment_id: string };
    const key = uniqueName('refund');
    const refunds = await Promise.all([viaB, viaA, viaB, viaA, viaB, viaA].map((p) => p.refund(paymentId, 34_950, { key, speed: 'normal' })));
    expect(new Set(refunds.map((r) => r.id)).size).toBe(1);
    const made = (await b.refunds()).filter((r) => r.payment_id === paymentId);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ id: refunds[0]!.id, amount: 34_950, notes: { refund_id: key } });
    // Processed by the stand-in that made it, seen through the other.
    await settled(() => [...webhooks.a, ...webhooks.b].some((d) => eventOf(d) === 'refund.processed' && d.body.includes(refunds[0]!.id)));
    expect(await viaA.fetchRefund(refunds[0]!.id)).toMatchObject({ id: refunds[0]!.id, status: 'processed' });
    expect(await viaB.fetchRefund(refunds[0]!.id)).toMatchObject({ status: 'processed' });
    // The same key again, later, through either: that refund, not a second.
    expect((await viaA.refund(paymentId, 34_950, { key, speed: 'normal' })).id).toBe(refunds[0]!.id);
    expect((await b.refunds()).filter((r) => r.payment_id === paymentId)).toHaveLength(1);
  });

  it('never refunds more than was paid when different keys race through A and B', async () => {
    const order = await newOrder(viaB, 20_000);
    const { razorpay_payment_id: paymentId } = (await b.pay(order.id, 'success')) as { razorpay_payment_id: string };
    const answers = await Promise.all(
      [a, b, a, b].map((standIn) => post(standIn, `/v1/payments/${paymentId}/refund`, { amount: 15_000 }, { 'x-refund-idempotency': uniqueName('k') })),
    );
    expect(answers.filter((x) => x.status === 200)).toHaveLength(1);
    expect(answers.filter((x) => x.status === 400).map((x) => x.body.error?.description)).toEqual(
      Array(3).fill('The total refund amount is greater than the refund payment amount'),
    );
    // What is left can still be refunded, through either.
    expect((await post(a, `/v1/payments/${paymentId}/refund`, { amount: 5_000 }, { 'x-refund-idempotency': uniqueName('k') })).status).toBe(200);
    expect((await b.refunds()).filter((r) => r.payment_id === paymentId).map((r) => r.amount)).toEqual([15_000, 5_000]);
  });

  it('lists in either recon what was paid and refunded through the other', async () => {
    a.settlementBehaviour.delayMs = 0;
    const order = await newOrder(viaB, 10_000);
    const { razorpay_payment_id: paymentId } = (await b.pay(order.id, 'success')) as { razorpay_payment_id: string };
    const refund = await viaB.refund(paymentId, 10_000, { key: uniqueName('k'), speed: 'normal' });
    await settled(() => webhooks.b.some((d) => eventOf(d) === 'refund.processed' && d.body.includes(refund.id)));
    const now = new Date(Date.now() + 5.5 * 3600_000);
    const items = await viaA.settlementRecon({ year: now.getUTCFullYear(), month: now.getUTCMonth() + 1, day: now.getUTCDate() });
    expect(items.filter((i) => i.providerOrderId === order.id).map((i) => [i.type, i.entityId])).toEqual([
      ['payment', paymentId],
      ['refund', refund.id],
    ]);
  });

  it('keeps each account to itself: another key prefix knows none of it', async () => {
    const order = await newOrder(viaA);
    const same = new RedisStandInStore(TEST_REDIS_URL, prefix);
    const other = new RedisStandInStore(TEST_REDIS_URL, `${prefix}other:`);
    try {
      expect((await same.order(order.id))?.id).toBe(order.id);
      expect(await other.order(order.id)).toBeUndefined();
    } finally {
      await Promise.all([same.close(), other.close()]);
    }
  });
});

describe('two stand-ins without Redis', () => {
  it('each knows only its own orders, as one process always did', async () => {
    const a = await startStandIn(TEST_MODE_KEYS, async () => undefined);
    const b = await startStandIn(TEST_MODE_KEYS, async () => undefined);
    try {
      const order = await new RazorpayProvider('test', TEST_MODE_KEYS, a.url).createOrder({ amountPaise: 34_950, receipt: 'r', notes: {} });
      expect(await b.pay(order.id, 'success')).toBeNull();
      expect(await a.pay(order.id, 'success')).toMatchObject({ razorpay_order_id: order.id });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
