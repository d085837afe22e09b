// The admin's order calls (spec §7, DESIGN §6, §11): the list a page at a time (by cursor), the
// server-made orders.csv of every order the filters keep, delivery status, Persona retry.
import { type Envelope, type ListOf, type Order, type OrderExportQuery, type OrderQuery, type UpdateDeliveryStatusBody } from '@persona/contracts';
import { api, apiDownload, type QueryValue } from '@persona/web-kit/api-client';

export function listOrders(query: OrderQuery, signal?: AbortSignal): Promise<ListOf<Order>> {
  return api.get<ListOf<Order>>('/orders', query as Record<string, QueryValue>, signal);
}

/** orders.csv, written by the server as a stream (a million orders never pass through a list page). */
export function exportOrders(filters: OrderExportQuery) {
  return apiDownload('/orders/export', { query: filters as Record<string, QueryValue> });
}

/** A printed copy's new delivery status; "shipped" may carry the carrier and the tracking number. */
export async function updateDeliveryStatus(id: string, change: UpdateDeliveryStatusBody): Promise<Order> {
  return (await api.patch<Envelope<Order>>(`/orders/${encodeURIComponent(id)}/status`, change)).data;
}

/** dispatch-list.csv: what a printer and a courier need of every paid printed copy the filters keep. */
export function exportDispatchList(filters: OrderExportQuery) {
  return apiDownload('/orders/dispatch-list', { query: filters as Record<string, QueryValue> });
}

export async function retryPersona(id: string): Promise<Order> {
  return (await api.post<Envelope<Order>>(`/orders/${encodeURIComponent(id)}/persona/retry`, undefined)).data;
}
