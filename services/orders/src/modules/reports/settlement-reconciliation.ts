// The monthly settlement reconciliation (issue 23): our paid orders and processed refunds of a
// month against what Razorpay's settlement recon says it settled, each matched by Razorpay's id.
// Razorpay settles a few days after the money moves, so a transaction of the month's last days
// settles in the next month: the month's transactions are looked for in what settled in it and
// in the month after, and one not settled yet is "awaiting settlement" for a week before it is
// "missing at Razorpay". What settled in the month for an earlier month's transaction of ours is
// in that month's report, and in this month's settled totals (what reached the bank).
import {
  paiseAsRupees,
  SETTLEMENT_CSV_HEADER,
  SETTLEMENT_MISMATCHES,
  SETTLEMENT_STATUS_WORDS,
  shopDate,
  toCsv,
  toCsvRows,
  type CsvCell,
  type SettlementLine,
  type SettlementReport,
} from '@persona/contracts';
import type { Kysely } from 'kysely';
import { serviceUnavailable } from '@persona/service-kit';
import type { OrdersDB } from '../../db';
import { istMonthRange } from '../invoices/invoice-number';
import type { PaymentProvider, SettlementItem } from '../payment-provider/payment-provider';
import { knownProviderIds, paymentsOfPeriod, processedRefundsOfPeriod, type OurPayment, type OurRefund } from './reports.repository';

/** How long a transaction may wait for its settlement before it counts as missing (Razorpay's T+2 working days, and a holiday weekend). */
export const SETTLEMENT_GRACE_MS = 7 * 24 * 3600_000;

export interface ReconciliationInput {
  year: number;
  month: number;
  now: Date;
  payments: readonly OurPayment[];
  refunds: readonly OurRefund[];
  /** The recon of the month: what settled in it. */
  settledInMonth: readonly SettlementItem[];
  /** The recon of the month after (empty while it has not begun). */
  settledAfter: readonly SettlementItem[];
  /** Razorpay ids of ours from any month (knownProviderIds of the month's recon). */
  known: ReadonlySet<string>;
}

export interface Reconciliation {
  year: number;
  month: number;
  lines: SettlementLine[];
  summary: SettlementReport['summary'];
}

/** Each of our transactions with what Razorpay settled for it, then what Razorpay settled that we do not know. */
export function reconcileSettlements(input: ReconciliationInput): Reconciliation {
  const items = [...input.settledInMonth, ...input.settledAfter];
  const byId = new Map(items.map((item) => [`${item.type}:${item.entityId}`, item]));
  const paymentsByOrder = new Map(items.filter((item) => item.type === 'payment' && item.providerOrderId).map((item) => [item.providerOrderId!, item]));
  const used = new Set<SettlementItem>();
  const lines: SettlementLine[] = [];

  const ours = (
    type: 'payment' | 'refund',
    ids: { providerId: string | null; orderId: string; personaId: string },
    amountPaise: number,
    at: Date,
    item: SettlementItem | undefined,
  ) => {
    if (item) used.add(item);
    const base = { type, ...ids, at: at.toISOString(), ourAmountPaise: amountPaise };
    if (!item) {
      const waiting = input.now.getTime() - at.getTime() < SETTLEMENT_GRACE_MS;
      lines.push({
        ...base,
        ...unsettled(),
        status: waiting ? 'awaiting-settlement' : 'missing-at-provider',
        note: waiting ? 'Not settled yet: Razorpay settles a few days after' : `Razorpay has settled no ${type} ${ids.providerId ?? 'of this order'}`,
      });
      return;
    }
    const same = item.amountPaise === amountPaise;
    lines.push({
      ...base,
      ...settled(item),
      providerId: item.entityId,
      status: same ? 'matched' : 'amount-mismatch',
      note: same ? '' : `We recorded ${paiseAsRupees(amountPaise)}, Razorpay settled a ${type} of ${paiseAsRupees(item.amountPaise)}`,
    });
  };

  for (const payment of input.payments) {
    const item = payment.paymentId
      ? byId.get(`payment:${payment.paymentId}`)
      : payment.providerOrderId
        ? paymentsByOrder.get(payment.providerOrderId)
        : undefined;
    ours('payment', { providerId: payment.paymentId, orderId: payment.orderId, personaId: payment.personaId }, payment.amountPaise, payment.at, item);
  }
  for (const refund of input.refunds) {
    const item = refund.providerRefundId ? byId.get(`refund:${refund.providerRefundId}`) : undefined;
    ours('refund', { providerId: refund.providerRefundId, orderId: refund.orderId, personaId: refund.personaId }, refund.amountPaise, refund.at, item);
  }
  for (const item of input.settledInMonth) {
    if (used.has(item) || (item.type !== 'adjustment' && input.known.has(item.entityId))) continue;
    lines.push({
      ...settled(item),
      type: item.type,
      providerId: item.entityId,
      orderId: null,
      personaId: null,
      at: null,
      ourAmountPaise: null,
      providerAmountPaise: item.amountPaise,
      status: item.type === 'adjustment' ? 'adjustment' : 'unknown-to-us',
      note:
        item.type === 'adjustment'
          ? 'An adjustment by Razorpay (a fee correction, a dispute): see its dashboard'
          : `Razorpay settled a ${item.type} that is no order's payment or refund of ours${item.providerOrderId ? ` (Razorpay order ${item.providerOrderId})` : ''}`,
    });
  }

  const count = (status: SettlementLine['status']) => lines.filter((line) => line.status === status).length;
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return {
    year: input.year,
    month: input.month,
    lines,
    summary: {
      payments: input.payments.length,
      paymentsPaise: sum(input.payments.map((p) => p.amountPaise)),
      refunds: input.refunds.length,
      refundsPaise: sum(input.refunds.map((r) => r.amountPaise)),
      matched: count('matched'),
      awaitingSettlement: count('awaiting-settlement'),
      mismatches: lines.filter((line) => SETTLEMENT_MISMATCHES.includes(line.status)).length,
      settledFeePaise: sum(input.settledInMonth.map((item) => item.feePaise)),
      settledFeeTaxPaise: sum(input.settledInMonth.map((item) => item.taxPaise)),
      settledNetPaise: sum(input.settledInMonth.map((item) => item.creditPaise - item.debitPaise)),
    },
  };
}

