// The reconciler against 500 abandoned checkouts (issue 23): every unpaid order has its own due
// time, claimed with SKIP LOCKED and asked about the longest due first, so an order paid while the
// buyer's browser died (no verify, no webhook) is found within minutes of simulated time, however
// many abandoned checkouts came before it; an abandoned one is asked less and less often.
import { randomBytes } from 'node:crypto';
import { createUnitOfWork } from '@persona/bus';
import { formatPersonaId } from '@persona/contracts';
import { describeWithPostgres } from '@persona/test-kit';
import { nextPaymentCheck, PAYMENT_CHECK_SCHEDULE_MS } from '../../../src/modules/payments/payment-checks';
import type { PaymentProvider } from '../../../src/modules/payment-provider/payment-provider';
import type { PaymentsContext } from '../../../src/modules/payments/payments-context';
import { reconcileUnpaidOrders } from '../../../src/modules/payments/reconcile-payments';
import { markOrderPaid } from '../../../src/modules/payments/mark-order-paid';
import { RazorpayProvider, TEST_MODE_KEYS } from '../../../src/modules/payments/razorpay/razorpay-provider';
import { startStandIn, type StandIn } from '../../../src/modules/payments/test-mode/start-stand-in';
import { BOOK, checkout, outboxEvents, startOrdersHarness, type OrdersHarness } from '../../support';

const MINUTE = 60_000;
const ABANDONED = 500;

/** An order row for a digital copy of BOOK, as initiation writes one, with `over` on top. */
function orderValues(over: { razorpay_order_id: string; full_name: string; email: string } & Record<string, unknown>) {
  return {
    persona_id: formatPersonaId(randomBytes(10)),
    book_id: BOOK.id,
    book_title: BOOK.title,
    book_author: BOOK.author,
    phone: '+91 98765 43210',
    delivery_type: 'digital' as const,
    address: null,
    base_paise: BOOK.pricePaise,
    printing_paise: 0,
    delivery_paise: 0,
    amount_paise: BOOK.pricePaise,
    idempotency_key: null,
    request_hash: null,
    ...over,
  };
}

describe('the payment check schedule', () => {
  const made = new Date('2026-11-27T10:00:00Z');
  const at = (ms: number) => new Date(made.getTime() + ms);

  it('asks two minutes after an order is made, then less and less often, for three days', () => {
    expect(nextPaymentCheck(made, made)).toEqual(at(2 * MINUTE));
    expect(nextPaymentCheck(made, at(2 * MINUTE))).toEqual(at(5 * MINUTE));
    expect(nextPaymentCheck(made, at(5 * MINUTE))).toEqual(at(10 * MINUTE));
    expect(PAYMENT_CHECK_SCHEDULE_MS.at(-1)).toBe(72 * 60 * MINUTE);
    expect(nextPaymentCheck(made, at(72 * 60 * MINUTE))).toBeNull();
    // Every step later than the one before.
    for (let i = 1; i < PAYMENT_CHECK_SCHEDULE_MS.length; i += 1) expect(PAYMENT_CHECK_SCHEDULE_MS[i]).toBeGreaterThan(PAYMENT_CHECK_SCHEDULE_MS[i - 1]!);
  });

  it('skips the questions a stopped reconciler missed, and asks a minute apart at least', () => {
    // Stopped for a day: next asked at 48 hours, not at every step it missed.
    expect(nextPaymentCheck(made, at(24 * 60 * MINUTE))).toEqual(at(48 * 60 * MINUTE));
    // Asked 30 s before a step: that step is too close, the next one it is.
    expect(nextPaymentCheck(made, at(9.5 * MINUTE))).toEqual(at(20 * MINUTE));
  });
});

