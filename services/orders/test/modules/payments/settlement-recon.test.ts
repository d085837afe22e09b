// Razorpay's settlement recon through the real SDK against the test-mode stand-in: every page read
// (count/skip, 1000 a page), each line in our terms, and only what settled in the month asked for.
import Fastify, { type FastifyInstance } from 'fastify';
import { RazorpayProvider, RECON_PAGE_SIZE, TEST_MODE_KEYS } from '../../../src/modules/payments/razorpay/razorpay-provider';
import { RazorpayStandIn, razorpayId, standInFee } from '../../../src/modules/payments/test-mode/razorpay-stand-in';
import { MemoryStandInStore } from '../../../src/modules/payments/test-mode/stand-in-store';

let server: FastifyInstance;
let standIn: RazorpayStandIn;
const store = new MemoryStandInStore();
let provider: RazorpayProvider;

/** A captured payment made at `at` (seconds), as the stand-in keeps it. */
function captured(at: number, amount = 34_950) {
  const order = razorpayId('order');
  store.orders.set(order, {
    id: order,
    entity: 'order',
    amount,
    amount_paid: amount,
    amount_due: 0,
    currency: 'INR',
    receipt: null,
    status: 'paid',
    attempts: 1,
    notes: {},
    created_at: at,
  });
  const payment = razorpayId('pay');
  store.payments.set(payment, {
    id: payment,
    entity: 'payment',
    amount,
    currency: 'INR',
    status: 'captured',
    order_id: order,
    method: 'card',
    captured: true,
    error_code: null,
    error_description: null,
    created_at: at,
  });
  return { order, payment };
}

beforeAll(async () => {
  standIn = new RazorpayStandIn(TEST_MODE_KEYS, async () => undefined, store);
  server = Fastify({ logger: false });
  standIn.register(server, '');
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  provider = new RazorpayProvider('test', TEST_MODE_KEYS, url);
});
afterAll(() => server.close());

it('reads every page of a month and no other month', async () => {
  // 1001 payments on 10 October 2026 (settled on the 12th), one on 30 September (settled on 2 October), one on 30 October (settled on 1 November).
  const october10 = Date.UTC(2026, 9, 10, 6) / 1000;
  for (let i = 0; i < RECON_PAGE_SIZE + 1; i += 1) captured(october10 + i);
  const fromSeptember = captured(Date.UTC(2026, 8, 30, 6) / 1000);
  const toNovember = captured(Date.UTC(2026, 9, 30, 20) / 1000, 50_000);

  const october = await provider.settlementRecon({ year: 2026, month: 10 });
  expect(october).toHaveLength(RECON_PAGE_SIZE + 2);
  expect(new Set(october.map((item) => item.entityId)).size).toBe(RECON_PAGE_SIZE + 2);
  expect(october[0]).toMatchObject({
    entityId: fromSeptember.payment,
    type: 'payment',
    providerOrderId: fromSeptember.order,
    settledAt: new Date(Date.UTC(2026, 9, 2, 6)),
  });

  const november = await provider.settlementRecon({ year: 2026, month: 11 });
  const { feePaise, taxPaise } = standInFee(50_000);
  expect(november).toEqual([
    {
      entityId: toNovember.payment,
      type: 'payment',
      paymentId: toNovember.payment,
      providerOrderId: toNovember.order,
      amountPaise: 50_000,
      creditPaise: 50_000 - feePaise,
      debitPaise: 0,
      feePaise,
      taxPaise,
      createdAt: new Date(Date.UTC(2026, 9, 30, 20)),
      settlementId: 'setl_PB202611020000',
      settledAt: new Date(Date.UTC(2026, 10, 1, 20)),
    },
  ]);
  // 2% of 500.00 is 10.00, GST 1.80 on it: 11.80 in all.
  expect({ feePaise, taxPaise }).toEqual({ feePaise: 1_180, taxPaise: 180 });
  expect(await provider.settlementRecon({ year: 2026, month: 11, day: 2 })).toHaveLength(1);
  expect(await provider.settlementRecon({ year: 2026, month: 11, day: 1 })).toHaveLength(0);
});
