// The admin's order calls (spec §7, DESIGN §6, §11): the list a page at a time (by cursor), the
// server-made orders.csv of every order the filters keep, delivery status, Persona retry, and the
// order page's actions (notes, e-mail copies, refunds, a Persona re-issued, a printed copy cancelled).
import {
  type AuditEntry,
  type CancelPrintBody,
  type Envelope,
  type ListOf,
  type Order,
  type OrderDetail,
  type OrderEmail,
  type OrderExportQuery,
  type OrderNote,
  type OrderRefund,
  type OrderQuery,
  type PersonaReissue,
  type ReissuePersonaBody,
  type UpdateDeliveryStatusBody,
} from '@persona/contracts';
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

/** The order page: everything the orders service knows of one order. */
export async function getOrderDetail(id: string, signal?: AbortSignal): Promise<OrderDetail> {
  return (await api.get<Envelope<OrderDetail>>(`/orders/${encodeURIComponent(id)}/detail`, undefined, signal)).data;
}

/** The order's lines of the audit log, newest first (its timeline's who and what). */
export async function getOrderTimeline(id: string, signal?: AbortSignal): Promise<AuditEntry[]> {
  return (await api.get<ListOf<AuditEntry>>('/admin/audit', { subject: id, limit: 100 }, signal)).data;
}

/** A private note; `noteId` is the page's, so a second press adds it once. */
export async function addOrderNote(id: string, note: { noteId: string; text: string }): Promise<OrderNote> {
  return (await api.post<Envelope<OrderNote>>(`/orders/${encodeURIComponent(id)}/notes`, note)).data;
}

/** A copy of a sent e-mail; `requestId` is the press's, so a retried request sends one copy. */
export async function resendOrderEmail(id: string, emailId: string, requestId: string): Promise<OrderEmail> {
  return (await api.post<Envelope<OrderEmail>>(`/orders/${encodeURIComponent(id)}/emails/${encodeURIComponent(emailId)}/resend`, { requestId })).data;
}

/** A refund of `amountPaise`; `refundId` is the form's, so a second press (or a retried request) makes one refund. */
export async function refundOrder(
  id: string,
  refund: { refundId: string; amountPaise: number; reason: string },
): Promise<{ refund: OrderRefund; message: string }> {
  const answer = await api.post<Envelope<OrderRefund> & { message?: string }>(`/orders/${encodeURIComponent(id)}/refunds`, refund);
  return { refund: answer.data, message: answer.message ?? '' };
}

/** A new Persona with corrected names; `reissueId` is the form's, so a second press makes one new Persona. */
export async function reissuePersona(id: string, body: ReissuePersonaBody): Promise<{ reissue: PersonaReissue; message: string }> {
  const answer = await api.post<Envelope<PersonaReissue> & { message?: string }>(`/orders/${encodeURIComponent(id)}/persona/reissue`, body);
  return { reissue: answer.data, message: answer.message ?? '' };
}

/** The printed copy cancelled before dispatch, with its refund; `cancelId` is the form's (and the refund's). */
export async function cancelPrint(id: string, body: CancelPrintBody): Promise<{ order: Order; message: string }> {
  const answer = await api.post<Envelope<Order> & { message?: string }>(`/orders/${encodeURIComponent(id)}/print/cancel`, body);
  return { order: answer.data, message: answer.message ?? '' };
}
