// The admin's order calls (spec §7, DESIGN §6): the paged list with filters, delivery status, Persona retry.
import { MAX_PAGE_SIZE, type DeliveryStatus, type Envelope, type ListOf, type Order, type OrderQuery } from '@persona/contracts';
import { api, type QueryValue } from '@persona/web-kit/api-client';

export function listOrders(query: OrderQuery, signal?: AbortSignal): Promise<ListOf<Order>> {
  return api.get<ListOf<Order>>('/orders', query as Record<string, QueryValue>, signal);
}

/** Every order matching the filters, page after page (the CSV export). */
export async function listAllOrders(query: Omit<OrderQuery, 'page' | 'limit'>): Promise<Order[]> {
  const orders: Order[] = [];
  for (let page = 1; ; page++) {
    const answer = await listOrders({ ...query, page, limit: MAX_PAGE_SIZE });
    orders.push(...answer.data);
    if (answer.data.length === 0 || orders.length >= answer.meta.total) return orders;
  }
}

export async function updateDeliveryStatus(id: string, deliveryStatus: DeliveryStatus): Promise<Order> {
  return (await api.patch<Envelope<Order>>(`/orders/${encodeURIComponent(id)}/status`, { deliveryStatus })).data;
}

export async function retryPersona(id: string): Promise<Order> {
  return (await api.post<Envelope<Order>>(`/orders/${encodeURIComponent(id)}/persona/retry`, undefined)).data;
}
