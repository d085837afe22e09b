// Coupon codes on the wire (issue 23): the owner's codes and their redemptions, and a code priced
// for a checkout. The server computes every amount; the client sends a code, never a figure.
import { Type, type Static } from '@sinclair/typebox';
import { Id } from './common';

/** Letters, digits and dashes; case does not matter (the shop keeps and compares it in capitals). */
export const COUPON_CODE_PATTERN = '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,30}[A-Za-z0-9])?$';
export const CouponCode = Type.String({ minLength: 1, maxLength: 32, pattern: COUPON_CODE_PATTERN });

/** A code as the shop keeps and compares it. */
export function normalizeCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

/** Why a code does not apply to a checkout; each has its sentence for the buyer (COUPON_REFUSALS). */
export const COUPON_REFUSAL_REASONS = [
  'unknown',
  'inactive',
  'not-yet-valid',
  'expired',
  'below-minimum',
  'not-for-this-book',
  'used-up',
  'used-by-you',
] as const;
export type CouponRefusalReason = (typeof COUPON_REFUSAL_REASONS)[number];

const Timestamp = Type.String({ format: 'date-time' });
const Limit = Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), Type.Null()]);

/** What the owner sets on a code: exactly one of percentOff and amountOffPaise. Empty bookIds: every book. Null limits: none. */
const couponFields = {
  code: CouponCode,
  percentOff: Type.Union([Type.Integer({ minimum: 1, maximum: 100 }), Type.Null()]),
  amountOffPaise: Type.Union([Type.Integer({ minimum: 1, maximum: 100_000_000 }), Type.Null()]),
  minOrderPaise: Type.Integer({ minimum: 0, maximum: 100_000_000 }),
  validFrom: Type.Union([Timestamp, Type.Null()]),
  validTo: Type.Union([Timestamp, Type.Null()]),
  bookIds: Type.Array(Id, { maxItems: 200 }),
  totalLimit: Limit,
  perEmailLimit: Limit,
  active: Type.Boolean(),
};

/** A new code; `couponId` is made by the admin page, so a second press creates it once. */
export const CreateCouponBody = Type.Object({ couponId: Id, ...couponFields }, { additionalProperties: false });
export type CreateCouponBody = Static<typeof CreateCouponBody>;

/** A code's settings, all of them (an edit, or a deactivation: `active: false`); the same body twice changes it once. */
export const UpdateCouponBody = Type.Object(couponFields, { additionalProperties: false });
export type UpdateCouponBody = Static<typeof UpdateCouponBody>;

export const Coupon = Type.Object({
  _id: Id,
  ...couponFields,
  /** Redemptions held (reserved at a checkout, or final once paid); released ones are not counted. */
  used: Type.Integer({ minimum: 0 }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Coupon = Static<typeof Coupon>;

export const COUPON_REDEMPTION_STATES = ['reserved', 'final', 'released'] as const;
export type CouponRedemptionState = (typeof COUPON_REDEMPTION_STATES)[number];

/** One order's use of a code: reserved when its payment starts, final once paid, released when the payment fails, expires or is refunded. */
export const CouponRedemption = Type.Object({
  orderId: Id,
  personaId: Type.String(),
  email: Type.String(),
  discountPaise: Type.Integer({ minimum: 0 }),
  state: Type.Union([Type.Literal('reserved'), Type.Literal('final'), Type.Literal('released')]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type CouponRedemption = Static<typeof CouponRedemption>;

/** A code priced for one checkout (the buyer's book, format and e-mail), before paying. */
export const PriceCouponBody = Type.Object(
  {
    code: CouponCode,
    book: Id,
    deliveryType: Type.Union([Type.Literal('digital'), Type.Literal('physical')]),
    /** Absent: the per-e-mail limit is checked when the payment starts. */
    email: Type.Optional(Type.String({ format: 'email', maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type PriceCouponBody = Static<typeof PriceCouponBody>;

/** The checkout's amounts with the code (paise), or why it does not apply (and the amounts without it). */
export const CouponPrice = Type.Object({
  code: Type.String(),
  applies: Type.Boolean(),
  reason: Type.Union([Type.Union(COUPON_REFUSAL_REASONS.map((r) => Type.Literal(r))), Type.Null()]),
  /** For the buyer: the discount, or the reason in words. */
  message: Type.String(),
  breakdown: Type.Object({
    basePaise: Type.Integer(),
    printingPaise: Type.Integer(),
    deliveryPaise: Type.Integer(),
    discountPaise: Type.Integer({ minimum: 0 }),
    totalPaise: Type.Integer(),
  }),
});
export type CouponPrice = Static<typeof CouponPrice>;
