// All kysely code for orders. Rows are mapped to the wire shapes here.
import { sql, type Kysely, type Selectable } from 'kysely';
import { paiseToRupees, personalizedPdfUrl, type Address, type DeliveryStatus, type Order, type OrderQuery, type PublicOrder } from '@persona/contracts';
import { DEFAULT_PAGE_SIZE } from '@persona/contracts';
import type { OrdersDB, OrdersTable } from '../../db';

type Db = Kysely<OrdersDB>;
export type OrderRow = Selectable<OrdersTable>;

export function toOrder(row: OrderRow): Order {
  return {
    _id: row.id,
    personaId: row.persona_id,
    book: { _id: row.book_id, title: row.book_title, author: row.book_author },
    fullName: row.full_name,
    email: row.email,
    phone: row.phone,
    deliveryType: row.delivery_type,
    address: (row.address as Address | null) ?? null,
    amount: paiseToRupees(row.amount_paise),
    currency: 'INR',
    paymentStatus: row.payment_status,
    deliveryStatus: row.delivery_status,
    personaStatus: row.persona_status,
    personaError: row.persona_error,
    personalizedPdfUrl: row.persona_status === 'ready' ? personalizedPdfUrl(row.persona_id) : null,
    createdAt: row.created_at.toISOString(),
    paidAt: row.paid_at ? row.paid_at.toISOString() : null,
  };
}

/** Only what the /send-persona page shows: no e-mail, phone or address (DESIGN §6). */
export function toPublicOrder(row: OrderRow): PublicOrder {
  return {
    personaId: row.persona_id,
    book: { title: row.book_title, author: row.book_author },
    deliveryType: row.delivery_type,
    deliveryStatus: row.delivery_status,
    paymentStatus: row.payment_status,
    personaStatus: row.persona_status,
    personalizedPdfUrl: row.persona_status === 'ready' ? personalizedPdfUrl(row.persona_id) : null,
    createdAt: row.created_at.toISOString(),
  };
}

export interface NewOrder {
  /** Chosen by the caller when the Razorpay order (receipt = this id) is made before the row. */
  id?: string;
  razorpay_order_id?: string | null;
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
}

export async function insertOrder(db: Db, order: NewOrder): Promise<OrderRow> {
  return db
    .insertInto('orders')
    .values({ ...order, address: order.address ? JSON.stringify(order.address) : null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export const findOrderById = (db: Db, id: string) => db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
export const findOrderByPersonaId = (db: Db, personaId: string) => db.selectFrom('orders').selectAll().where('persona_id', '=', personaId).executeTakeFirst();
export const findOrderByRazorpayOrderId = (db: Db, rzp: string) => db.selectFrom('orders').selectAll().where('razorpay_order_id', '=', rzp).executeTakeFirst();
export const findOrderByIdempotencyKey = (db: Db, key: string) => db.selectFrom('orders').selectAll().where('idempotency_key', '=', key).executeTakeFirst();

export async function setRazorpayOrderId(db: Db, id: string, razorpayOrderId: string): Promise<void> {
  await db.updateTable('orders').set({ razorpay_order_id: razorpayOrderId, updated_at: new Date() }).where('id', '=', id).execute();
}

/** Moves an order to paid once; answers the row only when this call made the transition. */
export async function markPaid(db: Db, id: string, razorpayPaymentId: string, via: string): Promise<OrderRow | undefined> {
  return db
    .updateTable('orders')
    .set({ payment_status: 'paid', paid_at: sql`now()`, razorpay_payment_id: razorpayPaymentId, paid_via: via, persona_status: 'generating', updated_at: new Date() })
    .where('id', '=', id)
    .where('payment_status', '<>', 'paid')
    .returningAll()
    .executeTakeFirst();
}

/** Records a failed or started attempt; never moves an order back from paid. */
export async function markUnpaidAttempt(db: Db, id: string, status: 'attempted' | 'failed'): Promise<void> {
  await db.updateTable('orders').set({ payment_status: status, updated_at: new Date() }).where('id', '=', id).where('payment_status', '<>', 'paid').execute();
}

export async function recordAttempt(db: Db, attempt: { order_id: string; razorpay_payment_id: string | null; outcome: string; source: string; detail?: string }): Promise<void> {
  await db.insertInto('payment_attempts').values({ ...attempt, detail: attempt.detail ?? null }).execute();
}

export async function setDeliveryStatus(db: Db, id: string, status: DeliveryStatus): Promise<{ before: OrderRow; after: OrderRow } | undefined> {
  const before = await db.selectFrom('orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  if (!before) return undefined;
  const after = await db.updateTable('orders').set({ delivery_status: status, updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  return { before, after };
}

export async function setPersonaStatus(
  db: Db,
  personaId: string,
  change: { status: 'ready'; sha256: string } | { status: 'failed'; error: string } | { status: 'generating' },
): Promise<OrderRow | undefined> {
  const values =
    change.status === 'ready'
      ? { persona_status: 'ready' as const, persona_sha256: change.sha256, persona_error: null }
      : change.status === 'failed'
        ? { persona_status: 'failed' as const, persona_error: change.error }
        : { persona_status: 'generating' as const, persona_error: null };
  let query = db.updateTable('orders').set({ ...values, updated_at: new Date() }).where('persona_id', '=', personaId);
  // A late failure or retry notice never hides a Persona that is already ready.
  if (change.status !== 'ready') query = query.where('persona_status', '<>', 'ready');
  return query.returningAll().executeTakeFirst();
}

export async function listOrders(db: Db, query: OrderQuery): Promise<{ orders: OrderRow[]; total: number }> {
  const page = query.page ?? 1;
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  let q = db.selectFrom('orders');
  if (query.status) q = q.where('delivery_status', '=', query.status);
  if (query.deliveryType) q = q.where('delivery_type', '=', query.deliveryType);
  if (query.paymentStatus) q = q.where('payment_status', '=', query.paymentStatus);
  if (query.from) q = q.where('created_at', '>=', new Date(`${query.from}T00:00:00+05:30`));
  if (query.to) q = q.where('created_at', '<', sql<Date>`${`${query.to}T00:00:00+05:30`}::timestamptz + interval '1 day'`);
  if (query.search?.trim()) {
    const pattern = `%${query.search.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([eb(eb.fn('lower', ['full_name']), 'like', pattern), eb(eb.fn('lower', ['email']), 'like', pattern), eb(eb.fn('lower', ['persona_id']), 'like', pattern)]),
    );
  }
  const [orders, count] = await Promise.all([
    q.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(limit).offset((page - 1) * limit).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { orders, total: count.n };
}

/** Orders a buyer may have paid without us hearing of it (for the reconciler). */
export async function unsettledOrders(db: Db, olderThanMs: number, newerThanMs: number, limit: number): Promise<OrderRow[]> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('payment_status', '<>', 'paid')
    .where('razorpay_order_id', 'is not', null)
    .where('created_at', '<', new Date(Date.now() - olderThanMs))
    .where('created_at', '>', new Date(Date.now() - newerThanMs))
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** Claims a webhook event id; false when it was handled before. */
export async function claimWebhookEvent(db: Db, eventId: string, event: string): Promise<boolean> {
  const result = await db.insertInto('webhook_events').values({ event_id: eventId, event }).onConflict((oc) => oc.column('event_id').doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
