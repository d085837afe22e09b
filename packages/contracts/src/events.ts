// Every event that crosses a service boundary, with its payload. The routing
// key on the exchange is the event type (DESIGN §3).
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';

export const EVENTS_EXCHANGE = 'persona.events';

/** Who caused an event: the administrator whose request it was. Absent for the shop's own work (payments, Personas). */
export const EventActor = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 100 }), email: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export type EventActor = Static<typeof EventActor>;

export const EventEnvelopeSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  type: Type.String({ minLength: 1 }),
  occurredAt: Type.String({ format: 'date-time' }),
  correlationId: Type.String(),
  actor: Type.Optional(EventActor),
  payload: Type.Unknown(),
});

const Uuid = Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' });
const Text = Type.String({ minLength: 1, maxLength: 2000 });
const Paise = Type.Integer({ minimum: 0 });
const DeliveryStatusName = Type.Union([Type.Literal('pending'), Type.Literal('shipped'), Type.Literal('delivered'), Type.Literal('cancelled')]);

/** Catalogue → admin audit. */
export const BookChangedPayload = Type.Object({
  bookId: Uuid,
  title: Text,
  author: Text,
  /** Paise, so consumers never see floats. */
  pricePaise: Paise,
  categoryId: Type.Union([Uuid, Type.Null()]),
});
export type BookChangedPayload = Static<typeof BookChangedPayload>;
export const BookDeletedPayload = Type.Object({ bookId: Uuid, title: Text });
export type BookDeletedPayload = Static<typeof BookDeletedPayload>;
export const CategoryChangedPayload = Type.Object({ categoryId: Uuid, name: Text });
export type CategoryChangedPayload = Static<typeof CategoryChangedPayload>;
export const CategoryDeletedPayload = Type.Object({ categoryId: Uuid, name: Text });
export type CategoryDeletedPayload = Static<typeof CategoryDeletedPayload>;

/** Orders → personalisation, admin: the order is paid (once, whatever paid it). */
export const OrderPaidPayload = Type.Object({
  orderId: Uuid,
  personaId: Text,
  bookId: Uuid,
  buyerName: Text,
  /** YYYY-MM-DD in India time. */
  purchaseDate: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  deliveryType: Type.Union([Type.Literal('digital'), Type.Literal('physical')]),
  amountPaise: Paise,
  paidAt: Text,
  /** A gift: the name printed instead of the buyer's, and the message for the dedication page. */
  gift: Type.Optional(
    Type.Object({ recipientName: Text, message: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })) }, { additionalProperties: false }),
  ),
});
export type OrderPaidPayload = Static<typeof OrderPaidPayload>;
/** Personalisation → orders, admin. */
export const PersonaReadyPayload = Type.Object({
  orderId: Uuid,
  personaId: Text,
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  pages: Type.Integer({ minimum: 1 }),
  /** The files made: the PDF, and an EPUB for a book typeset from its text (absent: the PDF only). */
  formats: Type.Optional(Type.Array(Type.Union([Type.Literal('pdf'), Type.Literal('epub')]), { minItems: 1, maxItems: 2 })),
  /**
   * A printed copy's print files (issue 27): made, and whether they passed the preflight (ready to
   * print, fetched at printFileUrl), with what it found; absent for a digital copy.
   */
  print: Type.Optional(Type.Object({ ready: Type.Boolean(), pages: Type.Integer({ minimum: 1 }), problems: Type.Array(Type.String()) })),
});
export type PersonaReadyPayload = Static<typeof PersonaReadyPayload>;
export const PersonaFailedPayload = Type.Object({ orderId: Uuid, personaId: Text, reason: Type.String() });
export type PersonaFailedPayload = Static<typeof PersonaFailedPayload>;
/** Orders → admin audit. */
export const DeliveryStatusChangedPayload = Type.Object({ orderId: Uuid, personaId: Text, from: DeliveryStatusName, to: DeliveryStatusName });
export type DeliveryStatusChangedPayload = Static<typeof DeliveryStatusChangedPayload>;

/** Orders → admin audit: an administrator wrote a private note on an order. */
export const OrderNoteAddedPayload = Type.Object({ orderId: Uuid, personaId: Text, noteId: Uuid });
export type OrderNoteAddedPayload = Static<typeof OrderNoteAddedPayload>;
/** Orders → admin audit: an administrator had an order's e-mail sent again. */
export const OrderEmailResentPayload = Type.Object({ orderId: Uuid, personaId: Text, emailId: Uuid, kind: Text, to: Text });
export type OrderEmailResentPayload = Static<typeof OrderEmailResentPayload>;

