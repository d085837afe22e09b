import type { InjectOptions } from 'fastify';
import { randomUUID } from 'node:crypto';
import { describeOnOneDatabase } from '@persona/test-kit';
import { TEST_MODE_KEYS } from '../../src/modules/payments/razorpay/razorpay-provider';
import { paymentSignature } from '../../src/modules/payments/razorpay/razorpay-signatures';
import { ADDRESS, BOOK, checkout, outboxEvents, signedWebhook, verifyBody, startOrdersHarness, UNPRINTABLE_BOOK, type OrdersHarness } from '../support';

function contract(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrdersHarness(kind);
  });
  afterAll(() => h.close());

  const inject = (opts: InjectOptions) => h.service.app.inject(opts);
  const initiate = (body: object, key?: string) =>
    inject({ method: 'POST', url: '/api/payments/initiate', payload: body, headers: key ? { 'idempotency-key': key } : {} });
  const orderRow = (id: string) => h.database.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const paidEvents = async (orderId: string) => (await outboxEvents(h.database)).filter((e) => e.type === 'order.paid' && e.payload.orderId === orderId);

  /** Delivers a webhook and waits for the inbox to handle what it recorded. */
  const sendWebhook = async (w: { body: string; headers: Record<string, string> }) => {
    const res = await inject({ method: 'POST', url: '/api/payments/webhook', payload: w.body, headers: w.headers });
    await h.service.drainWebhooks();
    return res;
  };
  /** What the inbox did with a delivery (webhook_events.outcome). */
  const outcomeOf = async (w: { headers: Record<string, string> }) =>
    (await h.database.db.selectFrom('webhook_events').select('outcome').where('event_id', '=', w.headers['x-razorpay-event-id']!).executeTakeFirstOrThrow())
      .outcome;

  describe('initiate', () => {
    it("charges the server's amount whatever amount or shipping fee the client sends: a tampered figure changes nothing", async () => {
      for (const tampered of [{ amount: 1 }, { amount: 349.5, shippingFee: 50 }, { amount: 349.49 }, { amount: 1e300 }, { amount: 0, shippingFee: 0 }]) {
        const res = await initiate(checkout({ ...tampered, personaId: null }));
        expect({ tampered, status: res.statusCode }).toEqual({ tampered, status: 200 });
        const data = res.json().data;
        // The answer carries what is charged, and the order and the provider's order hold the same.
        expect({ tampered, amount: data.amount, breakdown: data.breakdown }).toEqual({
          tampered,
          amount: 34950,
          breakdown: { basePaise: 34950, printingPaise: 0, deliveryPaise: 0, totalPaise: 34950 },
        });
        expect((await orderRow(data.orderId)).amount_paise).toBe(34950);
      }
    });

    it("serves the spec's own client unchanged: its digital request with the printing cost added is charged the price alone", async () => {
      // Spec §9: the spec's storefront adds the book's printing cost (₹120 here) to the amount even for a digital copy.
      const res = await initiate({ ...checkout({ personaId: null }), amount: 469.5, shippingFee: 0, deliveryType: 'digital', address: null });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ amount: 34950, breakdown: { basePaise: 34950, printingPaise: 0, deliveryPaise: 0, totalPaise: 34950 } });
      expect((await orderRow(res.json().data.orderId)).amount_paise).toBe(34950);
    });

    it('charges the price alone for a digital Persona, accepting the figures the storefront sends', async () => {
      const res = await initiate(checkout({ amount: 349.5, shippingFee: 0, personaId: null }));
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data).toMatchObject({
        amount: 34950,
        currency: 'INR',
        testMode: true,
        keyId: TEST_MODE_KEYS.keyId,
        breakdown: { basePaise: 34950, printingPaise: 0, deliveryPaise: 0, totalPaise: 34950 },
      });
      expect(data.razorpayOrderId).toMatch(/^order_[A-Za-z0-9]{14}$/);
      const row = await orderRow(data.orderId);
      expect(row).toMatchObject({
        amount_paise: 34950,
        payment_status: 'created',
        persona_status: 'pending',
        delivery_status: 'pending',
        razorpay_order_id: data.razorpayOrderId,
      });
      expect(row.persona_id).toMatch(/^PRS-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    });

    it('adds printing and the ₹50 delivery fee for a printed Persona', async () => {
      const res = await initiate(checkout({ deliveryType: 'physical', address: ADDRESS, amount: 519.5, shippingFee: 50 }));
      expect(res.json().data).toMatchObject({ amount: 34950 + 12000 + 5000, breakdown: { printingPaise: 12000, deliveryPaise: 5000 } });
    });

    it('answers the same order for a retried Idempotency-Key and refuses the key for another checkout', async () => {
      const key = randomUUID();
      const first = (await initiate(checkout(), key)).json().data;
      const again = (await initiate(checkout(), key)).json().data;
      expect(again).toEqual(first);
      const other = await initiate(checkout({ fullName: 'Someone Else' }), key);
      expect(other.statusCode).toBe(409);
      expect(other.json().message).toBe('This Idempotency-Key was already used for a different checkout');
      const [a, b] = await Promise.all([initiate(checkout(), `race-${key}`), initiate(checkout(), `race-${key}`)]);
      expect(a.json().data.orderId).toBe(b.json().data.orderId);
    });

    it.each([
      ['a physical order without an address', checkout({ deliveryType: 'physical' }), 'An address is needed for physical delivery'],
      [
        'a PIN code that is not 6 digits',
        checkout({ deliveryType: 'physical', address: { ...ADDRESS, zip: '6820' } }),
        'Please enter a valid 6-digit PIN code',
      ],
      ['a missing name', { ...checkout(), fullName: undefined }, 'body field "fullName" is required'],
      ['a bad e-mail', checkout({ email: 'not-an-email' }), 'body field "email" must be a valid email'],
      ['a bad phone', checkout({ phone: 'call me' }), 'body field "phone" has an invalid format'],
      ['an unknown delivery type', checkout({ deliveryType: 'drone' }), 'body field "deliveryType" must be one of: digital, physical'],
      ['an unknown field', checkout({ status: 'paid' }), 'body field "status" is not allowed'],
      ['a malformed book id', checkout({ book: 'abc' }), 'body field "book" must be a valid id'],
    ])('refuses %s with 400 and creates nothing', async (_label, body, message) => {
      const before = await h.database.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const res = await initiate(JSON.parse(JSON.stringify(body)));
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
      const after = await h.database.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    });

    it('does not sell a book no Persona of which could be printed (409, nothing written)', async () => {
      const before = await h.database.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const res = await initiate(checkout({ book: UNPRINTABLE_BOOK.id }));
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'BOOK_NOT_PRINTABLE',
        message: 'This book cannot be personalised yet: the author has characters no Persona can print: “李” (U+674E), “白” (U+767D)',
      });
      const after = await h.database.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    });

    it('answers 404 for a book the catalogue does not have', async () => {
      const res = await initiate(checkout({ book: randomUUID() }));
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Book not found');
    });
  });

  describe('verify and webhooks', () => {
    it('verifies a correctly signed payment once: paid, one order.paid, persona id answered', async () => {
      const { orderId, razorpayOrderId } = (await initiate(checkout())).json().data;
      const paymentId = 'pay_ABCDEFGHIJKLMN';
      const body = {
        orderId,
        razorpayOrderId,
        razorpayPaymentId: paymentId,
        razorpaySignature: paymentSignature(razorpayOrderId, paymentId, TEST_MODE_KEYS.keySecret),
        amount: 349.5,
        status: 'successful',
        method: 'Razorpay',
        currency: 'INR',
        email: 'zoe@example.com',
        phone: '+91 98765 43210',
        payerName: 'Zoë Ünal',
        paymentResponse: { razorpay_payment_id: paymentId },
      };
      const res = await inject({ method: 'POST', url: '/api/payments/verify', payload: body });
      expect(res.statusCode).toBe(200);
      const row = await orderRow(orderId);
      // The buyer who proved the payment gets their receipt: what they bought and paid, where the e-mail went.
      expect(res.json()).toEqual({
        data: {
          personaId: row.persona_id,
          orderId,
          receipt: {
            book: { title: 'Gitanjali', author: 'Rabindranath Tagore' },
            deliveryType: 'digital',
            amountPaid: 349.5,
            breakdown: { base: 349.5, printing: 0, delivery: 0 },
            email: 'zoe@example.com',
            address: null,
            paidAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
            gift: null,
          },
        },
        message: 'Payment verified successfully',
      });
      expect(row).toMatchObject({ payment_status: 'paid', persona_status: 'generating', razorpay_payment_id: paymentId, paid_via: 'verify' });
      expect((await inject({ method: 'POST', url: '/api/payments/verify', payload: body })).statusCode).toBe(200);
      const events = await paidEvents(orderId);
      expect(events).toHaveLength(1);
      expect(events[0].payload).toMatchObject({
        orderId,
        personaId: row.persona_id,
        bookId: BOOK.id,
        buyerName: 'Zoë Ünal',
        deliveryType: 'digital',
        amountPaise: 34950,
      });
      expect(events[0].payload.purchaseDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    });

    it.each([
      ['a forged signature', (o: string, _r: string) => ({ razorpaySignature: 'ab'.repeat(32), razorpayOrderId: _r, orderId: o })],
      [
        'a signature for another Razorpay order',
        (o: string) => ({
          razorpayOrderId: 'order_OTHERORDER1234',
          razorpaySignature: paymentSignature('order_OTHERORDER1234', 'pay_X', TEST_MODE_KEYS.keySecret),
          orderId: o,
        }),
      ],
      [
        'a signature made with another secret',
        (o: string, r: string) => ({ razorpayOrderId: r, razorpaySignature: paymentSignature(r, 'pay_X', 'wrong-secret'), orderId: o }),
      ],
    ])('refuses %s with 400 "Payment verification failed" and changes nothing', async (_label, make) => {
      const { orderId, razorpayOrderId } = (await initiate(checkout())).json().data;
      const res = await inject({ method: 'POST', url: '/api/payments/verify', payload: { razorpayPaymentId: 'pay_X', ...make(orderId, razorpayOrderId) } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Payment verification failed');
      expect((await orderRow(orderId)).payment_status).toBe('created');
      expect(await paidEvents(orderId)).toHaveLength(0);
    });

    it('pays an order from the webhook alone (the tab was closed)', async () => {
      const { orderId, razorpayOrderId, amount } = (await initiate(checkout())).json().data;
      const webhook = signedWebhook('payment.captured', razorpayOrderId, amount);
      const res = await sendWebhook(webhook);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'accepted' });
      expect(await outcomeOf(webhook)).toBe('paid');
      expect((await orderRow(orderId)).payment_status).toBe('paid');
      expect(await paidEvents(orderId)).toHaveLength(1);
    });

    it('carries the checkout’s correlation id in order.paid, even when the webhook (its own request) pays the order', async () => {
      const started = await inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout(), headers: { 'x-correlation-id': 'checkout-corr-1' } });
      const { orderId, razorpayOrderId, amount } = started.json().data;
      expect(started.headers['x-correlation-id']).toBe('checkout-corr-1');
      await sendWebhook(signedWebhook('payment.captured', razorpayOrderId, amount));
      const events = (await paidEvents(orderId)) as Array<{ correlationId?: string }>;
      expect(events.map((e) => e.correlationId)).toEqual(['checkout-corr-1']);
    });

    it('gives one paid transition for the same webhook three times plus a verify, in any order', async () => {
      const { orderId, razorpayOrderId, amount } = (await initiate(checkout())).json().data;
      const paymentId = 'pay_SAMEPAYMENT123';
      const webhook = signedWebhook('payment.captured', razorpayOrderId, amount, paymentId);
      const verify = {
        orderId,
        razorpayOrderId,
        razorpayPaymentId: paymentId,
        razorpaySignature: paymentSignature(razorpayOrderId, paymentId, TEST_MODE_KEYS.keySecret),
      };
      const answers = await Promise.all([
        sendWebhook(webhook),
        inject({ method: 'POST', url: '/api/payments/verify', payload: verify }),
        sendWebhook(webhook),
        sendWebhook(signedWebhook('order.paid', razorpayOrderId, amount, paymentId)),
        sendWebhook(webhook),
      ]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
      expect(answers.filter((a) => a.json().status === 'duplicate')).toHaveLength(2);
      expect(await paidEvents(orderId)).toHaveLength(1);
    });

    it('never moves back from paid, and a failure before payment is recorded', async () => {
      const { orderId, razorpayOrderId, amount } = (await initiate(checkout())).json().data;
      await sendWebhook(signedWebhook('payment.failed', razorpayOrderId, amount));
      expect((await orderRow(orderId)).payment_status).toBe('failed');
      await sendWebhook(signedWebhook('payment.captured', razorpayOrderId, amount));
      await sendWebhook(signedWebhook('payment.failed', razorpayOrderId, amount));
      expect((await orderRow(orderId)).payment_status).toBe('paid');
      const attempts = await h.database.db.selectFrom('payment_attempts').select('outcome').where('order_id', '=', orderId).orderBy('id').execute();
      expect(attempts.map((a) => a.outcome)).toEqual(['failed', 'paid', 'failed']);
    });

    it('has the reconciler ask at once about a payment only authorised (captured then), and a paid order asks no more once captured', async () => {
      const { orderId, razorpayOrderId, amount } = (await initiate(checkout())).json().data;
      const made = await orderRow(orderId);
      // Initiation: first asked two minutes after the order was made.
      expect(made.payment_check_at!.getTime() - made.created_at.getTime()).toBeGreaterThanOrEqual(119_000);
      const before = Date.now();
      const authorized = signedWebhook('payment.authorized', razorpayOrderId, amount);
      expect((await sendWebhook(authorized)).json()).toEqual({ status: 'accepted' });
      expect(await outcomeOf(authorized)).toBe('recorded');
      const authorised = await orderRow(orderId);
      expect(authorised.payment_status).toBe('attempted');
      expect(authorised.payment_check_at!.getTime()).toBeLessThanOrEqual(Date.now());
      expect(authorised.payment_check_at!.getTime()).toBeGreaterThanOrEqual(before - 5_000);
      await sendWebhook(signedWebhook('payment.captured', razorpayOrderId, amount));
      expect(await orderRow(orderId)).toMatchObject({ payment_status: 'paid', payment_check_at: null });
    });

    it("asks no more about a verified order's payment once its capture's webhook comes", async () => {
      const { orderId, razorpayOrderId, amount } = (await initiate(checkout())).json().data;
      const paymentId = `pay_${randomUUID().replace(/-/g, '').slice(0, 14)}`;
      await inject({ method: 'POST', url: '/api/payments/verify', payload: verifyBody(orderId, razorpayOrderId, paymentId) });
      // The browser's proof is of an authorisation: the reconciler is to see the capture.
      expect((await orderRow(orderId)).payment_check_at).not.toBeNull();
      const captured = signedWebhook('payment.captured', razorpayOrderId, amount, paymentId);
      await sendWebhook(captured);
      expect(await outcomeOf(captured)).toBe('already-paid');
      expect(await orderRow(orderId)).toMatchObject({ payment_status: 'paid', paid_via: 'verify', payment_check_at: null });
    });

    it('does not pay when the captured amount is not the order amount', async () => {
      const { orderId, razorpayOrderId } = (await initiate(checkout())).json().data;
      const short = signedWebhook('payment.captured', razorpayOrderId, 100);
      expect((await sendWebhook(short)).json()).toEqual({ status: 'accepted' });
      expect(await outcomeOf(short)).toBe('recorded');
      expect((await orderRow(orderId)).payment_status).toBe('created');
    });

    it.each([
      [
        'a forged signature',
        (w: { body: string; headers: Record<string, string> }) => ({ ...w, headers: { ...w.headers, 'x-razorpay-signature': 'ab'.repeat(32) } }),
      ],
      [
        'no signature',
        (w: { body: string; headers: Record<string, string> }) => ({ ...w, headers: { 'content-type': 'application/json', 'x-razorpay-event-id': 'evt_x' } }),
      ],
      ['a body changed after signing', (w: { body: string; headers: Record<string, string> }) => ({ ...w, body: w.body.replace('"amount":', '"amount": ') })],
    ])('refuses a webhook with %s (400) and changes nothing', async (_label, tamper) => {
      const { orderId, razorpayOrderId, amount } = (await initiate(checkout())).json().data;
      const res = await sendWebhook(tamper(signedWebhook('payment.captured', razorpayOrderId, amount)));
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Invalid webhook signature');
      expect((await orderRow(orderId)).payment_status).toBe('created');
    });
  });

  describe('test-mode payments through the stand-in', () => {
    it('hands the browser a payment that verifies, and its webhook pays the order even without verify', async () => {
      const { orderId, razorpayOrderId } = (await initiate(checkout())).json().data;
      const res = await inject({ method: 'POST', url: '/api/payments/test-mode/pay', payload: { razorpayOrderId, outcome: 'success' } });
      expect(res.statusCode).toBe(200);
      const paid = res.json().data;
      expect(paid.razorpay_signature).toBe(paymentSignature(razorpayOrderId, paid.razorpay_payment_id, TEST_MODE_KEYS.keySecret));
      for (let i = 0; i < 50 && (await orderRow(orderId)).payment_status !== 'paid'; i += 1) await new Promise((r) => setTimeout(r, 50));
      expect((await orderRow(orderId)).payment_status).toBe('paid');
      expect(await paidEvents(orderId)).toHaveLength(1);
    });

    it("declines with checkout.js's payment.failed shape and records the failure", async () => {
      const { orderId, razorpayOrderId } = (await initiate(checkout())).json().data;
      const res = await inject({ method: 'POST', url: '/api/payments/test-mode/pay', payload: { razorpayOrderId, outcome: 'failure' } });
      expect(res.json().data.error).toMatchObject({ code: 'BAD_REQUEST_ERROR', reason: 'payment_failed', metadata: { order_id: razorpayOrderId } });
      for (let i = 0; i < 50 && (await orderRow(orderId)).payment_status !== 'failed'; i += 1) await new Promise((r) => setTimeout(r, 50));
      expect((await orderRow(orderId)).payment_status).toBe('failed');
    });

    it('answers 404 for an unknown Razorpay order and 400 for a malformed one', async () => {
      expect(
        (await inject({ method: 'POST', url: '/api/payments/test-mode/pay', payload: { razorpayOrderId: 'order_AAAAAAAAAAAAAA', outcome: 'success' } }))
          .statusCode,
      ).toBe(404);
      expect((await inject({ method: 'POST', url: '/api/payments/test-mode/pay', payload: { razorpayOrderId: 'nope', outcome: 'success' } })).statusCode).toBe(
        400,
      );
    });
  });
}

// Routes, not the database: once, on PostgreSQL where it answers (the repositories' suites run on both).
describeOnOneDatabase('payments', contract);
