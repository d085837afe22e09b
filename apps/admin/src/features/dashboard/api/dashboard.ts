// The dashboard's calls: the orders service's summary, the latest paid orders, and how many
// messages came in lately.
import type { Envelope, Feedback, ListOf, Order, OrderSummary } from '@persona/contracts';
import { api } from '@persona/web-kit/api-client';

export async function getOrderSummary(signal?: AbortSignal): Promise<OrderSummary> {
  return (await api.get<Envelope<OrderSummary>>('/orders/summary', undefined, signal)).data;
}

/** The messages received from the shop's day `from` on: only their count is read (one row). */
export function messagesSince(from: string, signal?: AbortSignal): Promise<ListOf<Feedback>> {
  return api.get<ListOf<Feedback>>('/feedback/all', { from, limit: 1 }, signal);
}

/** The latest paid orders, newest first. */
export function recentPaidOrders(limit: number, signal?: AbortSignal): Promise<ListOf<Order>> {
  return api.get<ListOf<Order>>('/orders', { paymentStatus: 'paid', limit }, signal);
}
