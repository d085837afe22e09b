// What the monthly settlement reconciliation reads of ours: the payments and refunds of a month,
// and which of the provider's ids we know from any month.
import type { Kysely, Transaction } from 'kysely';
import type { OrdersDB } from '../../db';

type Db = Kysely<OrdersDB> | Transaction<OrdersDB>;

export interface OurPayment {
  orderId: string;
  personaId: string;
  /** Razorpay's payment (pay_…); null when the order was paid without one being recorded. */
  paymentId: string | null;
  providerOrderId: string | null;
  amountPaise: number;
  at: Date;
}

export interface OurRefund {
  refundId: string;
  orderId: string;
  personaId: string;
  providerRefundId: string | null;
  paymentId: string;
  amountPaise: number;
  at: Date;
}

/** The orders paid in [from, to), by when they were paid. */
export async function paymentsOfPeriod(db: Db, from: Date, to: Date): Promise<OurPayment[]> {
  const rows = await db
    .selectFrom('orders')
    .select(['id', 'persona_id', 'razorpay_payment_id', 'razorpay_order_id', 'amount_paise', 'paid_at'])
    .where('payment_status', '=', 'paid')
    .where('paid_at', '>=', from)
    .where('paid_at', '<', to)
    .orderBy('paid_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    orderId: row.id,
    personaId: row.persona_id,
    paymentId: row.razorpay_payment_id,
    providerOrderId: row.razorpay_order_id,
    amountPaise: row.amount_paise,
    at: row.paid_at!,
  }));
}

/** The refunds made in [from, to) that Razorpay processed (the money left the shop), by when they were asked for. */
export async function processedRefundsOfPeriod(db: Db, from: Date, to: Date): Promise<OurRefund[]> {
  const rows = await db
    .selectFrom('refunds as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select(['r.id', 'r.order_id', 'o.persona_id', 'r.provider_refund_id', 'r.payment_id', 'r.amount_paise', 'r.created_at'])
    .where('r.status', '=', 'processed')
    .where('r.created_at', '>=', from)
    .where('r.created_at', '<', to)
    .orderBy('r.created_at')
    .orderBy('r.id')
    .execute();
  return rows.map((row) => ({
    refundId: row.id,
    orderId: row.order_id,
    personaId: row.persona_id,
    providerRefundId: row.provider_refund_id,
    paymentId: row.payment_id,
    amountPaise: row.amount_paise,
    at: row.created_at,
  }));
}

/**
 * Which of these Razorpay ids are an order's payment or a refund of ours, in any month. A payment
 * only seen as an attempt (a second payment of a paid order) is not: the owner must hear of it.
 */
export async function knownProviderIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  const known = new Set<string>();
  // A busy month's recon has more ids than one statement may carry as parameters (65,535).
  for (let start = 0; start < ids.length; start += KNOWN_IDS_BATCH) {
    const batch = ids.slice(start, start + KNOWN_IDS_BATCH);
    const [payments, refunds] = await Promise.all([
      db.selectFrom('orders').select('razorpay_payment_id as id').where('razorpay_payment_id', 'in', batch).execute(),
      db.selectFrom('refunds').select('provider_refund_id as id').where('provider_refund_id', 'in', batch).execute(),
    ]);
    for (const row of [...payments, ...refunds]) if (row.id) known.add(row.id);
  }
  return known;
}

const KNOWN_IDS_BATCH = 5_000;
