// The orders' own rows: made, found, and moved through delivery and the Persona's making. It
// answers rows; orders.mapper makes the wire shapes. The administrator's list is read by
// order-list.repository, the dashboard's figures by dashboard-figures.repository, and payments'
// reads and writes are payments/payments.repository's.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Address, DeliveryStatus } from '@persona/contracts';
import type { OrdersDB, OrdersTable } from '../../db';

type Db = Kysely<OrdersDB>;
export type OrderRow = Selectable<OrdersTable>;

export interface NewOrder {
  /** Chosen by the caller when the Razorpay order (receipt = this id) is made before the row. */
  id?: string;
  razorpay_order_id?: string | null;
  /** When the reconciler first asks about it (payments/payment-checks.ts); none without a Razorpay order. */
  payment_check_at?: Date | null;
  persona_id: string;
  book_id: string;
  book_title: string;
  book_author: string;
  full_name: string;
  email: string;
  phone: string;
  delivery_type: 'digital' | 'physical';
  address: Address | null;
  base_paise: number;
  printing_paise: number;
  delivery_paise: number;
  amount_paise: number;
  idempotency_key: string | null;
  request_hash: string | null;
  correlation_id?: string | null;
  gift_recipient_name?: string | null;
  gift_message?: string | null;
  gift_recipient_email?: string | null;
  gift_deliver_on?: string | null;
  /** The buyer's GST state code (the invoice's place of supply). */
  buyer_state?: string | null;
  /** A coupon's code and what it took off (amount_paise is after it). */
  coupon_id?: string | null;
  coupon_code?: string | null;
  discount_paise?: number;
}

export async function insertOrder(db: Db, order: NewOrder): Promise<OrderRow> {
  return db
    .insertInto('orders')
    .values({ ...order, address: order.address ? JSON.stringify(order.address) : null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export const findOrderById = (db: Db, id: string) => db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
/** The order a Persona ID names: its Persona's, or one it had before a re-issue (its buyer's older e-mails carry that one). */
export async function findOrderByPersonaId(db: Db, personaId: string): Promise<OrderRow | undefined> {
  const row = await db.selectFrom('orders').selectAll().where('persona_id', '=', personaId).executeTakeFirst();
  if (row) return row;
  const reissue = await db.selectFrom('persona_reissues').select('order_id').where('old_persona_id', '=', personaId).executeTakeFirst();
  return reissue ? findOrderById(db, reissue.order_id) : undefined;
}
export const findOrderByIdempotencyKey = (db: Db, key: string) => db.selectFrom('orders').selectAll().where('idempotency_key', '=', key).executeTakeFirst();

/** The order, its row locked until the transaction ends. */
export function findOrderForUpdate(db: Db, id: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** A failed Persona asked for again: the order goes back to "generating". */
export function markPersonaRequestedAgain(db: Db, id: string): Promise<OrderRow> {
  return db
    .updateTable('orders')
    .set({ persona_status: 'generating', persona_error: null, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Who carries a shipped copy and its tracking number, either unknown. */
export interface ShipmentDetails {
  carrier: string | null;
  trackingNumber: string | null;
}

/** The order as it was (locked for the change) and as it now is; marking it shipped records the shipment. */
export async function setDeliveryStatus(
  db: Db,
  id: string,
  status: DeliveryStatus,
  shipment?: ShipmentDetails,
): Promise<{ before: OrderRow; after: OrderRow } | undefined> {
  const before = await findOrderForUpdate(db, id);
  if (!before) return undefined;
  const shipping = status === 'shipped' && shipment;
  const after = await db
    .updateTable('orders')
    .set({
      delivery_status: status,
      updated_at: new Date(),
      ...(shipping ? { carrier: shipment.carrier, tracking_number: shipment.trackingNumber, shipped_at: before.shipped_at ?? new Date() } : {}),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { before, after };
}

export async function setPersonaStatus(
  db: Db,
  personaId: string,
  change: { status: 'ready'; sha256: string; formats?: readonly string[] } | { status: 'failed'; error: string } | { status: 'generating' },
): Promise<OrderRow | undefined> {
  const values =
    change.status === 'ready'
      ? { persona_status: 'ready' as const, persona_sha256: change.sha256, persona_error: null, persona_formats: (change.formats ?? ['pdf']).join(',') }
      : change.status === 'failed'
        ? { persona_status: 'failed' as const, persona_error: change.error }
        : { persona_status: 'generating' as const, persona_error: null };
  let query = db
    .updateTable('orders')
    .set({ ...values, updated_at: new Date() })
    .where('persona_id', '=', personaId);
  // A late failure or retry notice never hides a Persona that is already ready.
  if (change.status !== 'ready') query = query.where('persona_status', '<>', 'ready');
  return query.returningAll().executeTakeFirst();
}
