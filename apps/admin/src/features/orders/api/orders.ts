// The admin's order calls (spec §7, DESIGN §6, §11): the list a page at a time (by cursor), the
// server-made orders.csv of every order the filters keep, delivery status, Persona retry.
import { type DeliveryStatus, type Envelope, type ListOf, type Order, type OrderExportQuery, type OrderQuery } from '@persona/contracts';
import { api, apiDownload, type QueryValue } from '@persona/web-kit/api-client';

export function listOrders(query: OrderQuery, signal?: AbortSignal): Promise<ListOf<Order>> {
  return api.get<ListOf<Order>>('/orders', query as Record<string, QueryValue>, signal);
}

/** orders.csv, written by the server as a stream (a million orders never pass through a list page). */
export function exportOrders(filters: OrderExportQuery) {
  return apiDownload('/orders/export', { query: filters as Record<string, QueryValue> });
}

export async function updateDeliveryStatus(id: string, deliveryStatus: DeliveryStatus): Promise<Order> {
  return (await api.patch<Envelope<Order>>(`/orders/${encodeURIComponent(id)}/status`, { deliveryStatus })).data;
}

export async function retryPersona(id: string): Promise<Order> {
  return (await api.post<Envelope<Order>>(`/orders/${encodeURIComponent(id)}/persona/retry`, undefined)).data;
}
