import type { InjectOptions } from 'fastify';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createEvent, createUnitOfWork } from '@persona/bus';
import { sql } from 'kysely';
import { describeOnOneDatabase, mintAdminToken, unsignedToken } from '@persona/test-kit';
import { applyPersonaEvent } from '../../src/modules/orders/persona-events';
import { reconcileUnpaidOrders } from '../../src/modules/payments/reconcile-payments';
import type { PaymentProvider } from '../../src/modules/payment-provider/payment-provider';
import { SALES_CHART_DAYS, SHOP_UTC_OFFSET, shopDate, type OrderSummary } from '@persona/contracts';
import { ADDRESS, checkout, outboxEvents, paidOrder as paidOrderIn, startOrdersHarness, type OrdersHarness } from '../support';

const SHOP = { publicUrl: 'https://shop.example', supportEmail: 'help@shop.example' };

describeOnOneDatabase('orders', (kind) => {
  let h: OrdersHarness;
  beforeAll(async () => {
    // The relay a minute ahead: the confirmation, due a minute after payment, goes at the next drain.
    h = await startOrdersHarness(kind, { lookupsPerMinute: 1000, mailNow: () => new Date(Date.now() + 61_000) });
  });
  afterAll(() => h.close());

  const inject = (opts: InjectOptions) => h.service.app.inject(opts);

  const paidOrder = (body: object = checkout()) => paidOrderIn(h, body);

  describe('the public lookup by persona id', () => {
    it('answers only what /send-persona shows, whatever case or dashes were typed', async () => {
      const { personaId } = await paidOrder(checkout({ deliveryType: 'physical', address: ADDRESS }));
      const typed = personaId.toLowerCase().replace(/-/g, '');
      const res = await inject({ url: `/api/orders/${typed}` });
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data).toEqual({
        personaId,
        book: { _id: expect.stringMatching(/^[0-9a-f-]{36}$/), title: 'Gitanjali', author: 'Rabindranath Tagore' },
        deliveryType: 'physical',
        deliveryStatus: 'pending',
        paymentStatus: 'paid',
        personaStatus: 'generating',
        personalizedPdfUrl: null,
        downloads: [],
        createdAt: expect.any(String),
        paidAt: expect.any(String),
        shipment: null,
        gift: false,
        deliverOn: null,
        refundedAt: null,
      });
      expect(res.body).not.toMatch(/zoe@example.com|98765|MG Road|682001/);
    });

    it('still answers a buyer whose browser sends a stale admin token, showing only the public part', async () => {
      const { personaId } = await paidOrder();
      const res = await inject({ url: `/api/orders/${personaId}`, headers: { authorization: `Bearer ${unsignedToken()}` } });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).not.toHaveProperty('email');
    });

    it('answers 400 for something that cannot be a persona id and 404 for an unknown one', async () => {
      const bad = await inject({ url: '/api/orders/not-a-persona' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('That is not a valid Persona ID');
      const unknown = await inject({ url: '/api/orders/PRS-0000-0000-0000-0000' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe('No Persona has this ID');
    });

    it('is rate limited per client', async () => {
      const limited = await startOrdersHarness(kind, { lookupsPerMinute: 3 });
      const codes = [];
      for (let i = 0; i < 4; i += 1) codes.push((await limited.service.app.inject({ url: '/api/orders/PRS-0000-0000-0000-0000' })).statusCode);
      expect(codes).toEqual([404, 404, 404, 429]);
      await limited.close();
    });

    it('keys the limit by the client the gateway forwards, not by the gateway itself', async () => {
      const limited = await startOrdersHarness(kind, { lookupsPerMinute: 2 });
      const lookup = (client: string) => limited.service.app.inject({ url: '/api/orders/PRS-0000-0000-0000-0000', headers: { 'x-forwarded-for': client } });
      const guesser = [];
      for (let i = 0; i < 3; i += 1) guesser.push((await lookup('203.0.113.7')).statusCode);
      expect(guesser).toEqual([404, 404, 429]);
      // Another visitor behind the same gateway still gets an answer.
      expect((await lookup('198.51.100.20')).statusCode).toBe(404);
      await limited.close();
    });
  });

  describe('for administrators', () => {
    it('shows the whole order by either id', async () => {
      const { orderId, personaId } = await paidOrder();
      for (const id of [orderId, personaId]) {
        const res = await inject({ url: `/api/orders/${id}`, headers: h.admin });
        expect(res.json().data).toMatchObject({ _id: orderId, personaId, email: 'zoe@example.com', amount: 349.5, paymentStatus: 'paid' });
      }
      expect((await inject({ url: `/api/orders/${orderId}`, headers: { authorization: 'Bearer forged' } })).statusCode).toBe(401);
    });

    it('keeps the lookup by order id for administrators, checking the token before the id', async () => {
      const { orderId } = await paidOrder();
      const anonymous = await inject({ url: `/api/orders/${orderId}` });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().message).toMatch(/^Authentication required: only an administrator can look an order up by its order id/);
      expect(anonymous.body).not.toContain('zoe@example.com');
      const forged = await inject({ url: `/api/orders/${orderId}`, headers: { authorization: 'Bearer forged' } });
      expect(forged.statusCode).toBe(401);
      expect(forged.json().message).toBe('Invalid admin token');
      // Anything that is not an order id is the public lookup, where a stale token is ignored.
      const tooLong = await inject({ url: `/api/orders/${'x'.repeat(61)}`, headers: { authorization: 'Bearer forged' } });
      expect(tooLong.statusCode).toBe(400);
    });

    it('lists with filters, search and paging', async () => {
      await paidOrder(checkout({ fullName: 'Ananya Rao', email: 'ananya@example.com', deliveryType: 'physical', address: ADDRESS }));
      const all = (await inject({ url: '/api/orders?limit=2', headers: h.admin })).json();
      expect(all.data).toHaveLength(2);
      expect(all.meta.total).toBeGreaterThanOrEqual(3);
      const search = (await inject({ url: '/api/orders?search=ANANYA', headers: h.admin })).json().data;
      expect(search.map((o: { fullName: string }) => o.fullName)).toEqual(['Ananya Rao']);
      const physical = (await inject({ url: '/api/orders?deliveryType=physical', headers: h.admin })).json().data;
      expect(physical.every((o: { deliveryType: string }) => o.deliveryType === 'physical')).toBe(true);
      expect((await inject({ url: '/api/orders', headers: {} })).statusCode).toBe(401);
      expect((await inject({ url: '/api/orders?status=lost', headers: h.admin })).json().message).toBe(
        'query field "status" must be one of: pending, shipped, delivered, cancelled',
      );
      // Dates PostgreSQL cannot take are refused up front, not a 500.
      for (const field of ['from', 'to']) {
        const res = await inject({ url: `/api/orders?${field}=0000-01-01`, headers: h.admin });
        expect({ status: res.statusCode, message: res.json().message }).toEqual({
          status: 400,
          message: `query field "${field}" must be a date from 1900-01-01 on`,
        });
      }
    });

    it("changes a printed copy's delivery status with an event, and refuses bad values", async () => {
      const { orderId } = await paidOrder(checkout({ deliveryType: 'physical', address: ADDRESS }));
      const res = await inject({ method: 'PATCH', url: `/api/orders/${orderId}/status`, payload: { deliveryStatus: 'shipped' }, headers: h.admin });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ data: { deliveryStatus: 'shipped' }, message: 'Delivery status updated' });
      const changes = (await outboxEvents(h.database)).filter((e) => e.type === 'order.delivery_status_changed' && e.payload.orderId === orderId);
      expect(changes.map((e) => [e.payload.from, e.payload.to])).toEqual([['pending', 'shipped']]);
      const bad = await inject({ method: 'PATCH', url: `/api/orders/${orderId}/status`, payload: { deliveryStatus: 'lost' }, headers: h.admin });
      expect(bad.statusCode).toBe(400);
      const forged = await inject({
        method: 'PATCH',
        url: `/api/orders/${orderId}/status`,
        payload: { deliveryStatus: 'delivered', paymentStatus: 'failed' },
        headers: h.admin,
      });
      expect(forged.statusCode).toBe(400);
      expect((await inject({ method: 'PATCH', url: `/api/orders/${orderId}/status`, payload: { deliveryStatus: 'delivered' } })).statusCode).toBe(401);
      expect((await inject({ url: `/api/orders/${orderId}`, headers: h.admin })).json().data.deliveryStatus).toBe('shipped');
    });

    it('a digital order has no delivery status: a change is refused and changes nothing', async () => {
      const { orderId } = await paidOrder();
      const res = await inject({ method: 'PATCH', url: `/api/orders/${orderId}/status`, payload: { deliveryStatus: 'shipped' }, headers: h.admin });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('A digital order has no delivery status');
      expect((await inject({ url: `/api/orders/${orderId}`, headers: h.admin })).json().data).toMatchObject({ deliveryStatus: 'pending', shipment: null });
      expect((await outboxEvents(h.database)).filter((e) => e.type === 'order.delivery_status_changed' && e.payload.orderId === orderId)).toEqual([]);
    });

    it('shipping records the carrier and tracking number; each change e-mails the buyer once, never twice', async () => {
      const { orderId, personaId } = await paidOrder(checkout({ deliveryType: 'physical', address: ADDRESS }));
      const patch = (payload: object) => inject({ method: 'PATCH', url: `/api/orders/${orderId}/status`, payload, headers: h.admin });
      // A carrier goes only with "shipped"; bad tracking text is refused; neither changes anything.
      expect((await patch({ deliveryStatus: 'delivered', carrier: 'India Post' })).json().message).toBe(
        'A carrier and a tracking number go only with a shipped order',
      );
      expect((await patch({ deliveryStatus: 'shipped', trackingNumber: '<script>' })).statusCode).toBe(400);
      expect((await inject({ url: `/api/orders/${orderId}`, headers: h.admin })).json().data.deliveryStatus).toBe('pending');

      const shipped = await patch({ deliveryStatus: 'shipped', carrier: ' India Post ', trackingNumber: 'EE123456789IN' });
      expect(shipped.json().data.shipment).toEqual({ carrier: 'India Post', trackingNumber: 'EE123456789IN', shippedAt: expect.any(String) });
      // The buyer's page shows it too.
      expect((await inject({ url: `/api/orders/${personaId}` })).json().data.shipment).toMatchObject({
        carrier: 'India Post',
        trackingNumber: 'EE123456789IN',
      });
      await patch({ deliveryStatus: 'shipped', carrier: 'India Post', trackingNumber: 'EE123456789IN' });
      await patch({ deliveryStatus: 'delivered' });
      await patch({ deliveryStatus: 'shipped' });
      await patch({ deliveryStatus: 'delivered' });
      await patch({ deliveryStatus: 'cancelled' });
      await h.service.drainMail();
      const { rows } = await sql<{
        kind: string;
        text_body: string;
      }>`SELECT kind, text_body FROM emails WHERE order_id = ${orderId} ORDER BY created_at`.execute(h.database.db);
      // One of each: the confirmation is written when the payment's event is handled, which on PostgreSQL
      // may come after the administrator's changes; the changes' own e-mails follow their order.
      expect(rows.map((r) => r.kind).filter((k) => k !== 'order-confirmed')).toEqual(['shipped', 'delivered', 'cancelled']);
      expect(rows.filter((r) => r.kind === 'order-confirmed')).toHaveLength(1);
      const mail = (of: string) => rows.find((r) => r.kind === of)!.text_body;
      expect(mail('shipped')).toMatch(/Carrier: +India Post/);
      expect(mail('shipped')).toMatch(/Tracking number: +EE123456789IN/);
      expect(mail('cancelled')).toContain('printing and delivery fees');
    });

    it('lists paid printed copies for the printer and courier (dispatch-list.csv), for administrators only', async () => {
      const printed = await paidOrder(checkout({ deliveryType: 'physical', address: ADDRESS, fullName: 'Dispatch Düsseldorf' }));
      await paidOrder(checkout({ fullName: 'Dispatch Digital' }));
      await inject({
        method: 'POST',
        url: '/api/payments/initiate',
        payload: checkout({ deliveryType: 'physical', address: ADDRESS, fullName: 'Dispatch Unpaid' }),
      });
      const res = await inject({ url: '/api/orders/dispatch-list?search=Dispatch', headers: h.admin });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toBe('attachment; filename="dispatch-list.csv"');
      expect(res.headers['cache-control']).toBe('no-store');
      const lines = res.body.trim().split('\r\n');
      expect(lines[0]).toBe('Persona ID,Ship by,Name,Phone,Address,Book,Amount,Date,Interior PDF,Cover PDF');
      // Only the paid printed copy; a phone's leading "+" is kept from being read as a formula. No
      // INTERNAL_TOKEN here: no links to the print files (the e2e admin journey follows them).
      expect(lines.slice(1)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^${printed.personaId},\\d{4}-\\d\\d-\\d\\d,Dispatch Düsseldorf,'\\+91 98765 43210,"[^"]+",Gitanjali,\\d+\\.\\d\\d,\\d{4}-\\d\\d-\\d\\d,,$`,
          ),
        ),
      ]);
      expect((await inject({ url: '/api/orders/dispatch-list' })).statusCode).toBe(401);
    });
  });

  describe('the dashboard summary', () => {
    const summary = async () => {
      const res = await inject({ url: '/api/orders/summary', headers: h.admin });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      return res.json().data as OrderSummary;
    };
    const listTotal = async (query: string) => (await inject({ url: `/api/orders?${query}`, headers: h.admin })).json().meta.total as number;
    /** Moves an order to a moment of the shop's day `daysBefore` today (India time), `minutes` after its midnight. */
    const placeOn = (orderId: string, daysBefore: number, minutes: number) => {
      const midnight = new Date(`${shopDate(new Date(), daysBefore)}T00:00:00${SHOP_UTC_OFFSET}`);
      return sql`UPDATE orders SET created_at = ${new Date(midnight.getTime() + minutes * 60_000)} WHERE id = ${orderId}`.execute(h.database.db);
    };
    const amountOf = async (orderId: string) => (await inject({ url: `/api/orders/${orderId}`, headers: h.admin })).json().data.amount as number;

    it("counts paid orders and revenue on the shop's days, and what waits for the administrator", async () => {
      const before = await summary();
      const today = await paidOrder(checkout({ deliveryType: 'physical', address: ADDRESS, fullName: 'Summary Today' }));
      const sixDaysAgo = await paidOrder(checkout({ fullName: 'Summary Six' }));
      const sevenDaysAgo = await paidOrder(checkout({ fullName: 'Summary Seven' }));
      const longAgo = await paidOrder(checkout({ fullName: 'Summary Long Ago' }));
      // Neither an unpaid checkout nor a declined one is a sale.
      await inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout({ fullName: 'Summary Unpaid' }) });
      // The first minute of the day six days back is in the last 7 days; the last minute before the seventh is not.
      await placeOn(sixDaysAgo.orderId, 6, 0);
      await placeOn(sevenDaysAgo.orderId, 6, -1);
      await placeOn(longAgo.orderId, 30, 12 * 60);
      await sql`UPDATE orders SET persona_status = 'failed', persona_error = 'font missing' WHERE id = ${sixDaysAgo.orderId}`.execute(h.database.db);

      const after = await summary();
      const [todayAmount, sixAmount, sevenAmount] = [await amountOf(today.orderId), await amountOf(sixDaysAgo.orderId), await amountOf(sevenDaysAgo.orderId)];
      const plus = (from: { orders: number; revenue: number }, orders: number, revenue: number) => ({
        orders: from.orders + orders,
        revenue: Math.round((from.revenue + revenue) * 100) / 100,
      });
      expect(after.today).toBe(shopDate(new Date()));
      expect(after.sales.today).toEqual(plus(before.sales.today, 1, todayAmount));
      expect(after.sales.last7Days).toEqual(plus(before.sales.last7Days, 2, todayAmount + sixAmount));
      expect(after.sales.last30Days).toEqual(plus(before.sales.last30Days, 3, todayAmount + sixAmount + sevenAmount));
      expect(after.awaitingDispatch).toBe(before.awaitingDispatch + 1);
      expect(after.failedPersonas).toBe(before.failedPersonas + 1);

      // Thirty days, oldest first, today last, every day present; their sum is the 30 days' total.
      expect(after.days).toHaveLength(SALES_CHART_DAYS);
      expect(after.days.at(-1)!.date).toBe(after.today);
      expect(after.days[0]!.date).toBe(shopDate(new Date(), SALES_CHART_DAYS - 1));
      expect(after.days.reduce((n, d) => n + d.orders, 0)).toBe(after.sales.last30Days.orders);
      expect(after.days.find((d) => d.date === shopDate(new Date(), 6))!.orders).toBeGreaterThanOrEqual(1);

      // Each number is the total of the list the dashboard links it to.
      expect(await listTotal(`paymentStatus=paid&from=${after.today}&to=${after.today}`)).toBe(after.sales.today.orders);
      expect(await listTotal(`paymentStatus=paid&from=${shopDate(new Date(), 6)}&to=${after.today}`)).toBe(after.sales.last7Days.orders);
      expect(await listTotal('paymentStatus=paid&deliveryType=physical&status=pending')).toBe(after.awaitingDispatch);
      expect(await listTotal('paymentStatus=paid&personaStatus=failed')).toBe(after.failedPersonas);
    });

    it('is for administrators only and takes no query', async () => {
      expect((await inject({ url: '/api/orders/summary' })).statusCode).toBe(401);
      expect((await inject({ url: '/api/orders/summary?days=365', headers: h.admin })).statusCode).toBe(400);
    });
  });

  describe('persona events', () => {
    it('lists the formats a ready Persona comes as: the PDF and, when made, the EPUB (in the lookup and the e-mail)', async () => {
      const { orderId, personaId } = await paidOrder();
      expect((await inject({ url: `/api/orders/${personaId}` })).json().data.downloads).toEqual([]);
      const ready = createEvent('persona.ready', { orderId, personaId, sha256: 'c'.repeat(64), pages: 12, formats: ['pdf', 'epub'] }, { correlationId: 'c' });
      expect(await applyPersonaEvent(h.database.db, ready, SHOP)).toBe('ready');
      expect((await inject({ url: `/api/orders/${personaId}` })).json().data.downloads).toEqual([
        { format: 'pdf', url: `/api/personas/${personaId}/download` },
        { format: 'epub', url: `/api/personas/${personaId}/download?format=epub` },
      ]);
      const { rows } = await sql<{ text_body: string }>`SELECT text_body FROM emails WHERE order_id = ${orderId} AND kind = 'persona-ready'`.execute(
        h.database.db,
      );
      expect(rows[0]!.text_body).toContain(`https://shop.example/api/personas/${personaId}/download?format=epub`);
      // A Persona made ready before EPUBs existed (no formats said) is the PDF only.
      const older = await paidOrder();
      await applyPersonaEvent(h.database.db, createEvent('persona.ready', { ...older, sha256: 'd'.repeat(64), pages: 3 }, { correlationId: 'c' }), SHOP);
      expect((await inject({ url: `/api/orders/${older.personaId}` })).json().data.downloads).toEqual([
        { format: 'pdf', url: `/api/personas/${older.personaId}/download` },
      ]);
    });

    it('confirms the payment and marks the Persona ready, e-mailing the buyer once (ready within the minute: the ready e-mail is the receipt), as text and HTML', async () => {
      const { orderId, personaId } = await paidOrder();
      const ready = createEvent('persona.ready', { orderId, personaId, sha256: 'a'.repeat(64), pages: 40 }, { correlationId: 'c' });
      expect(await applyPersonaEvent(h.database.db, ready, SHOP)).toBe('ready');
      await applyPersonaEvent(h.database.db, ready, SHOP);
      const late = createEvent('persona.failed', { orderId, personaId, reason: 'late duplicate' }, { correlationId: 'c' });
      await applyPersonaEvent(h.database.db, late, SHOP);
      const pub = (await inject({ url: `/api/orders/${personaId}` })).json().data;
      expect(pub).toMatchObject({ personaStatus: 'ready', personalizedPdfUrl: `/api/personas/${personaId}/download` });
      // The storefront sends an administrator's stored token with every call: the full order it then gets
      // carries the downloads too, as the buyer's view does.
      const full = (await inject({ url: `/api/orders/${personaId}`, headers: { authorization: `Bearer ${mintAdminToken()}` } })).json().data;
      expect(full).toMatchObject({ email: expect.any(String), downloads: pub.downloads });
      expect(pub.downloads).toEqual([{ format: 'pdf', url: `/api/personas/${personaId}/download` }]);
      await h.service.drainMail();
      const files = await readdir(h.mailDir);
      // The .eml bodies are quoted-printable: undo soft line breaks and =XX escapes.
      const decode = (qp: string) =>
        Buffer.from(
          qp.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8');
      const mails = await Promise.all(files.map(async (f) => decode(await readFile(path.join(h.mailDir, f), 'utf8'))));
      const mine = mails.filter((m) => m.includes(personaId));
      // One e-mail: the Persona ready before the confirmation was due, so the ready e-mail is the receipt (its heading; subjects are MIME-encoded).
      expect(mine.map((m) => /(Thank you for your order|Thank you: your Persona is ready|Your Persona is ready)\n/.exec(m)?.[1])).toEqual([
        'Thank you: your Persona is ready',
      ]);
      for (const mail of mine) {
        expect(mail).toContain('To: zoe@example.com');
        expect(mail).toContain('Dear Zoë Ünal,');
        expect(mail).toContain(`https://shop.example/send-persona?personaId=${personaId}`);
        expect(mail).toContain('Questions? Write to help@shop.example');
        // A plain-text part and an HTML part, saying the same.
        expect(mail).toMatch(/Content-Type: multipart\/alternative/);
        expect(mail).toMatch(/Content-Type: text\/plain/);
        expect(mail).toMatch(/Content-Type: text\/html/);
      }
      const [readyMail] = mine;
      expect(readyMail).toContain('We have received your payment of ₹349.50. This e-mail is your receipt.');
      expect(readyMail).toContain(`Download PDF: https://shop.example/api/personas/${personaId}/download`);
    });

    it('records a failed Persona with its reason', async () => {
      const { orderId, personaId } = await paidOrder();
      await applyPersonaEvent(h.database.db, createEvent('persona.failed', { orderId, personaId, reason: 'source unreadable' }, { correlationId: 'c' }), SHOP);
      const order = (await inject({ url: `/api/orders/${orderId}`, headers: h.admin })).json().data;
      expect(order).toMatchObject({ personaStatus: 'failed', personaError: 'source unreadable', personalizedPdfUrl: null });
    });
  });

  describe('retrying a failed Persona', () => {
    it("sends a failed Persona back to be made, with the order's details, and refuses otherwise", async () => {
      const { orderId, personaId } = await paidOrder();
      const retry = () => inject({ method: 'POST', url: `/api/orders/${orderId}/persona/retry`, headers: h.admin });
      expect((await retry()).statusCode).toBe(409);
      await applyPersonaEvent(h.database.db, createEvent('persona.failed', { orderId, personaId, reason: 'catalogue down' }, { correlationId: 'c' }), SHOP);
      const res = await retry();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ data: { personaStatus: 'generating', personaError: null }, message: 'The Persona is being made again' });
      const requests = (await outboxEvents(h.database)).filter((e) => e.type === 'persona.retry_requested' && e.payload.orderId === orderId);
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({ actor: { email: 'admin@example.com' } });
      expect(requests[0].payload).toMatchObject({ personaId, buyerName: 'Zoë Ünal', amountPaise: 34950 });
      expect((await inject({ method: 'POST', url: `/api/orders/${orderId}/persona/retry` })).statusCode).toBe(401);
    });
  });

  describe('the reconciler', () => {
    it('pays an unpaid order the provider says was captured, once', async () => {
      const { orderId, razorpayOrderId, amount } = (await inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout() })).json().data;
      const provider = {
        paymentsOf: async (id: string) =>
          id === razorpayOrderId ? [{ id: 'pay_RECONCILED0001', providerOrderId: id, status: 'captured', amountPaise: amount }] : [],
      } as unknown as PaymentProvider;
      const ctx = {
        db: h.database.db,
        provider,
        readBook: async () => {
          throw new Error('unused');
        },
        correlationId: 'r',
        uow: createUnitOfWork({ db: h.database.db }),
      };
      // Its first question is due two minutes after it was made.
      expect(await reconcileUnpaidOrders(ctx)).toBe(0);
      const options = { now: () => new Date(Date.now() + 3 * 60_000) };
      expect(await reconcileUnpaidOrders(ctx, options)).toBe(1);
      expect(await reconcileUnpaidOrders(ctx, options)).toBe(0);
      const order = (await inject({ url: `/api/orders/${orderId}`, headers: { authorization: `Bearer ${mintAdminToken()}` } })).json().data;
      expect(order.paymentStatus).toBe('paid');
    });
  });
});
