// All kysely code for the buyers' library: its tokens (kept as hashes) and the Personas an
// address bought. It answers rows; library.mapper makes the wire shape.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { LibraryTokensTable, OrdersDB } from '../../db';
import type { OrderRow } from '../orders/orders.repository';

type Db = Kysely<OrdersDB>;
export type LibraryTokenRow = Selectable<LibraryTokensTable>;

/** True when the address (lower case) has a paid order: a link is worth sending. */
export async function hasPaidOrders(db: Db, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('orders')
    .select('id')
    .where(sql<string>`lower(email)`, '=', email)
    .where('payment_status', '=', 'paid')
    .limit(1)
    .executeTakeFirst();
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

/** The address's paid orders, newest first (the e-mail index's equality). */
export function paidOrdersOf(db: Db, email: string): Promise<OrderRow[]> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', email)
    .where('payment_status', '=', 'paid')
    .orderBy('created_at', 'desc')
    .limit(500)
    .execute();
}
