// The settlement reconciliation's matching, one kind of line each: matched, awaiting settlement,
// amount mismatch, missing at Razorpay, unknown to us, an adjustment, and an earlier month's
// transaction settled in this one (in the totals, not a line).
import type { SettlementItem } from '../../../src/modules/payment-provider/payment-provider';
import { asSettlementItem } from '../../../src/modules/payments/razorpay/razorpay-provider';
import type { OurPayment, OurRefund } from '../../../src/modules/reports/reports.repository';
import { reconcileSettlements, settlementCsv } from '../../../src/modules/reports/settlement-reconciliation';

const at = (iso: string) => new Date(iso);
const payment = (id: string, amountPaise: number, when: string, over: Partial<OurPayment> = {}): OurPayment => ({
  orderId: `order-${id}`,
  personaId: `PRS-${id}`,
  paymentId: `pay_${id}`,
  providerOrderId: `order_${id}`,
  amountPaise,
  at: at(when),
  ...over,
});
const item = (over: Partial<SettlementItem> & Pick<SettlementItem, 'entityId' | 'type' | 'amountPaise'>): SettlementItem => ({
  paymentId: over.type === 'payment' ? over.entityId : null,
  providerOrderId: null,
  creditPaise: over.type === 'payment' ? over.amountPaise - 826 : 0,
  debitPaise: over.type === 'refund' ? over.amountPaise : 0,
  feePaise: over.type === 'payment' ? 826 : 0,
  taxPaise: over.type === 'payment' ? 126 : 0,
  createdAt: at('2026-11-10T10:00:00Z'),
  settlementId: 'setl_PB202611120000',
  settledAt: at('2026-11-12T10:00:00Z'),
  ...over,
});

const refund: OurRefund = {
  refundId: 'r-1',
  orderId: 'order-a',
  personaId: 'PRS-a',
  providerRefundId: 'rfnd_a',
  paymentId: 'pay_a',
  amountPaise: 10_000,
  at: at('2026-11-20T10:00:00Z'),
};

