// A coupon code priced for this checkout: the server answers the discount and the new total, or
// why the code does not apply. The page sends the code, never a figure.
import type { CouponPrice, DeliveryType, Envelope } from '@persona/contracts';
import { api } from '@persona/web-kit/api-client';

export async function priceCoupon(
  body: { code: string; book: string; deliveryType: DeliveryType; email?: string },
  signal?: AbortSignal,
): Promise<CouponPrice> {
  return (await api.post<Envelope<CouponPrice>>('/coupons/price', body, signal)).data;
}
