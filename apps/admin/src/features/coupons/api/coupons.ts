// The coupon calls: the owner's codes, a code saved (created with the page's id, or every setting
// of an existing one), its redemptions, and the books a code may be limited to.
import type { BookSummary, Coupon, CouponRedemption, Envelope, ListOf, UpdateCouponBody } from '@persona/contracts';
import { api } from '@persona/web-kit/api-client';

export async function listCoupons(signal?: AbortSignal): Promise<Coupon[]> {
  return (await api.get<Envelope<Coupon[]>>('/coupons', undefined, signal)).data;
}

/** A new code under `couponId` (made with the form: a second press creates it once), or an existing code's settings. */
export async function saveCoupon(body: UpdateCouponBody, target: { couponId: string } | { editing: string }): Promise<Coupon> {
  const answer =
    'editing' in target
      ? await api.put<Envelope<Coupon>>(`/coupons/${encodeURIComponent(target.editing)}`, body)
      : await api.post<Envelope<Coupon>>('/coupons', { couponId: target.couponId, ...body });
  return answer.data;
}

export async function couponRedemptions(id: string, signal?: AbortSignal): Promise<CouponRedemption[]> {
  return (await api.get<Envelope<CouponRedemption[]>>(`/coupons/${encodeURIComponent(id)}/redemptions`, undefined, signal)).data;
}

/** The shop's books (the first hundred, by title) for limiting a code to some of them. */
export async function listBooksForCoupons(signal?: AbortSignal): Promise<Array<Pick<BookSummary, '_id' | 'title' | 'author'>>> {
  return (await api.get<ListOf<BookSummary>>('/books', { limit: 100 }, signal)).data;
}
