// Two orders replicas on one database and one Redis, in test mode (issue 25): each starts its own
// Razorpay stand-in, and they are one account. A checkout initiated through one replica is paid
// through the other's "buyer pays" and verified through the first; the refund an administrator
// asks of the second is made once, on the payment the first's stand-in took.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describeWithRedis, mintAdminToken, TEST_JWT_SECRET, TEST_REDIS_URL, uniqueName } from '@persona/test-kit';
import { openTestStack, type TestStack } from '@persona/test-stack';
import Redis from 'ioredis';
import type { OrdersDB } from '../../src/db';
import { standInKeyPrefix } from '../../src/modules/payments/test-mode/start-stand-in';
import { startOrdersService, type OrdersService } from '../../src/service';
import { BOOK, checkout, verifyBody } from '../support';

describeWithRedis()('two orders replicas in test mode on one Redis', () => {
  // A key id of this run's own: its stand-ins' keys are under a prefix no other run shares.
  const keyId = uniqueName('rzp_test_replicas');
  const redis = new Redis(TEST_REDIS_URL);
  const admin = { authorization: `Bearer ${mintAdminToken()}` };
  let stack: TestStack<OrdersDB>;
  let mailDir: string;
  let one: OrdersService;
  let two: OrdersService;

  const replica = () =>
    startOrdersService({
      database: stack.database,
      bus: stack.bus,
      logger: stack.logger,
      jwtSecret: TEST_JWT_SECRET,
      catalogueUrl: 'http://127.0.0.1:1',
      publicUrl: 'https://shop.example',
      supportEmail: 'help@shop.example',
      payments: { keyId },
      mail: { dir: mailDir, from: 'Persona Books <orders@example.com>' },
      readBook: async () => BOOK,
      reconcileEveryMs: 3600_000,
      refundPollMs: 3600_000,
      redisUrl: TEST_REDIS_URL,
    });

  beforeAll(async () => {
    mailDir = await mkdtemp(path.join(os.tmpdir(), 'orders-replicas-'));
    stack = await openTestStack<OrdersDB>('pglite', 'orders');
    one = await replica();
    two = await replica();
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await stack?.close();
    await rm(mailDir, { recursive: true, force: true });
    const keys = await redis.keys(`${standInKeyPrefix(keyId)}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('initiates through one, pays through the other, verifies through the first and refunds once through the second', async () => {
    const initiated = await one.app.inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout() });
    expect(initiated.statusCode).toBe(200);
    const { orderId, razorpayOrderId } = initiated.json().data as { orderId: string; razorpayOrderId: string };

    const paid = await two.app.inject({ method: 'POST', url: '/api/payments/test-mode/pay', payload: { razorpayOrderId, outcome: 'success' } });
    expect(paid.statusCode).toBe(200);
    const { razorpay_payment_id: paymentId, razorpay_signature: signature } = paid.json().data as { razorpay_payment_id: string; razorpay_signature: string };
    const verified = await one.app.inject({
      method: 'POST',
      url: '/api/payments/verify',
      payload: { ...verifyBody(orderId, razorpayOrderId, paymentId), razorpaySignature: signature },
    });
    expect(verified.statusCode).toBe(200);
    const order = await stack.database.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ payment_status: 'paid', razorpay_payment_id: paymentId });
    // A refund cites the order's invoice: wait until it is issued.
    for (let i = 0; i < 200; i += 1) {
      const { n } = await stack.database.db
        .selectFrom('invoices')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('order_id', '=', orderId)
        .executeTakeFirstOrThrow();
      if (Number(n) > 0) break;
      await Promise.all([one.drainWebhooks(), two.drainWebhooks()]);
      await new Promise((r) => setTimeout(r, 30));
    }

    // The same refund asked of both replicas at once: one refund at Razorpay.
    const refundId = randomUUID();
    const body = { refundId, amountPaise: BOOK.pricePaise, reason: 'Duplicate order' };
    const answers = await Promise.all(
      [two, one].map((replica) => replica.app.inject({ method: 'POST', url: `/api/orders/${orderId}/refunds`, payload: body, headers: admin })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(answers.map((a) => a.json().data._id)).toEqual([refundId, refundId]);
    const made = (await one.standIn!.refunds()).filter((r) => r.payment_id === paymentId);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ amount: BOOK.pricePaise, notes: { refund_id: refundId } });
  });
});