describe('the monthly settlement reconciliation', () => {
  const result = reconcileSettlements({
    year: 2026,
    month: 11,
    now: at('2026-12-03T10:00:00Z'),
    payments: [
      payment('a', 34_950, '2026-11-10T10:00:00Z'),
      // Paid on the last evening of the month: settled in December, still this month's.
      payment('b', 41_300, '2026-11-30T17:00:00Z'),
      payment('c', 34_950, '2026-11-11T10:00:00Z'),
      payment('d', 34_950, '2026-11-12T10:00:00Z'),
      // Paid yesterday: Razorpay has not settled it yet.
      payment('e', 34_950, '2026-12-02T10:00:00Z'),
    ],
    refunds: [refund],
    settledInMonth: [
      item({ entityId: 'pay_a', type: 'payment', amountPaise: 34_950 }),
      // Razorpay settled less than we charged.
      item({ entityId: 'pay_c', type: 'payment', amountPaise: 30_000 }),
      item({ entityId: 'rfnd_a', type: 'refund', amountPaise: 10_000, paymentId: 'pay_a' }),
      // A second payment of a paid order: never one of our orders' payments.
      item({ entityId: 'pay_x', type: 'payment', amountPaise: 34_950, providerOrderId: 'order_a' }),
      // October's payment, settled on 1 November: October's report, November's bank account.
      item({ entityId: 'pay_oct', type: 'payment', amountPaise: 20_000 }),
      item({ entityId: 'adj_1', type: 'adjustment', amountPaise: 500, creditPaise: 500 }),
    ],
    settledAfter: [item({ entityId: 'pay_b', type: 'payment', amountPaise: 41_300, settledAt: at('2026-12-02T10:00:00Z') })],
    known: new Set(['pay_a', 'pay_c', 'rfnd_a', 'pay_oct']),
  });
  const line = (providerId: string) => result.lines.find((l) => l.providerId === providerId);

  it('matches our payments and refunds with what Razorpay settled, by its id, with the fee and what reached the bank', () => {
    expect(line('pay_a')).toMatchObject({
      status: 'matched',
      type: 'payment',
      orderId: 'order-a',
      ourAmountPaise: 34_950,
      providerAmountPaise: 34_950,
      feePaise: 826,
      feeTaxPaise: 126,
      settledPaise: 34_124,
      settlementId: 'setl_PB202611120000',
    });
    expect(line('rfnd_a')).toMatchObject({ status: 'matched', type: 'refund', ourAmountPaise: 10_000, settledPaise: -10_000 });
    expect(line('pay_b')).toMatchObject({ status: 'matched', settledAt: '2026-12-02T10:00:00.000Z' });
  });

  it('names each kind of mismatch, and a recent transaction as awaiting settlement', () => {
    expect(line('pay_c')).toMatchObject({
      status: 'amount-mismatch',
      ourAmountPaise: 34_950,
      providerAmountPaise: 30_000,
      note: 'We recorded 349.50, Razorpay settled a payment of 300.00',
    });
    expect(line('pay_d')).toMatchObject({ status: 'missing-at-provider', providerAmountPaise: null, settledAt: null });
    expect(line('pay_e')).toMatchObject({ status: 'awaiting-settlement' });
    expect(line('pay_x')).toMatchObject({ status: 'unknown-to-us', orderId: null, ourAmountPaise: null, providerAmountPaise: 34_950 });
    expect(line('pay_x')!.note).toContain('order_a');
    expect(line('adj_1')).toMatchObject({ status: 'adjustment', settledPaise: 500 });
    expect(line('pay_oct')).toBeUndefined();
    expect(result.lines).toHaveLength(8);
  });

  it('finds a payment recorded without its id by its Razorpay order', () => {
    const found = reconcileSettlements({
      year: 2026,
      month: 11,
      now: at('2026-12-03T10:00:00Z'),
      payments: [payment('f', 34_950, '2026-11-10T10:00:00Z', { paymentId: null })],
      refunds: [],
      settledInMonth: [item({ entityId: 'pay_f', type: 'payment', amountPaise: 34_950, providerOrderId: 'order_f' })],
      settledAfter: [],
      known: new Set(),
    });
    expect(found.lines).toEqual([expect.objectContaining({ status: 'matched', providerId: 'pay_f' })]);
  });

  it('sums the month: ours, the mismatches, and the fees and net of everything settled in it', () => {
    expect(result.summary).toEqual({
      payments: 5,
      paymentsPaise: 34_950 * 4 + 41_300,
      refunds: 1,
      refundsPaise: 10_000,
      matched: 3,
      awaitingSettlement: 1,
      mismatches: 3,
      settledFeePaise: 826 * 4,
      settledFeeTaxPaise: 126 * 4,
      settledNetPaise: 34_950 - 826 + (30_000 - 826) - 10_000 + (34_950 - 826) + (20_000 - 826) + 500,
    });
  });

  it('writes the summary, every line and the mismatches again as CSV', () => {
    const csv = settlementCsv(result, 'November 2026');
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('Settlement reconciliation,November 2026,Razorpay,Amounts in rupees; dates in India');
    expect(lines).toContain('Net settled to the bank in the month,,1070.96');
    expect(lines).toContain('Matched,payment,pay_a,order-a,PRS-a,2026-11-10,349.50,349.50,8.26,1.26,341.24,setl_PB202611120000,2026-11-12,');
    expect(lines).toContain('Matched,refund,rfnd_a,order-a,PRS-a,2026-11-20,100.00,100.00,0.00,0.00,-100.00,setl_PB202611120000,2026-11-12,');
    const mismatches = lines.slice(lines.indexOf('MISMATCHES') + 2).filter(Boolean);
    expect(mismatches.map((l) => l.split(',')[0])).toEqual(['Amount mismatch', 'Missing at Razorpay', 'Unknown to us']);
  });
});

describe("Razorpay's recon line", () => {
  it('reads the API item: payment id, amounts as numbers, Unix times', () => {
    expect(
      asSettlementItem({
        entity_id: 'rfnd_1',
        type: 'refund',
        debit: 10_000,
        credit: 0,
        amount: '10000',
        fee: 0,
        tax: null,
        created_at: 1_764_000_000,
        settled_at: 1_764_172_800,
        settlement_id: 'setl_1',
        payment_id: 'pay_1',
        order_id: 'order_1',
      }),
    ).toEqual({
      entityId: 'rfnd_1',
      type: 'refund',
      paymentId: 'pay_1',
      providerOrderId: 'order_1',
      amountPaise: 10_000,
      creditPaise: 0,
      debitPaise: 10_000,
      feePaise: 0,
      taxPaise: 0,
      createdAt: new Date(1_764_000_000_000),
      settlementId: 'setl_1',
      settledAt: new Date(1_764_172_800_000),
    });
  });
});
