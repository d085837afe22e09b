// All kysely code for the buyers' library: its tokens (kept as hashes) and the Personas an
// address bought. It answers rows; library.mapper makes the wire shape.
import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import { shopDate } from '@persona/contracts';
import type { LibraryTokensTable, OrdersDB } from '../../db';
import type { OrderRow } from '../order-records/orders.repository';
import type { LibraryDocument } from './library.mapper';

type Db = Kysely<OrdersDB>;
export type LibraryTokenRow = Selectable<LibraryTokensTable>;

/**
 * The paid orders of an address (lower case): bought with it, or a gift to it whose day has come
 * (before it, the gift stays a surprise). Each side uses its own index on lower(address).
 */
function ofAddress(email: string, now: Date) {
  return (eb: ExpressionBuilder<OrdersDB, 'orders'>) =>
    eb.and([
      eb('payment_status', '=', 'paid'),
      eb.or([
        eb(sql<string>`lower(email)`, '=', email),
        eb.and([eb(sql<string>`lower(gift_recipient_email)`, '=', email), eb('gift_deliver_on', '<=', shopDate(now))]),
      ]),
    ]);
}

/** True when the address (lower case) has a paid order or a gift: a link is worth sending. */
export async function hasPaidOrders(db: Db, email: string, now = new Date()): Promise<boolean> {
  const row = await db.selectFrom('orders').select('id').where(ofAddress(email, now)).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** How many links the address was sent since `since`: a flood of requests for one address sends no more. */
export async function linksSentSince(db: Db, email: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('library_tokens')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('email', '=', email)
    .where('kind', '=', 'link')
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return row.n;
}

export async function insertToken(db: Db, token: { hash: string; kind: 'link' | 'session'; email: string; expiresAt: Date }): Promise<void> {
  await db.insertInto('library_tokens').values({ token_hash: token.hash, kind: token.kind, email: token.email, expires_at: token.expiresAt }).execute();
}

/**
 * Uses a link once: answers its row when it was unused and unexpired (and marks it used in the
 * same statement, so two tabs racing open it once), else undefined.
 */
export function useLink(db: Db, hash: string): Promise<LibraryTokenRow | undefined> {
  return db
    .updateTable('library_tokens')
    .set({ used_at: sql`now()` })
    .where('token_hash', '=', hash)
    .where('kind', '=', 'link')
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returningAll()
    .executeTakeFirst();
}

/** A session still open. */
export function findSession(db: Db, hash: string): Promise<LibraryTokenRow | undefined> {
  return db
    .selectFrom('library_tokens')
    .selectAll()
    .where('token_hash', '=', hash)
    .where('kind', '=', 'session')
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
}

/** The address's paid orders and the gifts it received, newest first. */
export function paidOrdersOf(db: Db, email: string, now = new Date()): Promise<OrderRow[]> {
  return db.selectFrom('orders').selectAll().where(ofAddress(email, now)).orderBy('created_at', 'desc').limit(500).execute();
}

/** The invoices and credit notes of `orderIds`, by order, each order's in the order they were issued. */
export async function documentsOf(db: Kysely<OrdersDB>, orderIds: readonly string[]): Promise<Map<string, LibraryDocument[]>> {
  const byOrder = new Map<string, LibraryDocument[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await db
    .selectFrom('invoices')
    .select(['id', 'order_id', 'kind', 'number'])
    .where('order_id', 'in', orderIds)
    .orderBy('issued_at')
    .orderBy('kind', 'desc')
    .orderBy('sequence')
    .execute();
  for (const row of rows) {
    const list = byOrder.get(row.order_id) ?? [];
    list.push({ id: row.id, kind: row.kind, number: row.number });
    byOrder.set(row.order_id, list);
  }
  return byOrder;
}
