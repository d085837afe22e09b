// The order page's timeline: one list, newest first, of everything that happened to an order —
// the audit log's lines (who did what: payment, Persona, delivery, notes, e-mail copies), and
// what only the orders service records: the order placed, each payment attempt that did not pay,
// each e-mail sent. An attempt that paid is the audit log's "paid" line already.
import type { AuditEntry, OrderDetail } from '@persona/contracts';

export interface TimelineItem {
  key: string;
  at: string;
  text: string;
  /** The administrator who did it; null for the shop's own work and the buyer's. */
  actor: string | null;
}

const EMAIL_KINDS: Record<string, string> = {
  'order-confirmed': 'order confirmation',
  'persona-ready': '"your Persona is ready"',
  'gift-delivery': 'gift',
  'persona-failed': '"your Persona could not be made"',
  'persona-failed-alert': "shop's alert",
  shipped: '"shipped"',
  delivered: '"delivered"',
  cancelled: '"cancelled"',
  'download-renewal': '"more downloads" link',
};

/** "order confirmation e-mail", for the timeline and the e-mail table. */
export function emailKindLabel(kind: string): string {
  return `${EMAIL_KINDS[kind] ?? kind} e-mail`;
}

export function orderTimeline(detail: OrderDetail, audit: readonly AuditEntry[]): TimelineItem[] {
  const items: TimelineItem[] = [
    { key: 'placed', at: detail.order.createdAt, text: `Order placed by ${detail.order.fullName}`, actor: null },
    ...detail.attempts
      .filter((a) => a.outcome !== 'paid')
      .map((a, i) => ({
        key: `attempt-${i}`,
        at: a.at,
        text: `Payment ${a.outcome.replace('-', ' ')}${a.detail ? `: ${a.detail}` : ''} (${a.source})`,
        actor: null,
      })),
    ...detail.emails
      .filter((e) => e.sentAt)
      .map((e) => ({
        key: `email-${e._id}`,
        at: e.sentAt!,
        text: `${e.resendOf ? 'Copy of the ' : 'The '}${emailKindLabel(e.kind)} sent to ${e.to}`,
        actor: null,
      })),
    ...audit.map((a) => ({ key: `audit-${a._id}`, at: a.occurredAt, text: a.summary, actor: a.actor })),
  ];
  // Newest first; the same moment keeps the order above (placed before paid).
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => Date.parse(b.item.at) - Date.parse(a.item.at) || b.index - a.index)
    .map(({ item }) => item);
}
