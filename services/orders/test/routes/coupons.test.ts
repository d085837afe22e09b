// The coupon routes (issue 23): the owner's codes and their redemptions for an administrator only,
// each change once however often it is pressed and with its audit event; bad input refused with
// nothing changed; a code priced for a checkout, in public, with the discount or the reason.
import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { describeOnOneDatabase } from '@persona/test-kit';
import { couponBody } from '../modules/coupons/fixtures';
import { BOOK, checkout, outboxEvents, startOrdersHarness, UNPRINTABLE_BOOK, type OrdersHarness } from '../support';

function contract(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrdersHarness(kind);
  });
  afterAll(() => h.close());

  const inject = (opts: InjectOptions) => h.service.app.inject(opts);
  const create = (payload: object, headers: Record<string, string> = h.admin) => inject({ method: 'POST', url: '/api/coupons', payload, headers });
  const update = (id: string, payload: object, headers: Record<string, string> = h.admin) =>
    inject({ method: 'PUT', url: `/api/coupons/${id}`, payload, headers });
  const list = (headers: Record<string, string> = h.admin) => inject({ method: 'GET', url: '/api/coupons', headers });
  const price = (payload: object) => inject({ method: 'POST', url: '/api/coupons/price', payload });
  const couponEvents = async (couponId: string) =>
    (await outboxEvents(h.database)).filter((e) => e.type.startsWith('coupon.') && e.payload.couponId === couponId);
  const count = async () =>
    (
      await h.database.db
        .selectFrom('coupons')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;

  it('creates a code once however often it is pressed, in capitals, with its audit event', async () => {
    const couponId = randomUUID();
    const first = await create({ couponId, ...couponBody({ code: 'Diwali-10' }) });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ _id: couponId, code: 'DIWALI-10', percentOff: 20, used: 0, active: true });
    const again = await create({ couponId, ...couponBody({ code: 'diwali-10' }) });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(first.json().data);
    const events = await couponEvents(couponId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'coupon.created',
      payload: { code: 'DIWALI-10', offer: '20% off', active: true },
      actor: { email: 'admin@example.com' },
    });
    // Another id with the same code, whatever its case: refused.
    const taken = await create({ couponId: randomUUID(), ...couponBody({ code: 'DIWALI-10' }) });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('Another coupon already has the code DIWALI-10');
  });

  it('edits and deactivates a code; the same edit twice changes it once', async () => {
    const couponId = randomUUID();
    await create({ couponId, ...couponBody({ code: 'FLAT-100' }) });
    const edit = couponBody({ code: 'FLAT-100', percentOff: null, amountOffPaise: 10_000, minOrderPaise: 20_000, validTo: '2030-01-01T00:00:00.000Z' });
    const first = await update(couponId, edit);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ percentOff: null, amountOffPaise: 10_000, minOrderPaise: 20_000, validTo: '2030-01-01T00:00:00.000Z' });
    expect((await update(couponId, edit)).json().data).toEqual(first.json().data);
    const off = await update(couponId, { ...edit, active: false });
    expect(off.json().data.active).toBe(false);
    expect((await couponEvents(couponId)).map((e) => [e.type, e.payload.offer, e.payload.active])).toEqual([
      ['coupon.created', '20% off', true],
      ['coupon.updated', '₹100.00 off', true],
      ['coupon.updated', '₹100.00 off', false],
    ]);
    expect((await list()).json().data.find((c: { _id: string }) => c._id === couponId)).toMatchObject({ code: 'FLAT-100', active: false });
    expect((await update(randomUUID(), edit)).statusCode).toBe(404);
  });

  it('refuses bad input with a 400 and changes nothing', async () => {
    const before = await count();
    const couponId = randomUUID();
    for (const body of [
      couponBody({ code: 'has space' }),
      couponBody({ code: 'ÜBER' }),
      couponBody({ code: '-DASH' }),
      couponBody({ code: '' }),
      couponBody({ percentOff: 0 }),
      couponBody({ percentOff: 101 }),
      couponBody({ percentOff: 12.5 }),
      couponBody({ percentOff: null, amountOffPaise: 99.5 }),
      couponBody({ percentOff: 10, amountOffPaise: 1000 }),
      couponBody({ percentOff: null, amountOffPaise: null }),
      couponBody({ minOrderPaise: -1 }),
      couponBody({ totalLimit: 0 }),
      couponBody({ perEmailLimit: -2 }),
      couponBody({ bookIds: ['not-a-uuid'] }),
      couponBody({ validFrom: 'tomorrow' }),
      couponBody({ validFrom: '2030-01-02T00:00:00Z', validTo: '2030-01-01T00:00:00Z' }),
      couponBody({ used: 5 }),
    ]) {
      const res = await create({ couponId, ...body });
      expect([res.statusCode, body]).toEqual([400, body]);
    }
    expect((await create({ ...couponBody(), couponId: 'nope' })).statusCode).toBe(400);
    expect((await update('nope', couponBody())).statusCode).toBe(400);
    expect(await count()).toBe(before);
    expect(await couponEvents(couponId)).toEqual([]);
  });

  it('is for an administrator only, but for pricing a code', async () => {
    const couponId = randomUUID();
    expect((await create({ couponId, ...couponBody({ code: 'NOPE' }) }, {})).statusCode).toBe(401);
    expect((await update(couponId, couponBody(), {})).statusCode).toBe(401);
    expect((await list({})).statusCode).toBe(401);
    expect((await inject({ method: 'GET', url: `/api/coupons/${couponId}/redemptions` })).statusCode).toBe(401);
    expect((await create({ couponId, ...couponBody({ code: 'NOPE' }) }, { authorization: 'Bearer forged' })).statusCode).toBe(401);
    expect(await h.database.db.selectFrom('coupons').select('id').where('id', '=', couponId).executeTakeFirst()).toBeUndefined();
    expect((await price({ code: 'NOPE', book: BOOK.id, deliveryType: 'digital' })).statusCode).toBe(200);
  });

  it("prices a code for a checkout: the server's amounts, or the reason in words", async () => {
    await create({ couponId: randomUUID(), ...couponBody({ code: 'PRICE-20', perEmailLimit: 1 }) });
    await create({ couponId: randomUUID(), ...couponBody({ code: 'LATER', validFrom: '2099-01-01T00:00:00Z' }) });
    await create({ couponId: randomUUID(), ...couponBody({ code: 'OVER', validTo: '2020-01-01T00:00:00Z' }) });
    await create({ couponId: randomUUID(), ...couponBody({ code: 'BIG-ONLY', minOrderPaise: 40_000 }) });
    await create({ couponId: randomUUID(), ...couponBody({ code: 'OTHER-BOOK', bookIds: [UNPRINTABLE_BOOK.id] }) });
    await create({ couponId: randomUUID(), ...couponBody({ code: 'ASLEEP', active: false }) });
    const ok = await price({ code: 'price-20', book: BOOK.id, deliveryType: 'digital', email: 'zoe@example.com' });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(ok.json().data).toEqual({
      code: 'PRICE-20',
      applies: true,
      reason: null,
      message: "PRICE-20: 20% off the book's price",
      breakdown: { basePaise: 34950, printingPaise: 0, deliveryPaise: 0, discountPaise: 6990, totalPaise: 27960 },
    });
    const physical = (await price({ code: 'PRICE-20', book: BOOK.id, deliveryType: 'physical' })).json().data.breakdown;
    expect(physical).toEqual({ basePaise: 34950, printingPaise: 12000, deliveryPaise: 5000, discountPaise: 6990, totalPaise: 34950 + 12000 + 5000 - 6990 });
    for (const [code, reason, deliveryType] of [
      ['NO-SUCH', 'unknown', 'digital'],
      ['LATER', 'not-yet-valid', 'digital'],
      ['OVER', 'expired', 'digital'],
      ['BIG-ONLY', 'below-minimum', 'digital'],
      ['OTHER-BOOK', 'not-for-this-book', 'digital'],
      ['ASLEEP', 'inactive', 'digital'],
    ] as const) {
      const data = (await price({ code, book: BOOK.id, deliveryType })).json().data;
      expect([code, data.applies, data.reason, data.breakdown.discountPaise, data.breakdown.totalPaise]).toEqual([code, false, reason, 0, 34950]);
      expect(data.message.length).toBeGreaterThan(10);
    }
    // The minimum counts the whole order: a printed copy reaches it.
    expect((await price({ code: 'BIG-ONLY', book: BOOK.id, deliveryType: 'physical' })).json().data.applies).toBe(true);
    // A buyer who has used their share is told so before paying.
    const initiated = await inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout({ coupon: 'PRICE-20' }) });
    expect(initiated.statusCode).toBe(200);
    const mine = (await price({ code: 'PRICE-20', book: BOOK.id, deliveryType: 'digital', email: 'ZOE@example.com' })).json().data;
    expect([mine.reason, mine.message]).toEqual(['used-by-you', 'You have already used this code']);
    // Bad input: a 400; an unknown book: a 404.
    for (const body of [
      { code: 'bad code', book: BOOK.id, deliveryType: 'digital' },
      { code: 'PRICE-20', book: 'x', deliveryType: 'digital' },
      { code: 'PRICE-20', book: BOOK.id, deliveryType: 'drone' },
      { code: 'PRICE-20', book: BOOK.id, deliveryType: 'digital', amount: 1 },
      { code: 'PRICE-20', book: BOOK.id, deliveryType: 'digital', email: 'not an e-mail' },
    ]) {
      expect((await price(body)).statusCode).toBe(400);
    }
    expect((await price({ code: 'PRICE-20', book: randomUUID(), deliveryType: 'digital' })).statusCode).toBe(404);
  });

  it("lists a code's redemptions for an administrator", async () => {
    const couponId = randomUUID();
    await create({ couponId, ...couponBody({ code: 'SEEN' }) });
    const init = (await inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout({ coupon: 'seen', email: 'Asha@Example.com' }) })).json()
      .data;
    expect(init.breakdown).toMatchObject({ discountPaise: 6990, totalPaise: 27960 });
    expect(init.amount).toBe(27960);
    const res = await inject({ method: 'GET', url: `/api/coupons/${couponId}/redemptions`, headers: h.admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json().data).toEqual([
      expect.objectContaining({
        orderId: init.orderId,
        email: 'asha@example.com',
        discountPaise: 6990,
        state: 'reserved',
        personaId: expect.stringMatching(/^PRS-/),
      }),
    ]);
    expect((await list()).json().data.find((c: { _id: string }) => c._id === couponId).used).toBe(1);
    expect((await inject({ method: 'GET', url: `/api/coupons/${randomUUID()}/redemptions`, headers: h.admin })).statusCode).toBe(404);
  });

  it('refuses a checkout whose code does not apply, making no order, with the reason', async () => {
    await create({ couponId: randomUUID(), ...couponBody({ code: 'GONE', validTo: '2020-01-01T00:00:00Z' }) });
    const before = await h.database.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout({ coupon: 'gone' }) });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'COUPON_EXPIRED', message: 'This code has expired' });
    expect((await inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout({ coupon: 'NO-SUCH' }) })).json().code).toBe('COUPON_UNKNOWN');
    expect((await inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout({ coupon: 'bad code!' }) })).statusCode).toBe(400);
    const after = await h.database.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
}

// Routes, not the database: once, on PostgreSQL where it answers (the repositories' suites run on both).
describeOnOneDatabase('coupon routes', contract);
