// All kysely code for coupon codes and their redemptions. The counts move only with conditional
// UPDATEs (`… WHERE used < limit RETURNING`), so concurrent checkouts never pass a limit.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { CouponRedemptionState, CouponRedemptionsTable, CouponsTable, OrdersDB } from '../../db';

type Db = Kysely<OrdersDB>;
export type CouponRow = Selectable<CouponsTable>;
export type RedemptionRow = Selectable<CouponRedemptionsTable>;

/** A code's settings as stored (code in capitals, e-mail limits and all). */
export interface CouponSettings {
  code: string;
  percent_off: number | null;
  amount_off_paise: number | null;
  min_order_paise: number;
  valid_from: Date | null;
  valid_to: Date | null;
  book_ids: string[];
  total_limit: number | null;
  per_email_limit: number | null;
  active: boolean;
}

/** Inserts the code once per id: undefined when the id exists already (a second press). */
export function insertCoupon(db: Db, id: string, settings: CouponSettings, createdBy: string): Promise<CouponRow | undefined> {
  return db
    .insertInto('coupons')
    .values({ id, ...settings, created_by: createdBy })
    .onConflict((oc) => oc.column('id').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function updateCoupon(db: Db, id: string, settings: CouponSettings): Promise<CouponRow | undefined> {
  return db
    .updateTable('coupons')
    .set({ ...settings, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export const findCouponById = (db: Db, id: string) => db.selectFrom('coupons').selectAll().where('id', '=', id).executeTakeFirst();
export const findCouponForUpdate = (db: Db, id: string) => db.selectFrom('coupons').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
export const findCouponByCode = (db: Db, code: string) => db.selectFrom('coupons').selectAll().where('code', '=', code).executeTakeFirst();

/** Every code, the newest first (a shop has tens, not thousands). */
export function listCoupons(db: Db, limit = 500): Promise<CouponRow[]> {
  return db.selectFrom('coupons').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
}

/** How many of the code's redemptions an e-mail (lower case) holds. */
export async function emailUses(db: Db, couponId: string, email: string): Promise<number> {
  const row = await db.selectFrom('coupon_email_uses').select('used').where('coupon_id', '=', couponId).where('email', '=', email).executeTakeFirst();
  return row?.used ?? 0;
}

/** A code's redemptions with their orders' Persona ids, the newest first. */
export function redemptionsOf(db: Db, couponId: string, limit = 1000) {
  return db
    .selectFrom('coupon_redemptions as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select(['r.order_id', 'r.email', 'r.discount_paise', 'r.state', 'r.created_at', 'r.updated_at', 'o.persona_id'])
    .where('r.coupon_id', '=', couponId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.order_id')
    .limit(limit)
    .execute();
}

/** Takes one of the code's redemptions if the code is active and under its limit (the row stays locked to the end of the transaction); undefined when not. */
export function takeCouponUse(db: Db, couponId: string): Promise<CouponRow | undefined> {
  return db
    .updateTable('coupons')
    .set({ used: sql`used + 1` })
    .where('id', '=', couponId)
    .where('active', '=', true)
    .where((eb) => eb.or([eb('total_limit', 'is', null), eb('used', '<', eb.ref('total_limit'))]))
    .returningAll()
    .executeTakeFirst();
}

/**
 * Takes one of the e-mail's redemptions of the code if it holds fewer than `limit` (null: no
 * limit, always taken): the row is inserted, or updated under its lock, so two checkouts with one
 * e-mail cannot both pass. False when the e-mail has used its share.
 */
export async function takeEmailUse(db: Db, couponId: string, email: string, limit: number | null): Promise<boolean> {
  const row = await db
    .insertInto('coupon_email_uses')
    .values({ coupon_id: couponId, email, used: 1 })
    .onConflict((oc) => {
      const update = oc.columns(['coupon_id', 'email']).doUpdateSet({ used: sql`coupon_email_uses.used + 1` });
      return limit === null ? update : update.where('coupon_email_uses.used', '<', limit);
    })
    .returning('used')
    .executeTakeFirst();
  return row !== undefined;
}

/** Gives a redemption back: the code's count and the e-mail's, each one less. */
export async function giveUseBack(db: Db, couponId: string, email: string): Promise<void> {
  await db
    .updateTable('coupons')
    .set({ used: sql`used - 1` })
    .where('id', '=', couponId)
    .where('used', '>', 0)
    .execute();
  await db
    .updateTable('coupon_email_uses')
    .set({ used: sql`used - 1` })
    .where('coupon_id', '=', couponId)
    .where('email', '=', email)
    .where('used', '>', 0)
    .execute();
}

/** Takes a redemption whatever the limits (an order paid at its discounted price after its hold was given back). */
export async function takeUseAnyway(db: Db, couponId: string, email: string): Promise<void> {
  await db
    .updateTable('coupons')
    .set({ used: sql`used + 1` })
    .where('id', '=', couponId)
    .execute();
  await takeEmailUse(db, couponId, email, null);
}

export async function insertRedemption(db: Db, row: { order_id: string; coupon_id: string; email: string; discount_paise: number }): Promise<void> {
  await db
    .insertInto('coupon_redemptions')
    .values({ ...row, state: 'reserved' })
    .execute();
}

export const findRedemptionForUpdate = (db: Db, orderId: string) =>
  db.selectFrom('coupon_redemptions').selectAll().where('order_id', '=', orderId).forUpdate().executeTakeFirst();

/** Moves the order's redemption to `to` from one of `from`; answers it when it moved. */
export function setRedemptionState(
  db: Db,
  orderId: string,
  from: readonly CouponRedemptionState[],
  to: CouponRedemptionState,
): Promise<RedemptionRow | undefined> {
  return db
    .updateTable('coupon_redemptions')
    .set({ state: to, updated_at: new Date() })
    .where('order_id', '=', orderId)
    .where('state', 'in', from)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Claims up to `limit` reservations made before `before` whose orders are not paid (SKIP LOCKED:
 * two sweeps take different ones), locked until the caller's transaction ends.
 */
export function claimStaleReservations(db: Db, before: Date, limit: number): Promise<Array<{ order_id: string }>> {
  return db
    .selectFrom('coupon_redemptions as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select('r.order_id')
    .where('r.state', '=', 'reserved')
    .where('r.created_at', '<', before)
    .where('o.payment_status', '<>', 'paid')
    .orderBy('r.created_at')
    .limit(limit)
    .forUpdate('r')
    .skipLocked()
    .execute();
}
