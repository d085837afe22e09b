// A redemption's life (issue 23, DESIGN §4): reserved in the transaction that creates the order
// (the code's count and the e-mail's taken under their limits), final when the order is paid,
// released (both counts given back) when its payment fails, when the checkout is left longer than
// COUPON_HOLD_MS, or when the order is refunded in full. A buyer who pays after the hold was given
// back paid the discounted price: the redemption is taken again, whatever the limit, rather than
// charge anyone a price the shop did not offer.
import { conflict, type Logger } from '@persona/service-kit';
import type { Kysely } from 'kysely';
import type { CouponRedemptionState, OrdersDB } from '../../db';
import { couponErrorCode, couponRefusalMessage } from './coupon-pricing';
import * as repo from './coupons.repository';

/** How long a checkout holds its code unpaid (Razorpay's checkout lets a buyer retry for about this long). */
export const COUPON_HOLD_MS = 30 * 60_000;

/** The redemption a new order takes: its code, the buyer's e-mail (lower case) and the discount it was priced with. */
export interface CouponHold {
  couponId: string;
  email: string;
  discountPaise: number;
}

/**
 * Reserves one redemption of the code for the buyer's e-mail, in the caller's transaction (before
 * the order's insert): a 409 with the reason when the code is used up, or by this e-mail, or no
 * longer active. Answers the code as it is now, locked to the end of the transaction.
 */
export async function reserveCouponUse(trx: Kysely<OrdersDB>, hold: CouponHold): Promise<repo.CouponRow> {
  const coupon = await repo.takeCouponUse(trx, hold.couponId);
  if (!coupon) {
    const current = await repo.findCouponById(trx, hold.couponId);
    const reason = current?.active ? 'used-up' : 'inactive';
    throw conflict(couponRefusalMessage(reason), couponErrorCode(reason));
  }
  if (!(await repo.takeEmailUse(trx, hold.couponId, hold.email, coupon.per_email_limit))) {
    throw conflict(couponRefusalMessage('used-by-you'), couponErrorCode('used-by-you'));
  }
  return coupon;
}

/** Records the order's reserved redemption (after the order's insert, in the same transaction). */
export function recordReservation(trx: Kysely<OrdersDB>, orderId: string, hold: CouponHold): Promise<void> {
  return repo.insertRedemption(trx, { order_id: orderId, coupon_id: hold.couponId, email: hold.email, discount_paise: hold.discountPaise });
}

/** The order is paid: its redemption is final (taken again if its hold had been given back). Nothing for an order without a code. */
export async function finalizeRedemption(trx: Kysely<OrdersDB>, orderId: string): Promise<void> {
  const redemption = await repo.findRedemptionForUpdate(trx, orderId);
  if (!redemption || redemption.state === 'final') return;
  if (redemption.state === 'released') await repo.takeUseAnyway(trx, redemption.coupon_id, redemption.email);
  await repo.setRedemptionState(trx, orderId, [redemption.state], 'final');
}

/** Gives the order's redemption back if it is in one of `from`; true when it was. */
export async function releaseRedemption(trx: Kysely<OrdersDB>, orderId: string, from: readonly CouponRedemptionState[]): Promise<boolean> {
  const released = await repo.setRedemptionState(trx, orderId, from, 'released');
  if (!released) return false;
  await repo.giveUseBack(trx, released.coupon_id, released.email);
  return true;
}

/** Gives back the holds of checkouts left unpaid longer than `holdMs`; resolves with how many. */
export async function releaseStaleReservations(db: Kysely<OrdersDB>, log?: Logger, now = new Date(), holdMs = COUPON_HOLD_MS, limit = 100): Promise<number> {
  const released = await db.transaction().execute(async (trx) => {
    const rows = await repo.claimStaleReservations(trx, new Date(now.getTime() - holdMs), limit);
    let count = 0;
    for (const row of rows) if (await releaseRedemption(trx, row.order_id, ['reserved'])) count += 1;
    return count;
  });
  if (released > 0) log?.info({ released }, 'coupon holds of unpaid checkouts given back');
  return released;
}
