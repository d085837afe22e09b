// Payment webhooks behind the inbox (issue 23 point 5): the route records a delivery and answers;
// the payment it brings is made by background rounds, each event claimed with SKIP LOCKED in a
// transaction of its own, so that several rounds (processes) handle every event exactly once, a
// handling that fails is tried again later, and the answer never waits for the order's row.
import type { InjectOptions } from 'fastify';
import { createUnitOfWork, type UnitOfWork } from '@persona/bus';
import { createLogger, quietGate } from '@persona/service-kit';
import { describeWithPostgres } from '@persona/test-kit';
import type { OrdersDB } from '../../../src/db';
import { handleDueWebhooks, recordPaymentWebhook, webhookInbox, webhookRetryMs } from '../../../src/modules/payments/handle-payment-webhook';
import { razorpayWebhookAction, TEST_MODE_KEYS } from '../../../src/modules/payments/razorpay/razorpay-provider';
import { webhookSignature } from '../../../src/modules/payments/razorpay/razorpay-signatures';

import { checkout, outboxEvents, signedWebhook, startOrdersHarness, type OrdersHarness } from '../../support';

const logger = createLogger('orders-test', 'silent');

function contract(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  let uow: UnitOfWork<OrdersDB>;
  beforeAll(async () => {
    h = await startOrdersHarness(kind);
    uow = createUnitOfWork({ db: h.database.db });
  });
  afterAll(() => h.close());

  const inject = (opts: InjectOptions) => h.service.app.inject(opts);
  const inbox = () => ({ uow, db: h.database.db, logger, shop: { publicUrl: 'https://shop.example', supportEmail: 'help@shop.example' } });
  const started = async () => (await inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout() })).json().data;
  const deliver = (w: { body: string; headers: Record<string, string> }) =>
    inject({ method: 'POST', url: '/api/payments/webhook', payload: w.body, headers: w.headers });
  const event = (w: { headers: Record<string, string> }) =>
    h.database.db.selectFrom('webhook_events').selectAll().where('event_id', '=', w.headers['x-razorpay-event-id']!).executeTakeFirstOrThrow();

  it('handles every delivery exactly once when each is sent twice at once and three rounds race for them', async () => {
    const orders = [];
    for (let i = 0; i < 40; i += 1) orders.push(await started());
    const webhooks = orders.map((o) => signedWebhook('payment.captured', o.razorpayOrderId, o.amount));
    const answers = await Promise.all(webhooks.flatMap((w) => [deliver(w), deliver(w)]));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const statuses = answers.map((a) => a.json().status);
    expect(statuses.filter((s) => s === 'accepted')).toHaveLength(40);
    expect(statuses.filter((s) => s === 'duplicate')).toHaveLength(40);
    // The service's own rounds, and two more as other processes would run them.
    await Promise.all([h.service.drainWebhooks(), handleDueWebhooks(inbox()), handleDueWebhooks(inbox())]);
    for (const w of webhooks) expect(await event(w)).toMatchObject({ outcome: 'paid', attempts: 0, due_at: null });
    const paid = (await outboxEvents(h.database)).filter((e) => e.type === 'order.paid');
    for (const o of orders) expect(paid.filter((e) => e.payload.orderId === o.orderId)).toHaveLength(1);
    const rows = await h.database.db
      .selectFrom('orders')
      .select('payment_status')
      .where(
        'id',
        'in',
        orders.map((o) => o.orderId),
      )
      .execute();
    expect(rows.map((r) => r.payment_status)).toEqual(orders.map(() => 'paid'));
  });

  it('records an event this shop does not act on as handled, and tries a handling that failed again later', async () => {
    const { orderId, razorpayOrderId, amount } = await started();
    const captured = signedWebhook('payment.captured', razorpayOrderId, amount);
    const other = { ...captured, body: captured.body.replace('"payment.captured"', '"settlement.processed"') };
    other.headers = {
      ...other.headers,
      'x-razorpay-signature': webhookSignature(other.body, TEST_MODE_KEYS.webhookSecret),
      'x-razorpay-event-id': 'evt_settlement_1',
    };
    expect((await deliver(other)).json()).toEqual({ status: 'ignored' });
    expect(await event(other)).toMatchObject({ outcome: 'ignored', due_at: null });
    expect((await h.database.db.selectFrom('orders').select('payment_status').where('id', '=', orderId).executeTakeFirstOrThrow()).payment_status).toBe(
      'created',
    );

    // A round whose database fails mid-way: the event stays, with its error, due after the back-off.
    await h.service.drainWebhooks();
    const failing: UnitOfWork<OrdersDB> = {
      ...uow,
      run: (work) =>
        uow.run(async (w) => {
          await work(w);
          throw new Error('the connection was lost');
        }),
    };
    // Recorded straight into the table (no nudge), so that the failing round is the one to meet it.
    const action = razorpayWebhookAction(JSON.parse(captured.body));
    expect(await recordPaymentWebhook(h.database.db, captured.headers['x-razorpay-event-id']!, action)).toBe('accepted');
    expect(await handleDueWebhooks({ ...inbox(), uow: failing }, 1)).toBe(1);
    const failed = await event(captured);
    expect(failed).toMatchObject({ handled_at: null, attempts: 1, last_error: 'the connection was lost' });
    expect(failed.due_at!.getTime() - Date.now()).toBeGreaterThan(webhookRetryMs(1) - 1500);
    expect((await h.database.db.selectFrom('orders').select('payment_status').where('id', '=', orderId).executeTakeFirstOrThrow()).payment_status).toBe(
      'created',
    );
    // Due again: handled, and the order paid once.
    await h.database.db
      .updateTable('webhook_events')
      .set({ due_at: new Date(Date.now() - 1000) })
      .where('event_id', '=', captured.headers['x-razorpay-event-id']!)
      .execute();
    await h.service.drainWebhooks();
    expect(await event(captured)).toMatchObject({ outcome: 'paid', last_error: null, due_at: null });
    expect((await outboxEvents(h.database)).filter((e) => e.type === 'order.paid' && e.payload.orderId === orderId)).toHaveLength(1);
  });

  it('gives way while deliveries keep arriving, and pays once they pause', async () => {
    const { razorpayOrderId, amount } = await started();
    const captured = signedWebhook('payment.captured', razorpayOrderId, amount);
    const action = razorpayWebhookAction(JSON.parse(captured.body));
    expect(await recordPaymentWebhook(h.database.db, captured.headers['x-razorpay-event-id']!, action)).toBe('accepted');
    // Quiet means a second without a delivery: far above the 50 ms between them, so only a real pause
    // lets the round run, never a busy machine that left this process unscheduled for a moment (CI's
    // two cores under three lanes of tests once held it for more than the 150 ms this test had).
    const gate = quietGate({ quietMs: 1000, maxDeferMs: 10_000 });
    const paced = webhookInbox({ ...inbox(), gate }, 60_000);
    // Deliveries every 50 ms for 400 ms: the round waits them out (it has not ended, nor claimed anything).
    const started_ = Date.now();
    gate.arrived();
    const flood = setInterval(() => gate.arrived(), 50);
    let ended = false;
    const round = paced.drain().finally(() => (ended = true));
    await new Promise((r) => setTimeout(r, 400));
    expect(ended).toBe(false);
    clearInterval(flood);
    await round;
    expect(Date.now() - started_).toBeGreaterThanOrEqual(400 + 1000 - 50);
    expect(await event(captured)).toMatchObject({ outcome: 'paid' });
    await paced.stop();
  });

  if (kind === 'postgres') {
    it("answers a delivery while its order's row is locked by another transaction, and pays once the lock is gone", async () => {
      const { orderId, razorpayOrderId, amount } = await started();
      const webhook = signedWebhook('payment.captured', razorpayOrderId, amount);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      const holder = h.database.db.transaction().execute(async (trx) => {
        await trx.selectFrom('orders').select('id').where('id', '=', orderId).forUpdate().execute();
        locked();
        await held;
      });
      await isLocked;
      const answer = await deliver(webhook);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ status: 'accepted' });
      expect((await event(webhook)).handled_at).toBeNull();
      release();
      await holder;
      await h.service.drainWebhooks();
      expect(await event(webhook)).toMatchObject({ outcome: 'paid' });
    });
  }
}

describe('the payment webhook inbox on PGlite', () => contract('pglite'));
describeWithPostgres()('the payment webhook inbox on PostgreSQL', () => contract('postgres'));
