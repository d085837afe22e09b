// Every event that crosses a service boundary, with its payload. The routing
// key on the exchange is the event type (DESIGN §3).
import { Type, type Static } from '@sinclair/typebox';

export const EVENTS_EXCHANGE = 'persona.events';

export const EventEnvelopeSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  type: Type.String({ minLength: 1 }),
  occurredAt: Type.String({ format: 'date-time' }),
  correlationId: Type.String(),
  payload: Type.Unknown(),
});

/** Catalogue → admin audit. */
export interface BookChangedPayload {
  bookId: string;
  title: string;
  author: string;
  /** Paise, so consumers never see floats. */
  pricePaise: number;
  categoryId: string | null;
}
export interface BookDeletedPayload {
  bookId: string;
  title: string;
}
export interface CategoryChangedPayload {
  categoryId: string;
  name: string;
}
export interface CategoryDeletedPayload {
  categoryId: string;
  name: string;
}

/** Orders → personalisation, admin: the order is paid (once, whatever paid it). */
export interface OrderPaidPayload {
  orderId: string;
  personaId: string;
  bookId: string;
  buyerName: string;
  /** YYYY-MM-DD in India time. */
  purchaseDate: string;
  deliveryType: 'digital' | 'physical';
  amountPaise: number;
  paidAt: string;
}
/** Personalisation → orders, admin. */
export interface PersonaReadyPayload {
  orderId: string;
  personaId: string;
  sha256: string;
  pages: number;
}
export interface PersonaFailedPayload {
  orderId: string;
  personaId: string;
  reason: string;
}
/** Orders → admin audit. */
export interface DeliveryStatusChangedPayload {
  orderId: string;
  personaId: string;
  from: 'pending' | 'shipped' | 'delivered' | 'cancelled';
  to: 'pending' | 'shipped' | 'delivered' | 'cancelled';
}

/** Admin → admin audit: an administrator logged in. */
export interface AdminLoggedInPayload {
  adminId: string;
  email: string;
}

/** Type → payload. Add an entry here before publishing a new event. */
export interface EventPayloads {
  'order.paid': OrderPaidPayload;
  /** Orders → personalisation: an administrator asked for a failed Persona to be made again (same payload as order.paid). */
  'persona.retry_requested': OrderPaidPayload;
  'order.delivery_status_changed': DeliveryStatusChangedPayload;
  'persona.ready': PersonaReadyPayload;
  'persona.failed': PersonaFailedPayload;
  'admin.logged_in': AdminLoggedInPayload;
  'book.created': BookChangedPayload;
  'book.updated': BookChangedPayload;
  'book.deleted': BookDeletedPayload;
  'category.created': CategoryChangedPayload;
  'category.updated': CategoryChangedPayload;
  'category.deleted': CategoryDeletedPayload;
}
export type EventType = keyof EventPayloads;

export interface EventEnvelope<T extends string = string, P = unknown> {
  id: string;
  type: T;
  occurredAt: string;
  correlationId: string;
  payload: P;
}
export type EventOf<T extends EventType> = EventEnvelope<T, EventPayloads[T]>;
export type AnyEvent = Static<typeof EventEnvelopeSchema>;
