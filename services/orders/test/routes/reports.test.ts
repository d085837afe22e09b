// The owner's monthly reports through the routes, on PGlite and PostgreSQL: administrators only, a
// month or a 400; the GST return of the month's invoices and credit notes; the settlement
// reconciliation against the test-mode stand-in's recon (its shape, its fee and settlement rule),
// and the repository's month boundaries in India's time.
import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { shopDate } from '@persona/contracts';
import { describeOnOneDatabase } from '@persona/test-kit';
import { istMidnight } from '../../src/modules/invoices/invoice-number';
import { invoicesOfMonth } from '../../src/modules/invoices/invoices.repository';
import { TEST_MODE_KEYS } from '../../src/modules/payments/razorpay/razorpay-provider';
import { SETTLEMENT_DELAY_MS } from '../../src/modules/payments/test-mode/razorpay-stand-in';
import { knownProviderIds, paymentsOfPeriod, processedRefundsOfPeriod } from '../../src/modules/reports/reports.repository';
import { checkout, startOrdersHarness, type OrdersHarness } from '../support';

const ROUTES = ['/api/orders/reports/gst-return', '/api/orders/reports/settlement', '/api/orders/reports/settlement/export'];
const ADDRESS = { line1: '12 MG Road', city: 'Kochi', zip: '682001', country: 'India' };