function contract(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrdersHarness(kind);
  });
  afterAll(() => h.close());

  it(`finds an order paid in silence among ${ABANDONED} abandoned checkouts within minutes, and asks about the abandoned ones less and less`, async () => {
    const t0 = Date.now();
    // Abandoned over the last hour, every one due now (the worst case: they all wait before it).
    await h.database.db
      .insertInto('orders')
      .values(
        Array.from({ length: ABANDONED }, (_, i) =>
          orderValues({
            razorpay_order_id: `order_ABANDONED${String(i).padStart(5, '0')}`,
            full_name: `Reader ${i}`,
            email: `r${i}@example.com`,
            created_at: new Date(t0 - 60 * MINUTE + i * 1000),
            payment_check_at: new Date(t0 - 10 * MINUTE + i * 1000),
          }),
        ),
      )
      .execute();
    // The buyer's checkout, made through the route as any; paid at Razorpay, but their browser died: no verify, no webhook.
    const init = (await h.service.app.inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout() })).json().data;
    const silent: string = init.razorpayOrderId;

    const asked = new Map<string, number>();
    const provider = {
      paymentsOf: async (razorpayOrderId: string) => {
        asked.set(razorpayOrderId, (asked.get(razorpayOrderId) ?? 0) + 1);
        return razorpayOrderId === silent ? [{ id: 'pay_SILENT00000001', providerOrderId: silent, status: 'captured', amountPaise: init.amount }] : [];
      },
    } as unknown as PaymentProvider;
    const ctx: PaymentsContext = {
      db: h.database.db,
      provider,
      readBook: async () => BOOK,
      correlationId: 'reconciler',
      uow: createUnitOfWork({ db: h.database.db }),
    };

    // A reconciler every simulated minute, two instances at once, each asking about at most 100
    // orders a run (a provider's rate limit): the oldest-50 reconciler never reached the order.
    let paidAtMinute: number | null = null;
    for (let minute = 1; minute <= 10; minute += 1) {
      const now = () => new Date(t0 + minute * MINUTE);
      const before = new Map(asked);
      const settled = await Promise.all([0, 1].map(() => reconcileUnpaidOrders(ctx, { now, maxPerRun: 100, batch: 25 })));
      // Two reconcilers at once never ask about the same order in the same minute.
      for (const [id, n] of asked) expect(n - (before.get(id) ?? 0)).toBeLessThanOrEqual(1);
      if (settled.reduce((a, b) => a + b, 0) > 0) paidAtMinute ??= minute;
    }

    expect(paidAtMinute).not.toBeNull();
    expect(paidAtMinute!).toBeLessThanOrEqual(10);
    const order = await h.database.db.selectFrom('orders').selectAll().where('razorpay_order_id', '=', silent).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ payment_status: 'paid', paid_via: 'reconcile', razorpay_payment_id: 'pay_SILENT00000001', payment_check_at: null });
    expect((await outboxEvents(h.database)).filter((e) => e.type === 'order.paid' && e.payload.orderId === order.id)).toHaveLength(1);
    // Every abandoned checkout was asked about, once in the ten minutes (made an hour ago, its next step is at 90 minutes).
    const abandoned = [...asked].filter(([id]) => id.startsWith('order_ABANDONED'));
    expect(abandoned).toHaveLength(ABANDONED);
    expect(Math.max(...abandoned.map(([, n]) => n))).toBe(1);
    // ...and each has its next question due later, none lost.
    const pending = await h.database.db
      .selectFrom('orders')
      .select(['payment_check_at', 'payment_checks'])
      .where('razorpay_order_id', 'like', 'order_ABANDONED%')
      .execute();
    expect(pending.every((row) => row.payment_check_at !== null && row.payment_check_at.getTime() >= t0 + 30 * MINUTE)).toBe(true);
    expect(pending.every((row) => row.payment_checks >= 1)).toBe(true);

    // Paid: never asked about again, though the others are asked on.
    expect(asked.get(silent)).toBe(1);
    expect(await reconcileUnpaidOrders(ctx, { now: () => new Date(t0 + 60 * MINUTE) })).toBe(0);
    expect(asked.get(silent)).toBe(1);
  }, 120_000);

  it("asks no more once an order's schedule is over", async () => {
    const old = new Date(Date.now() - 4 * 24 * 60 * MINUTE);
    await h.database.db
      .insertInto('orders')
      .values(
        orderValues({
          razorpay_order_id: 'order_LASTQUESTION01',
          full_name: 'Last Question',
          email: 'l@example.com',
          created_at: old,
          payment_check_at: new Date(Date.now() - MINUTE),
          payment_checks: 11,
        }),
      )
      .execute();
    const asked: string[] = [];
    const provider = { paymentsOf: async (id: string) => (asked.push(id), []) } as unknown as PaymentProvider;
    const ctx: PaymentsContext = { db: h.database.db, provider, readBook: async () => BOOK, correlationId: 'r', uow: createUnitOfWork({ db: h.database.db }) };
    await reconcileUnpaidOrders(ctx);
    expect(asked).toContain('order_LASTQUESTION01');
    const row = await h.database.db
      .selectFrom('orders')
      .select(['payment_check_at', 'payment_checks'])
      .where('razorpay_order_id', '=', 'order_LASTQUESTION01')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ payment_check_at: null, payment_checks: 12 });
    asked.length = 0;
    await reconcileUnpaidOrders(ctx, { now: () => new Date(Date.now() + 365 * 24 * 60 * MINUTE) });
    expect(asked).not.toContain('order_LASTQUESTION01');
  });
}

/**
 * An account without automatic capture: the buyer's payment is only authorised, and every webhook
 * is lost. Razorpay gives an uncaptured payment back after a few days; the reconciler captures it.
 */