function settled(item: SettlementItem) {
  return {
    providerAmountPaise: item.amountPaise,
    feePaise: item.feePaise,
    feeTaxPaise: item.taxPaise,
    settledPaise: item.creditPaise - item.debitPaise,
    settlementId: item.settlementId,
    settledAt: item.settledAt?.toISOString() ?? null,
  };
}

function unsettled() {
  return { providerAmountPaise: null, feePaise: null, feeTaxPaise: null, settledPaise: null, settlementId: null, settledAt: null };
}

/** The month's reconciliation: our side from the database, Razorpay's from its recon of the month and the next. */
export async function settlementReconciliation(
  deps: { db: Kysely<OrdersDB>; provider: PaymentProvider },
  year: number,
  month: number,
  now = new Date(),
): Promise<Reconciliation> {
  const { from, to } = istMonthRange(year, month);
  const next = month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };
  const recon = async (period: { year: number; month: number }) => {
    try {
      return await deps.provider.settlementRecon(period);
    } catch (err) {
      throw serviceUnavailable(`Razorpay's settlement report could not be read (${(err as Error).message}); please try again shortly`);
    }
  };
  const [payments, refunds, settledInMonth, settledAfter] = await Promise.all([
    paymentsOfPeriod(deps.db, from, to),
    processedRefundsOfPeriod(deps.db, from, to),
    recon({ year, month }),
    to.getTime() <= now.getTime() ? recon(next) : Promise.resolve([]),
  ]);
  const known = await knownProviderIds(
    deps.db,
    settledInMonth.filter((item) => item.type !== 'adjustment').map((item) => item.entityId),
  );
  return reconcileSettlements({ year, month, now, payments, refunds, settledInMonth, settledAfter, known });
}

const rupees = (paise: number | null) => (paise === null ? null : paiseAsRupees(paise));

function lineRecord(line: SettlementLine): CsvCell[] {
  return [
    SETTLEMENT_STATUS_WORDS[line.status],
    line.type,
    line.providerId,
    line.orderId,
    line.personaId,
    line.at && shopDate(new Date(line.at)),
    rupees(line.ourAmountPaise),
    rupees(line.providerAmountPaise),
    rupees(line.feePaise),
    rupees(line.feeTaxPaise),
    rupees(line.settledPaise),
    line.settlementId,
    line.settledAt && shopDate(new Date(line.settledAt)),
    line.note,
  ];
}

/** The reconciliation as CSV: the summary, every transaction, then the mismatches again on their own. */
export function settlementCsv(report: Reconciliation, monthLabel: string): string {
  const s = report.summary;
  const mismatches = report.lines.filter((line) => SETTLEMENT_MISMATCHES.includes(line.status));
  return (
    toCsvRows([
      ['Settlement reconciliation', monthLabel, 'Razorpay', 'Amounts in rupees; dates in India'],
      [],
      ['SUMMARY'],
      ['Payments', s.payments, paiseAsRupees(s.paymentsPaise)],
      ['Refunds', s.refunds, paiseAsRupees(s.refundsPaise)],
      ['Matched', s.matched],
      ['Awaiting settlement', s.awaitingSettlement],
      ['Mismatches', s.mismatches],
      ['Fees settled in the month (GST included)', '', paiseAsRupees(s.settledFeePaise)],
      ['GST on those fees', '', paiseAsRupees(s.settledFeeTaxPaise)],
      ['Net settled to the bank in the month', '', paiseAsRupees(s.settledNetPaise)],
      [],
      ['TRANSACTIONS'],
    ]) +
    toCsv(SETTLEMENT_CSV_HEADER, report.lines.map(lineRecord)) +
    toCsvRows([[], ['MISMATCHES']]) +
    toCsv(SETTLEMENT_CSV_HEADER, mismatches.map(lineRecord))
  );
}