/** Orders → admin audit: a refund asked for, and each change of its state (issue 23). */
export const RefundChangedPayload = Type.Object({
  orderId: Uuid,
  personaId: Text,
  refundId: Uuid,
  amountPaise: Paise,
  status: Type.Union([Type.Literal('requested'), Type.Literal('pending'), Type.Literal('processed'), Type.Literal('failed')]),
  /** A failed refund's reason, in plain words. */
  failure: Type.Optional(Text),
});
export type RefundChangedPayload = Static<typeof RefundChangedPayload>;

/**
 * Orders → personalisation, admin audit: the order's refunds processed reach what was paid, in the
 * transaction that records the last of them. Its Personas stay genuine; their licence ends.
 */
export const OrderRefundedInFullPayload = Type.Object({ orderId: Uuid, personaId: Text, refundedAt: Text });
export type OrderRefundedInFullPayload = Static<typeof OrderRefundedInFullPayload>;

/**
 * Orders → personalisation, admin audit: an administrator re-issued the order's Persona with a
 * corrected name or message. The new Persona is made like any other (the order's details, the new
 * id); once it is ready, the one it replaces is marked replaced and downloads no more.
 */
export const PersonaReissueRequestedPayload = Type.Intersect([OrderPaidPayload, Type.Object({ reissueId: Uuid, replacesPersonaId: Text, reason: Text })]);
export type PersonaReissueRequestedPayload = Static<typeof PersonaReissueRequestedPayload>;

/** Orders → admin audit: an administrator created or changed a coupon code (issue 23). */
export const CouponSavedPayload = Type.Object({
  couponId: Uuid,
  code: Text,
  /** "20% off", "₹100.00 off": what the code takes off. */
  offer: Text,
  active: Type.Boolean(),
});
export type CouponSavedPayload = Static<typeof CouponSavedPayload>;

/**
 * Personalisation → orders, admin audit: the holder of a Persona's id found its downloads used up
 * and asked for more. Orders e-mails the link (its single-use token, valid until `expiresAt`) to the
 * buyer's address on the order, never to an address a visitor types.
 */
export const PersonaDownloadRenewalRequestedPayload = Type.Object({
  personaId: Text,
  orderId: Uuid,
  renewalId: Uuid,
  token: Type.String({ minLength: 20, maxLength: 100 }),
  expiresAt: Text,
  /** What the allowance was when it was asked for: "downloaded 10 times, the most for each format". */
  used: Type.Integer({ minimum: 0 }),
  limit: Type.Integer({ minimum: 1 }),
});
export type PersonaDownloadRenewalRequestedPayload = Static<typeof PersonaDownloadRenewalRequestedPayload>;

/** Personalisation → admin audit: an administrator gave a Persona a fresh download allowance, or stopped its downloads. */
export const PersonaDownloadsChangedPayload = Type.Object({ personaId: Text, orderId: Uuid, reason: Text });
export type PersonaDownloadsChangedPayload = Static<typeof PersonaDownloadsChangedPayload>;

/** Admin → admin audit: an administrator logged in. */
export const AdminLoggedInPayload = Type.Object({ adminId: Uuid, email: Text });
export type AdminLoggedInPayload = Static<typeof AdminLoggedInPayload>;
/** Admin → admin audit: an administrator deleted a visitor's message. */
export const FeedbackDeletedPayload = Type.Object({ feedbackId: Uuid, name: Text });
export type FeedbackDeletedPayload = Static<typeof FeedbackDeletedPayload>;
/** Admin → admin audit: an administrator marked a visitor's message handled, or waiting again. */
export const FeedbackHandledPayload = Type.Object({ feedbackId: Uuid, name: Text, handled: Type.Boolean() });
export type FeedbackHandledPayload = Static<typeof FeedbackHandledPayload>;
/**
 * Admin → orders (its mail relay sends it) and the admin audit: an administrator answered a
 * visitor's message; the answer goes to the sender's address, from the shop.
 */
