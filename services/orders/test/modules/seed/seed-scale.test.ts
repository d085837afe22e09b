// The scale data set's orders, on both databases: valid rows a real checkout could have made,
// and the admin list reads them.
import { computeOrderAmount, isPersonaId } from '@persona/contracts';
import { sql } from '@persona/db';
import { describeWithPostgres } from '@persona/test-kit';
import { seedScaleOrders } from '../../../src/modules/seed/seed-scale';
import { startOrdersHarness, type OrdersHarness } from '../../support';

const BOOKS = [
  { id: '0b4f8a5e-2c1d-4e3f-9a8b-7c6d5e4f3a21', title: 'Tiffin', author: 'Meera Nair', pricePaise: 19900, printingCostPaise: 0 },
  { id: '1c5a9b6f-3d2e-4f40-8b9c-8d7e6f5a4b32', title: 'Monsoon Ledger', author: 'Ravi Rao', pricePaise: 49950, printingCostPaise: 15000 },
];

function contract(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrdersHarness(kind);
  });
  afterAll(() => h.close());

  it('adds orders a checkout could have made: amounts, statuses, ids and dates all valid', async () => {
    const made = await seedScaleOrders(h.database.db, { orders: 2000, books: BOOKS, seed: 3, batch: 700 });
    expect(made.orders).toBe(2000);
    expect(made.paid).toBeGreaterThan(1600);
    const { rows } = await sql<{
      persona_id: string;
      book_id: string;
      delivery_type: 'digital' | 'physical';
      amount_paise: number;
      payment_status: string;
      delivery_status: string;
      persona_status: string;
      paid_at: Date | null;
      created_at: Date;
      address: { zip: string } | null;
      email: string;
    }>`SELECT persona_id, book_id, delivery_type, amount_paise, payment_status, delivery_status, persona_status, paid_at, created_at, address, email FROM orders`.execute(
      h.database.db,
    );
    expect(rows).toHaveLength(2000);
    expect(new Set(rows.map((r) => r.persona_id)).size).toBe(2000);
    // Buyers come back: fewer addresses than orders.
    expect(new Set(rows.map((r) => r.email)).size).toBeLessThan(1000);
    for (const r of rows) {
      const book = BOOKS.find((b) => b.id === r.book_id)!;
      expect(isPersonaId(r.persona_id)).toBe(true);
      expect(r.amount_paise).toBe(computeOrderAmount(book, r.delivery_type).totalPaise);
      expect(r.email).toMatch(/^[a-z0-9._]+@[a-z0-9.]+$/);
      if (r.delivery_type === 'physical') expect(r.address?.zip).toMatch(/^\d{6}$/);
      else expect(r.address).toBeNull();
      const paid = r.payment_status === 'paid';
      expect(r.persona_status).toBe(paid ? 'ready' : 'pending');
      expect(r.paid_at === null).toBe(!paid);
      if (!paid || r.delivery_type === 'digital') expect(r.delivery_status).toBe('pending');
    }
    const spread = rows.map((r) => new Date(r.created_at).getTime());
    expect(Math.max(...spread) - Math.min(...spread)).toBeGreaterThan(500 * 86_400_000);
    expect(new Set(rows.map((r) => r.delivery_status))).toEqual(new Set(['pending', 'shipped', 'delivered', 'cancelled']));

    const list = await h.service.app.inject({ url: '/api/orders?limit=5', headers: h.admin });
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toHaveLength(5);
  });

  it('refuses to make orders of no books', async () => {
    await expect(seedScaleOrders(h.database.db, { orders: 1, books: [] })).rejects.toThrow('the scale orders need books');
  });
}

describe('the scale orders on PGlite', () => contract('pglite'));
describeWithPostgres()('the scale orders on PostgreSQL', () => contract('postgres'));
