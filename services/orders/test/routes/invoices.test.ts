// A paid order's tax invoice (issue 23): issued with the confirmation e-mail (which names it),
// its PDF served to the Persona ID's holder and to an administrator, the buyer's state the place
// of supply (IGST across states, CGST + SGST within the shop's own), nothing for an unpaid order.
import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { shopDate } from '@persona/contracts';
import { sql } from '@persona/db';
import { describeOnOneDatabase, popplerPageTexts } from '@persona/test-kit';
import { financialYearLabel, financialYearOf } from '../../src/modules/invoices/invoice-number';
import { DEFAULT_SELLER, invoiceSettings } from '../../src/modules/invoices/order-invoice';
import { ADDRESS, checkout, issuedInvoice, paidOrder, startOrdersHarness, type OrdersHarness } from '../support';

function contract(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrdersHarness(kind);
  });
  afterAll(() => h.close());

  const inject = (opts: InjectOptions) => h.service.app.inject(opts);
  const invoice = (id: string, headers: Record<string, string> = {}) => inject({ method: 'GET', url: `/api/orders/${id}/invoice`, headers });
  const issued = (id: string) => issuedInvoice(h, id);
  const text = async (pdf: Buffer) => (await popplerPageTexts(new Uint8Array(pdf), 'layout')).join('\n');
  const year = financialYearLabel(financialYearOf(new Date()));

  it("issues a printed copy's invoice to another state (IGST, the printed book exempt) and names it in the receipt", async () => {
    const { orderId, personaId } = await paidOrder(h, checkout({ deliveryType: 'physical', address: ADDRESS, state: '32' }));
    const res = await issued(personaId);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const pdf = await text(res.rawPayload);
    const number = new RegExp(`PB/${year}/\\d{6}`).exec(pdf)?.[0];
    expect(number).toBeDefined();
    expect(res.headers['content-disposition']).toBe(`inline; filename="${number!.replace(/\//g, '-')}.pdf"`);
    expect(pdf).toContain(DEFAULT_SELLER.gstin);
    expect(pdf).toMatch(/Kerala \(32\)/);
    expect(pdf).toMatch(/inter-state/);
    expect(pdf).toContain('4901');
    expect(pdf).toContain(personaId);
    // The administrator gets the same document by order id.
    const byAdmin = await invoice(orderId, h.admin);
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.rawPayload.equals(res.rawPayload)).toBe(true);
    // The receipt names it, with its link.
    const { rows } = await sql<{ text_body: string }>`SELECT text_body FROM emails WHERE order_id = ${orderId} AND kind = 'order-confirmed'`.execute(
      h.database.db,
    );
    expect(rows[0]!.text_body).toContain(`${number}: https://shop.example/api/orders/${personaId}/invoice`);
  });

  it("bills a printed gift to its buyer and names its recipient and their address under 'Shipped to' (issue 24)", async () => {
    const address = { ...ADDRESS, name: 'Meera Nair', phone: '+91 94470 12345', line2: 'Marine Drive', landmark: 'Near the jetty' };
    const gift = { recipientName: 'Meera Nair', deliverOn: shopDate(new Date(), -30) };
    const { personaId } = await paidOrder(h, checkout({ fullName: 'Arjun Menon', deliveryType: 'physical', address, gift }));
    const pdf = await text((await issued(personaId)).rawPayload);
    const lines = pdf.split('\n').map((line) => line.trim());
    const billed = lines.findIndex((line) => line.startsWith('Billed to'));
    const shipped = lines.findIndex((line) => line.startsWith('Shipped to'));
    expect(lines[billed + 1]).toMatch(/^Arjun Menon/);
    // The buyer's block has no address: the one on file is the recipient's.
    expect(shipped).toBe(billed + 2);
    expect(lines.slice(shipped + 1, shipped + 7).map((line) => line.replace(/ Order: \S+$/, ''))).toEqual([
      'Meera Nair',
      '12 MG Road',
      'Marine Drive',
      'Near the jetty',
      'Kochi 682001',
      'Kerala, India',
    ]);
    // Never the recipient's phone on a tax document.
    expect(pdf).not.toContain('94470');
  });

  it("taxes an e-book bought without a state in the shop's own state (CGST + SGST at 2.5% each)", async () => {
    const { personaId } = await paidOrder(h);
    const pdf = await text((await issued(personaId)).rawPayload);
    expect(pdf).toMatch(/Karnataka \(29\)/);
    expect(pdf).toMatch(/intra-state/);
    expect(pdf).toContain('9984');
    expect(pdf).toMatch(/CGST/);
    expect(pdf).toMatch(/SGST/);
  });

  it('numbers invoices one after another', async () => {
    const numbers: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { personaId } = await paidOrder(h);
      const pdf = await text((await issued(personaId)).rawPayload);
      numbers.push(Number(new RegExp(`PB/${year}/(\\d{6})`).exec(pdf)![1]));
    }
    expect(numbers).toEqual([numbers[0], numbers[0]! + 1, numbers[0]! + 2]);
  });

  it('has none for an unpaid order, refuses an order id without a token, and a state that is not one', async () => {
    const started = (await inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout() })).json().data;
    const row = await h.database.db.selectFrom('orders').select('persona_id').where('id', '=', started.orderId).executeTakeFirstOrThrow();
    const none = await invoice(row.persona_id);
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe('An order has a tax invoice once it is paid');
    expect((await invoice(started.orderId)).statusCode).toBe(401);
    expect((await invoice('PRS-NOPE')).statusCode).toBe(400);
    const bad = await inject({ method: 'POST', url: '/api/payments/initiate', payload: checkout({ state: '99' }) });
    expect(bad.statusCode).toBe(400);
    expect((await invoice(randomUUID(), h.admin)).statusCode).toBe(404);
  });
}

describe('invoice settings', () => {
  it('refuses a GSTIN that is not one, and takes a prefix and address lines', () => {
    expect(() => invoiceSettings({ ...DEFAULT_SELLER, gstin: '29AAACP1234A1Z2' })).toThrow(/not a valid GSTIN/);
    const settings = invoiceSettings({ ...DEFAULT_SELLER, gstin: DEFAULT_SELLER.gstin.toLowerCase(), prefix: 'PBK' });
    expect(settings.seller.gstin).toBe(DEFAULT_SELLER.gstin);
    expect(settings.seller.addressLines).toEqual(['4th Floor, 80 Feet Road, Koramangala', 'Bengaluru 560034, Karnataka']);
    expect(settings.series.prefix).toBe('PBK');
    expect(() => invoiceSettings({ ...DEFAULT_SELLER, prefix: 'PB//' })).toThrow(/prefix/);
  });
});

// Routes, not the database: once, on PostgreSQL where it answers (the repositories' suites run on both).
describeOnOneDatabase('invoices', contract);