export const FeedbackAnsweredPayload = Type.Object({
  feedbackId: Uuid,
  name: Text,
  email: Text,
  /** The visitor's message, quoted under the answer (as long as a message may be). */
  message: Type.String({ minLength: 1, maxLength: 5000 }),
  answer: Type.String({ minLength: 1, maxLength: 5000 }),
  /** What the message was about: a book's title, or null for a general message. */
  bookTitle: Type.Union([Text, Type.Null()]),
});
export type FeedbackAnsweredPayload = Static<typeof FeedbackAnsweredPayload>;

/** Type → payload schema: every event the shop publishes. Add an entry here before publishing a new event. */
export const EVENT_PAYLOADS = {
  'order.paid': OrderPaidPayload,
  /** Orders → personalisation: an administrator asked for a failed Persona to be made again (same payload as order.paid). */
  'persona.retry_requested': OrderPaidPayload,
  'order.delivery_status_changed': DeliveryStatusChangedPayload,
  'order.note_added': OrderNoteAddedPayload,
  'order.email_resent': OrderEmailResentPayload,
  'order.refund_changed': RefundChangedPayload,
  'coupon.created': CouponSavedPayload,
  'coupon.updated': CouponSavedPayload,
  'order.refunded_in_full': OrderRefundedInFullPayload,
  'persona.reissue_requested': PersonaReissueRequestedPayload,
  'persona.ready': PersonaReadyPayload,
  'persona.failed': PersonaFailedPayload,
  'persona.download_renewal_requested': PersonaDownloadRenewalRequestedPayload,
  'persona.downloads_reset': PersonaDownloadsChangedPayload,
  'persona.downloads_revoked': PersonaDownloadsChangedPayload,
  'admin.logged_in': AdminLoggedInPayload,
  'feedback.deleted': FeedbackDeletedPayload,
  'feedback.handled': FeedbackHandledPayload,
  'feedback.answered': FeedbackAnsweredPayload,
  'book.created': BookChangedPayload,
  'book.updated': BookChangedPayload,
  'book.deleted': BookDeletedPayload,
  'category.created': CategoryChangedPayload,
  'category.updated': CategoryChangedPayload,
  'category.deleted': CategoryDeletedPayload,
} satisfies Record<string, TSchema>;

/** Type → payload. */
export type EventPayloads = { [K in keyof typeof EVENT_PAYLOADS]: Static<(typeof EVENT_PAYLOADS)[K]> };
export type EventType = keyof EventPayloads;

const ENVELOPE = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  type: Type.String({ minLength: 1, maxLength: 100 }),
  occurredAt: Type.String({ minLength: 1 }),
  correlationId: Type.String({ maxLength: 200 }),
  actor: Type.Optional(EventActor),
  payload: Type.Unknown(),
});
type Checker = ReturnType<typeof TypeCompiler.Compile>;
// Compiled on first use, by the services only (the browser never checks events).
let checkers: { envelope: Checker; payload: Record<string, Checker> } | null = null;
function compiled() {
  checkers ??= {
    envelope: TypeCompiler.Compile(ENVELOPE),
    payload: Object.fromEntries(Object.entries(EVENT_PAYLOADS).map(([type, schema]) => [type, TypeCompiler.Compile(schema)])),
  };
  return checkers;
}

/**
 * What is wrong with a message as one of the shop's events, or null when nothing is: the
 * envelope's fields, a known type, and the payload its schema describes. The bus checks every
 * event with it on publish and on consume (a malformed message is dead-lettered with this reason).
 */
export function eventProblem(message: unknown): string | null {
  const { envelope, payload } = compiled();
  if (!envelope.Check(message)) {
    const first = envelope.Errors(message).First();
    return `not an event envelope${first ? ` (${first.path || '/'}: ${first.message})` : ''}`;
  }
  const { type } = message as { type: string };
  const check = Object.hasOwn(payload, type) ? payload[type] : undefined;
  if (!check) return `unknown event type ${JSON.stringify(type)}`;
  const body = (message as { payload: unknown }).payload;
  if (!check.Check(body)) {
    const first = check.Errors(body).First();
    return `${type} payload: ${first ? `${first.path || '/'} ${first.message}` : 'invalid'}`;
  }
  return null;
}

export interface EventEnvelope<T extends string = string, P = unknown> {
  id: string;
  type: T;
  occurredAt: string;
  correlationId: string;
  /** The administrator whose request caused the event; absent for the shop's own work. */
  actor?: EventActor;
  payload: P;
}
export type EventOf<T extends EventType> = EventEnvelope<T, EventPayloads[T]>;
export type AnyEvent = Static<typeof EventEnvelopeSchema>;