function captures(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  let standIn: StandIn;
  let provider: RazorpayProvider;
  let ctx: PaymentsContext;
  beforeAll(async () => {
    h = await startOrdersHarness(kind);
    standIn = await startStandIn(TEST_MODE_KEYS, async () => {
      throw new Error('lost on the way');
    });
    provider = new RazorpayProvider('test', TEST_MODE_KEYS, standIn.url);
    ctx = { db: h.database.db, provider, readBook: async () => BOOK, correlationId: 'r', uow: createUnitOfWork({ db: h.database.db }) };
  });
  afterAll(async () => {
    await standIn.close();
    await h.close();
  });

  /** An order as initiation makes it, on this stand-in. */
  async function order(): Promise<{ id: string; razorpayOrderId: string; amount: number }> {
    const made = new Date();
    const rzp = await provider.createOrder({ amountPaise: BOOK.pricePaise, receipt: `r-${made.getTime()}`, notes: {} });
    const row = await h.database.db
      .insertInto('orders')
      .values(orderValues({ razorpay_order_id: rzp.id, payment_check_at: nextPaymentCheck(made, made), full_name: 'Asha Rao', email: 'asha@example.com' }))
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, razorpayOrderId: rzp.id, amount: BOOK.pricePaise };
  }
  const later = () => new Date(Date.now() + 3 * MINUTE);
  const statusAtProvider = async (razorpayOrderId: string) => (await provider.paymentsOf(razorpayOrderId)).map((p) => p.status);

  it('captures an authorised payment nobody told the shop of, then pays the order, once', async () => {
    const { id, razorpayOrderId } = await order();
    await standIn.pay(razorpayOrderId, 'success', { autoCapture: false });
    expect(await statusAtProvider(razorpayOrderId)).toEqual(['authorized']);
    expect(await reconcileUnpaidOrders(ctx, { now: later })).toBe(1);
    expect(await statusAtProvider(razorpayOrderId)).toEqual(['captured']);
    const row = await h.database.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ payment_status: 'paid', paid_via: 'reconcile', payment_check_at: null });
    expect(await reconcileUnpaidOrders(ctx, { now: () => new Date(Date.now() + 60 * MINUTE) })).toBe(0);
    expect((await outboxEvents(h.database)).filter((e) => e.type === 'order.paid' && e.payload.orderId === id)).toHaveLength(1);
  });

  it("captures the payment of an order the buyer's browser proved (a verify proves an authorisation only), and then asks no more", async () => {
    const { id, razorpayOrderId } = await order();
    const paid = await standIn.pay(razorpayOrderId, 'success', { autoCapture: false });
    const row = await h.database.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    await ctx.uow.run((work) => markOrderPaid(work, row, (paid as { razorpay_payment_id: string }).razorpay_payment_id, 'verify', 'c'));
    const due = await h.database.db.selectFrom('orders').select('payment_check_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(due.payment_check_at).not.toBeNull();
    expect(await reconcileUnpaidOrders(ctx, { now: later })).toBe(0);
    expect(await statusAtProvider(razorpayOrderId)).toEqual(['captured']);
    const after = await h.database.db.selectFrom('orders').select(['payment_status', 'payment_check_at']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(after).toEqual({ payment_status: 'paid', payment_check_at: null });
  });

  it('takes a payment captured meanwhile as captured (a capture whose answer was lost), and refuses a capture of another amount', async () => {
    const { razorpayOrderId } = await order();
    const paid = (await standIn.pay(razorpayOrderId, 'success', { autoCapture: false })) as { razorpay_payment_id: string };
    const first = await provider.capture(paid.razorpay_payment_id, BOOK.pricePaise);
    expect(first).toMatchObject({ id: paid.razorpay_payment_id, status: 'captured', amountPaise: BOOK.pricePaise });
    await expect(provider.capture(paid.razorpay_payment_id, BOOK.pricePaise)).resolves.toMatchObject({ status: 'captured' });

    const other = await order();
    const authorised = (await standIn.pay(other.razorpayOrderId, 'success', { autoCapture: false })) as { razorpay_payment_id: string };
    await expect(provider.capture(authorised.razorpay_payment_id, BOOK.pricePaise - 1)).rejects.toThrow(
      'Capture amount must be equal to the amount authorized',
    );
    expect(await statusAtProvider(other.razorpayOrderId)).toEqual(['authorized']);
  });
}

describe('the reconciler on PGlite', () => contract('pglite'));
describe('captures on PGlite', () => captures('pglite'));
describeWithPostgres()('captures on PostgreSQL', () => captures('postgres'));
describeWithPostgres()('the reconciler on PostgreSQL', () => contract('postgres'));
