// Live payments need a public PUBLIC_URL (issue 24): every Persona prints it for good. With live
// Razorpay keys and a local address the shop refuses to take payments (a clear 503, nothing
// written) and the dashboard's summary says why; test mode keeps selling on a developer's machine.
import { sql } from '@persona/db';
import { describeOnOneDatabase } from '@persona/test-kit';
import { NOT_SELLING_MESSAGE } from '../../src/modules/payments/selling-refusal';
import { checkout, startOrdersHarness, type OrdersHarness } from '../support';

const LIVE = { mode: 'live' as const, keyId: 'rzp_live_AbCdEf123456', keySecret: 'live-secret', webhookSecret: 'live-webhook-secret' };

function contract(kind: 'pglite' | 'postgres') {
  const summary = async (h: OrdersHarness) => {
    const res = await h.service.app.inject({ url: '/api/orders/summary', headers: h.admin });
    expect(res.statusCode).toBe(200);
    return res.json().data as { livePaymentsRefused: string | null };
  };
  const orders = async (h: OrdersHarness) => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM orders`.execute(h.database.db)).rows[0]!.n);

  describe('live keys with a local PUBLIC_URL', () => {
    let h: OrdersHarness;
    beforeAll(async () => {
      h = await startOrdersHarness(kind, { publicUrl: 'http://localhost:8080', payments: LIVE });
    });
    afterAll(() => h.close());

    it('refuses to start a payment with a clear 503, and writes nothing', async () => {
      const before = await orders(h);
      const res = await h.service.app.inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout() });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable', message: NOT_SELLING_MESSAGE });
      expect(res.json().message).toBe('The shop is not configured to sell yet, so it cannot take payments. Please try again later.');
      expect(await orders(h)).toBe(before);
    });

    it("tells the owner why on the dashboard's summary", async () => {
      const { livePaymentsRefused } = await summary(h);
      expect(livePaymentsRefused).toContain("Live payments are refused: PUBLIC_URL is not set to the shop's public address");
      expect(livePaymentsRefused).toContain('http://localhost:8080');
      expect(livePaymentsRefused).toContain('Set PUBLIC_URL');
    });
  });

  describe('live keys with a public PUBLIC_URL', () => {
    let h: OrdersHarness;
    beforeAll(async () => {
      h = await startOrdersHarness(kind, { publicUrl: 'https://personabooks.in', payments: LIVE });
    });
    afterAll(() => h.close());

    it('sells: nothing refused', async () => {
      expect((await summary(h)).livePaymentsRefused).toBeNull();
    });
  });

  describe('test mode with a local PUBLIC_URL', () => {
    let h: OrdersHarness;
    beforeAll(async () => {
      h = await startOrdersHarness(kind, { publicUrl: 'http://localhost:8080' });
    });
    afterAll(() => h.close());

    it('keeps working on a developer machine', async () => {
      const res = await h.service.app.inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout() });
      expect(res.statusCode).toBe(200);
      expect((await summary(h)).livePaymentsRefused).toBeNull();
    });
  });
}

// Routes, not the database: once, on PostgreSQL where it answers (the repositories' suites run on both).
describeOnOneDatabase('refusing live payments', contract);