function contract(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrdersHarness(kind);
  });
  afterAll(() => h.close());
  afterEach(() => {
    h.service.standIn!.settlementBehaviour.delayMs = SETTLEMENT_DELAY_MS;
  });

  const inject = (opts: InjectOptions) => h.service.app.inject(opts);
  const thisMonth = () => shopDate(new Date()).slice(0, 7);
  const get = (url: string, month: string, headers: Record<string, string> = h.admin) => inject({ method: 'GET', url: `${url}?month=${month}`, headers });
  const db = () => h.database.db;

  /** An order paid at the stand-in, once its invoice is issued. */
  async function paid(over: Record<string, unknown> = {}) {
    const { orderId, razorpayOrderId } = (await inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout(over) })).json().data;
    await h.service.standIn!.pay(razorpayOrderId, 'success');
    for (let i = 0; i < 100; i += 1) {
      await h.service.drainWebhooks();
      const row = await db().selectFrom('invoices').select('number').where('order_id', '=', orderId).where('kind', '=', 'invoice').executeTakeFirst();
      if (row) {
        const order = await db().selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
        return { orderId, razorpayOrderId, invoiceNumber: row.number, order };
      }
      await new Promise((r) => setTimeout(r, 30));
    }
    throw new Error('no invoice');
  }

  /** A refund of `amountPaise`, once processed and its credit note issued. */
  async function refunded(orderId: string, amountPaise: number) {
    const refundId = randomUUID();
    expect(
      (await inject({ method: 'POST', url: `/api/orders/${orderId}/refunds`, payload: { refundId, amountPaise, reason: 'Reports test' }, headers: h.admin }))
        .statusCode,
    ).toBe(200);
    for (let i = 0; i < 100; i += 1) {
      await h.service.drainWebhooks();
      const note = await db().selectFrom('invoices').select('number').where('refund_id', '=', refundId).executeTakeFirst();
      if (note) return { refundId, creditNote: note.number };
      await new Promise((r) => setTimeout(r, 30));
    }
    throw new Error('no credit note');
  }

  it('answers administrators only, and a month that is not one, or has not begun, with a 400', async () => {
    for (const url of ROUTES) {
      expect((await get(url, thisMonth(), {})).statusCode).toBe(401);
      expect((await get(url, thisMonth(), { authorization: 'Bearer nope' })).statusCode).toBe(401);
      for (const month of ['2026-13', '2026-1', '26-11', 'november', '']) expect((await get(url, month)).statusCode).toBe(400);
      expect((await inject({ method: 'GET', url, headers: h.admin })).statusCode).toBe(400);
      expect((await inject({ method: 'GET', url: `${url}?month=${thisMonth()}&extra=1`, headers: h.admin })).statusCode).toBe(400);
      const future = await get(url, `${new Date().getUTCFullYear() + 1}-12`);
      expect(future.statusCode).toBe(400);
      expect(future.json().message).toMatch(/^December \d{4} has not begun/);
    }
  });

  it("writes the month's GST return: the invoices and credit notes issued in it, by state and rate, by HSN, and their numbers", async () => {
    const kerala = await paid({ deliveryType: 'physical', address: ADDRESS, state: '32' });
    const karnataka = await paid({ state: '29' });
    const { creditNote } = await refunded(karnataka.orderId, 10_500);
    const res = await get('/api/orders/reports/gst-return', thisMonth());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="gstr1-${thisMonth()}.csv"`);
    expect(res.headers['cache-control']).toBe('no-store');
    const csv = res.body;
    // The Kerala buyer's printed copy is exempt: an inter-state exempt supply, not a B2CS line.
    expect(csv).toMatch(/\r\nInter-State supplies to unregistered persons,0\.00,[1-9][0-9]*\.[0-9]{2},0\.00\r\n/);
    expect(csv).not.toContain('32-Kerala');
    // The Karnataka e-book: 349.50 less the credit note's 105.00 at 5% (100.00 + 5.00), CGST + SGST, with every other Karnataka e-book of the month.
    const documents = await invoicesOfMonth(db(), Number(thisMonth().slice(0, 4)), Number(thisMonth().slice(5)));
    expect(documents.map((d) => d.number)).toEqual(expect.arrayContaining([kerala.invoiceNumber, karnataka.invoiceNumber, creditNote]));
    expect(csv).toMatch(/\r\nOE,29-Karnataka,Intra State,5,[0-9]+\.[0-9]{2},0\.00,[0-9]+\.[0-9]{2},[0-9]+\.[0-9]{2},0\.00\r\n/);
    expect(csv).toMatch(/\r\n4901,"Printed books, printing, delivery \(exempt\)",NOS-NUMBERS,1,/);
    const invoices = documents.filter((d) => d.kind === 'invoice').map((d) => d.number);
    expect(csv).toContain(`\r\nInvoices for outward supply,${invoices[0]},${invoices.at(-1)},${invoices.length},0,${invoices.length}\r\n`);
    expect(csv).toContain(`\r\nCredit Note,${creditNote},${creditNote},1,0,1\r\n`);
  });

  it("serves Razorpay's recon from the stand-in: what settled by now, 2% + 18% GST fees, credit = amount − fee, a page at a time", async () => {
    const { order } = await paid();
    const recon = (query: string) =>
      fetch(`${h.service.standIn!.url}/v1/settlements/recon/combined?${query}`, {
        headers: { authorization: `Basic ${Buffer.from(`${TEST_MODE_KEYS.keyId}:${TEST_MODE_KEYS.keySecret}`).toString('base64')}` },
      });
    const [year, month] = thisMonth().split('-').map(Number);
    const settledNow = async () => ((await (await recon(`year=${year}&month=${month}&count=1000`)).json()) as { items: Array<Record<string, unknown>> }).items;
    // T+2 days: nothing of today has settled.
    expect((await settledNow()).some((i) => i.entity_id === order.razorpay_payment_id)).toBe(false);
    h.service.standIn!.settlementBehaviour.delayMs = 0;
    const item = (await settledNow()).find((i) => i.entity_id === order.razorpay_payment_id);
    expect(item).toMatchObject({
      type: 'payment',
      amount: 34_950,
      // 2% is 699; 18% GST on it 125.82, so 126; the fee includes it.
      fee: 825,
      tax: 126,
      credit: 34_125,
      debit: 0,
      currency: 'INR',
      settled: true,
      order_id: order.razorpay_order_id,
    });
    expect(item!.settlement_id).toMatch(/^setl_[A-Za-z0-9]{14}$/);
    expect(typeof item!.settled_at).toBe('number');
    const page = (await (await recon(`year=${year}&month=${month}&count=1&skip=0`)).json()) as { entity: string; count: number; items: unknown[] };
    expect(page).toMatchObject({ entity: 'collection', count: 1 });
    expect((await recon(`year=${year}`)).status).toBe(400);
    expect((await recon(`year=${year}&month=${month}&count=1001`)).status).toBe(400);
    expect((await fetch(`${h.service.standIn!.url}/v1/settlements/recon/combined?year=${year}&month=${month}`)).status).toBe(401);
  });

  it("reconciles the month's payments and refunds with the recon: matched, a second payment unknown to us, and each with its fee", async () => {
    h.service.standIn!.settlementBehaviour.delayMs = 0;
    const a = await paid();
    const { refundId } = await refunded(a.orderId, 5_000);
    const providerRefundId = (await db().selectFrom('refunds').select('provider_refund_id').where('id', '=', refundId).executeTakeFirstOrThrow())
      .provider_refund_id;
    // The buyer pays the same order again: Razorpay takes it, no order of ours is paid by it.
    await h.service.standIn!.pay(a.razorpayOrderId, 'success');
    await h.service.drainWebhooks();
    const res = await get('/api/orders/reports/settlement', thisMonth());
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const report = res.json().data;
    expect(report.month).toBe(thisMonth());
    const unknown = report.mismatches.filter((m: { status: string }) => m.status === 'unknown-to-us');
    expect(unknown).toEqual([expect.objectContaining({ type: 'payment', providerAmountPaise: 34_950, orderId: null, feePaise: 825 })]);
    expect(unknown[0].note).toContain(a.razorpayOrderId);
    expect(report.summary.mismatches).toBe(report.mismatches.length);

    const csv = await get('/api/orders/reports/settlement/export', thisMonth());
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="settlement-reconciliation-${thisMonth()}.csv"`);
    const today = shopDate(new Date());
    expect(csv.body).toContain(
      `\r\nMatched,payment,${a.order.razorpay_payment_id},${a.orderId},${a.order.persona_id},${shopDate(a.order.paid_at!)},349.50,349.50,8.25,1.26,341.25,`,
    );
    expect(csv.body).toContain(`\r\nMatched,refund,${providerRefundId},${a.orderId},${a.order.persona_id},${today},50.00,50.00,0.00,0.00,-50.00,`);
    const mismatches = csv.body.slice(csv.body.indexOf('\r\nMISMATCHES\r\n'));
    expect(mismatches).toContain(`\r\nUnknown to us,payment,${unknown[0].providerId},`);
  });

  it('counts an order in the month it was paid in India, and one Razorpay never settled as missing', async () => {
    const { orderId } = await paid();
    const [thisYear, thisMonthNumber] = thisMonth().split('-').map(Number) as [number, number];
    // The boundary between last month and the month before, not this month's: a payment a minute
    // before this month began is, early in a month, within the week Razorpay may still settle it in.
    const { year, month } = thisMonthNumber === 1 ? { year: thisYear - 1, month: 12 } : { year: thisYear, month: thisMonthNumber - 1 };
    const monthStart = istMidnight(year, month, 1);
    // Paid a minute before that month began in India (the last evening of the month before in UTC terms too).
    const lastMonthEnd = new Date(monthStart.getTime() - 60_000);
    await db().updateTable('orders').set({ paid_at: lastMonthEnd, razorpay_payment_id: 'pay_NeverSettled01' }).where('id', '=', orderId).execute();
    const previous = month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 };
    const prevStart = istMidnight(previous.year, previous.month, 1);
    expect((await paymentsOfPeriod(db(), monthStart, istMidnight(year, month + 1, 1))).map((p) => p.orderId)).not.toContain(orderId);
    expect((await paymentsOfPeriod(db(), prevStart, monthStart)).map((p) => p.orderId)).toEqual([orderId]);
    expect(await processedRefundsOfPeriod(db(), prevStart, monthStart)).toEqual([]);
    expect([...(await knownProviderIds(db(), ['pay_NeverSettled01', 'pay_nobody']))]).toEqual(['pay_NeverSettled01']);
    // More ids than one statement may carry, the known one last.
    const many = [...Array.from({ length: 70_000 }, (_, i) => `pay_nobody${i}`), 'pay_NeverSettled01'];
    expect([...(await knownProviderIds(db(), many))]).toEqual(['pay_NeverSettled01']);

    const label = `${previous.year}-${String(previous.month).padStart(2, '0')}`;
    const report = (await get('/api/orders/reports/settlement', label)).json().data;
    expect(report.summary).toMatchObject({ payments: 1, paymentsPaise: 34_950, matched: 0 });
    expect(report.mismatches).toEqual([
      expect.objectContaining({ status: 'missing-at-provider', orderId, providerId: 'pay_NeverSettled01', ourAmountPaise: 34_950, providerAmountPaise: null }),
    ]);
  });
}

// Routes, not the database: once, on PostgreSQL where it answers (the repositories' suites run on both).
describeOnOneDatabase('reports', contract);
