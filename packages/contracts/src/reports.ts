// The owner's monthly reports (issue 23): the GST return's tables as CSV, and the settlement
// reconciliation of Razorpay's payouts against our payments and refunds, as CSV and as the
// mismatches the admin's Reports page lists.
import { Type, type Static } from '@sinclair/typebox';

/** A calendar month of the shop (India's calendar): "2026-11". */
export const REPORT_MONTH_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])$';

export const ReportMonthQuery = Type.Object(
  { month: Type.String({ pattern: REPORT_MONTH_PATTERN, description: 'The month, YYYY-MM (India Standard Time)' }) },
  { additionalProperties: false },
);
export type ReportMonthQuery = Static<typeof ReportMonthQuery>;

/** "2026-11" as numbers; null when it is not a month. */
export function parseReportMonth(month: string): { year: number; month: number } | null {
  if (!new RegExp(REPORT_MONTH_PATTERN).test(month)) return null;
  return { year: Number(month.slice(0, 4)), month: Number(month.slice(5, 7)) };
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "November 2026". */
export function reportMonthLabel(year: number, month: number): string {
  return `${MONTH_NAMES[month - 1]} ${year}`;
}

/** Paise as rupees with two decimals, by integer arithmetic ("-1234.05"): what an accountant's spreadsheet reads. */
export function paiseAsRupees(paise: number): string {
  if (!Number.isSafeInteger(paise)) throw new RangeError('paise must be a safe integer');
  const whole = Math.abs(paise);
  return `${paise < 0 ? '-' : ''}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}

export const gstReturnCsvFilename = (month: string) => `gstr1-${month}.csv`;
export const settlementCsvFilename = (month: string) => `settlement-reconciliation-${month}.csv`;

/** GSTR-1 table 7 (B2C others), with the tax split the return's offline tool asks for. */
export const B2CS_CSV_HEADER = [
  'Type',
  'Place Of Supply',
  'Supply Type',
  'Rate',
  'Taxable Value',
  'Integrated Tax Amount',
  'Central Tax Amount',
  'State/UT Tax Amount',
  'Cess Amount',
] as const;
/** GSTR-1 table 8 (nil rated, exempted and non-GST supplies): the exempt printed books. */
export const EXEMP_CSV_HEADER = ['Description', 'Nil Rated Supplies', 'Exempted (other than nil rated/non GST supply)', 'Non-GST Supplies'] as const;
/** GSTR-1 table 12 (HSN-wise summary of outward supplies). */
export const HSN_CSV_HEADER = [
  'HSN',
  'Description',
  'UQC',
  'Total Quantity',
  'Total Value',
  'Rate',
  'Taxable Value',
  'Integrated Tax Amount',
  'Central Tax Amount',
  'State/UT Tax Amount',
  'Cess Amount',
] as const;
/** GSTR-1 table 13 (documents issued). */
export const DOCS_CSV_HEADER = ['Nature of Document', 'Sr. No. From', 'Sr. No. To', 'Total Number', 'Cancelled', 'Net Issued'] as const;

export const SETTLEMENT_STATUSES = ['matched', 'awaiting-settlement', 'amount-mismatch', 'missing-at-provider', 'unknown-to-us', 'adjustment'] as const;
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];
/** Each status as the CSV and the Reports page say it. */
export const SETTLEMENT_STATUS_WORDS: Readonly<Record<SettlementStatus, string>> = {
  matched: 'Matched',
  'awaiting-settlement': 'Awaiting settlement',
  'amount-mismatch': 'Amount mismatch',
  'missing-at-provider': 'Missing at Razorpay',
  'unknown-to-us': 'Unknown to us',
  adjustment: 'Adjustment',
};
/** The statuses the owner must look into. */
export const SETTLEMENT_MISMATCHES: readonly SettlementStatus[] = ['amount-mismatch', 'missing-at-provider', 'unknown-to-us'];

const SettlementStatusSchema = Type.Union([
  Type.Literal('matched'),
  Type.Literal('awaiting-settlement'),
  Type.Literal('amount-mismatch'),
  Type.Literal('missing-at-provider'),
  Type.Literal('unknown-to-us'),
  Type.Literal('adjustment'),
]);
const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);

/** One transaction of the month: ours, the provider's, or both. Amounts in paise. */
export const SettlementLine = Type.Object({
  status: SettlementStatusSchema,
  type: Type.Union([Type.Literal('payment'), Type.Literal('refund'), Type.Literal('adjustment')]),
  /** Razorpay's id: pay_…, rfnd_…, or an adjustment's. */
  providerId: NullableString,
  orderId: NullableString,
  personaId: NullableString,
  /** When it happened on our side (paid, refund made); null for what only the provider knows. */
  at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  ourAmountPaise: NullableInteger,
  providerAmountPaise: NullableInteger,
  /** Razorpay's fee including the GST on it, and that GST. */
  feePaise: NullableInteger,
  feeTaxPaise: NullableInteger,
  /** What reached (positive) or left (negative) the bank account: credit − debit. */
  settledPaise: NullableInteger,
  settlementId: NullableString,
  settledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** Why it is listed, in plain words. */
  note: Type.String(),
});
export type SettlementLine = Static<typeof SettlementLine>;

export const SettlementReport = Type.Object({
  month: Type.String(),
  summary: Type.Object({
    payments: Type.Integer(),
    paymentsPaise: Type.Integer(),
    refunds: Type.Integer(),
    refundsPaise: Type.Integer(),
    matched: Type.Integer(),
    awaitingSettlement: Type.Integer(),
    mismatches: Type.Integer(),
    /** Of everything Razorpay settled in the month (whatever month the transaction was in). */
    settledFeePaise: Type.Integer(),
    settledFeeTaxPaise: Type.Integer(),
    settledNetPaise: Type.Integer(),
  }),
  mismatches: Type.Array(SettlementLine),
});
export type SettlementReport = Static<typeof SettlementReport>;

export const SETTLEMENT_CSV_HEADER = [
  'Status',
  'Type',
  'Razorpay ID',
  'Order ID',
  'Persona ID',
  'Date',
  'Our Amount',
  'Razorpay Amount',
  'Fee',
  'GST on Fee',
  'Settled',
  'Settlement ID',
  'Settled On',
  'Note',
] as const;
