// Coupon codes (issue 23): the owner's codes (each change one transaction with its event for the
// audit log; a create carries the page's id and an edit the whole of the settings, so a second
// press changes nothing), their redemptions, and a code priced for a checkout before paying.
import { createEvent } from '@persona/bus';
import {
  computeOrderAmount,
  normalizeCouponCode,
  type Coupon,
  type CouponPrice,
  type CouponRedemption,
  type CreateCouponBody,
  type OrderAmount,
  type PriceCouponBody,
  type UpdateCouponBody,
} from '@persona/contracts';
import { isUniqueViolation } from '@persona/db';
import { badRequest, conflict, notFound } from '@persona/service-kit';
import type { Kysely } from 'kysely';
import type { OrdersDB } from '../../db';
import type { OrderChangeContext } from '../order-records/order-change-context';
import type { BookReader } from '../catalogue/catalogue-client';
import { couponDiscountPaise, couponRefusal, couponRefusalMessage, offerInWords, type CouponRule } from './coupon-pricing';
import * as repo from './coupons.repository';

export function toCoupon(row: repo.CouponRow): Coupon {
  return {
    _id: row.id,
    code: row.code,
    percentOff: row.percent_off,
    amountOffPaise: row.amount_off_paise,
    minOrderPaise: row.min_order_paise,
    validFrom: row.valid_from ? row.valid_from.toISOString() : null,
    validTo: row.valid_to ? row.valid_to.toISOString() : null,
    bookIds: row.book_ids,
    totalLimit: row.total_limit,
    perEmailLimit: row.per_email_limit,
    active: row.active,
    used: row.used,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function couponRule(row: repo.CouponRow): CouponRule {
  return {
    percentOff: row.percent_off,
    amountOffPaise: row.amount_off_paise,
    minOrderPaise: row.min_order_paise,
    validFrom: row.valid_from,
    validTo: row.valid_to,
    bookIds: row.book_ids,
    totalLimit: row.total_limit,
    perEmailLimit: row.per_email_limit,
    used: row.used,
    active: row.active,
  };
}

/** The body's settings as stored, or a 400 naming what is wrong. */
function settingsOf(body: UpdateCouponBody): repo.CouponSettings {
  if ((body.percentOff === null) === (body.amountOffPaise === null)) throw badRequest('A code takes either a percent or an amount off: give exactly one');
  const validFrom = body.validFrom ? new Date(body.validFrom) : null;
  const validTo = body.validTo ? new Date(body.validTo) : null;
  if (validFrom && validTo && validTo <= validFrom) throw badRequest('A code must end after it starts');
  return {
    code: normalizeCouponCode(body.code),
    percent_off: body.percentOff,
    amount_off_paise: body.amountOffPaise,
    min_order_paise: body.minOrderPaise,
    valid_from: validFrom,
    valid_to: validTo,
    book_ids: [...new Set(body.bookIds.map((id) => id.toLowerCase()))],
    total_limit: body.totalLimit,
    per_email_limit: body.perEmailLimit,
    active: body.active,
  };
}

const sameSettings = (row: repo.CouponRow, s: repo.CouponSettings) =>
  row.code === s.code &&
  row.percent_off === s.percent_off &&
  row.amount_off_paise === s.amount_off_paise &&
  row.min_order_paise === s.min_order_paise &&
  (row.valid_from?.getTime() ?? null) === (s.valid_from?.getTime() ?? null) &&
  (row.valid_to?.getTime() ?? null) === (s.valid_to?.getTime() ?? null) &&
  row.book_ids.join() === s.book_ids.join() &&
  row.total_limit === s.total_limit &&
  row.per_email_limit === s.per_email_limit &&
  row.active === s.active;

const codeTaken = (code: string) => conflict(`Another coupon already has the code ${code}`, 'COUPON_CODE_TAKEN');

const savedEvent = (type: 'coupon.created' | 'coupon.updated', row: repo.CouponRow, ctx: OrderChangeContext) =>
  createEvent(
    type,
    { couponId: row.id, code: row.code, offer: offerInWords(couponRule(row)), active: row.active },
    { correlationId: ctx.correlationId, actor: ctx.actor },
  );

/** Creates the code once per `couponId`: a second press answers the code as created. */
export async function createCoupon(ctx: OrderChangeContext, body: CreateCouponBody): Promise<Coupon> {
  const { couponId, ...fields } = body;
  const settings = settingsOf(fields);
  try {
    return await ctx.uow.run(async ({ trx, emit }) => {
      const created = await repo.insertCoupon(trx, couponId, settings, ctx.actor?.email ?? 'the shop');
      if (created) {
        await emit(savedEvent('coupon.created', created, ctx));
        return toCoupon(created);
      }
      const existing = (await repo.findCouponById(trx, couponId))!;
      if (existing.code !== settings.code) throw conflict('That coupon id belongs to another code', 'COUPON_ID_TAKEN');
      return toCoupon(existing);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw codeTaken(settings.code);
    throw err;
  }
}

/** Sets every setting of the code (an edit, or `active: false`); the same settings again change nothing and log nothing. */
export async function updateCoupon(ctx: OrderChangeContext, id: string, body: UpdateCouponBody): Promise<Coupon> {
  const settings = settingsOf(body);
  try {
    return await ctx.uow.run(async ({ trx, emit }) => {
      const current = await repo.findCouponForUpdate(trx, id);
      if (!current) throw notFound('Coupon not found');
      if (sameSettings(current, settings)) return toCoupon(current);
      const updated = (await repo.updateCoupon(trx, id, settings))!;
      await emit(savedEvent('coupon.updated', updated, ctx));
      return toCoupon(updated);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw codeTaken(settings.code);
    throw err;
  }
}

export async function listCoupons(db: Kysely<OrdersDB>): Promise<Coupon[]> {
  return (await repo.listCoupons(db)).map(toCoupon);
}

export async function couponRedemptions(db: Kysely<OrdersDB>, id: string): Promise<CouponRedemption[]> {
  if (!(await repo.findCouponById(db, id))) throw notFound('Coupon not found');
  const rows = await repo.redemptionsOf(db, id);
  return rows.map((r) => ({
    orderId: r.order_id,
    personaId: r.persona_id,
    email: r.email,
    discountPaise: r.discount_paise,
    state: r.state,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  }));
}

/** A code judged for a checkout: the code (when there is one), and the discount or why none. */
export interface PricedCoupon {
  coupon: repo.CouponRow | undefined;
  price: CouponPrice;
}

/**
 * Prices `code` for a checkout of `amount` (the book's, before any code). The e-mail's share is
 * judged only when the e-mail is known. The answer's amounts are the server's, with the code when
 * it applies and without it when not.
 */
export async function judgeCoupon(
  db: Kysely<OrdersDB>,
  checkout: { code: string; bookId: string; amount: OrderAmount; email?: string; now?: Date },
): Promise<PricedCoupon> {
  const code = normalizeCouponCode(checkout.code);
  const coupon = await repo.findCouponByCode(db, code);
  const price = (discountPaise: number, reason: CouponPrice['reason'], message: string): CouponPrice => ({
    code,
    applies: reason === null,
    reason,
    message,
    breakdown: {
      basePaise: checkout.amount.basePaise,
      printingPaise: checkout.amount.printingPaise,
      deliveryPaise: checkout.amount.deliveryPaise,
      discountPaise,
      totalPaise: checkout.amount.totalPaise - discountPaise,
    },
  });
  if (!coupon) return { coupon, price: price(0, 'unknown', couponRefusalMessage('unknown')) };
  const rule = couponRule(coupon);
  const email = checkout.email?.trim().toLowerCase();
  const emailUses = email ? await repo.emailUses(db, coupon.id, email) : undefined;
  const reason = couponRefusal(rule, { bookId: checkout.bookId.toLowerCase(), amount: checkout.amount, now: checkout.now ?? new Date(), emailUses });
  if (reason) return { coupon, price: price(0, reason, couponRefusalMessage(reason, rule)) };
  const discount = couponDiscountPaise(rule, checkout.amount);
  return { coupon, price: price(discount, null, `${code}: ${offerInWords(rule)} the book's price`) };
}

/** POST /api/coupons/price: the book read from the catalogue, its amounts computed here. */
export async function priceCoupon(db: Kysely<OrdersDB>, readBook: BookReader, body: PriceCouponBody, correlationId: string): Promise<CouponPrice> {
  const book = await readBook(body.book, correlationId);
  const amount = computeOrderAmount(book, body.deliveryType);
  return (await judgeCoupon(db, { code: body.code, bookId: book.id, amount, email: body.email })).price;
}
