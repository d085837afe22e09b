import type { AuditEntry, OrderDetail } from '@persona/contracts';
import { emailKindLabel, orderTimeline } from './order-timeline';

const detail = {
  order: { createdAt: '2026-11-27T10:00:00.000Z', fullName: 'Zoë Ünal' },
  attempts: [
    { at: '2026-11-27T10:01:00.000Z', razorpayPaymentId: 'pay_1', outcome: 'failed', source: 'webhook', detail: 'card declined' },
    { at: '2026-11-27T10:02:00.000Z', razorpayPaymentId: 'pay_2', outcome: 'paid', source: 'verify', detail: null },
  ],
  emails: [
    { _id: 'e1', kind: 'order-confirmed', to: 'zoe@example.com', sentAt: '2026-11-27T10:03:00.000Z', resendOf: null },
    { _id: 'e2', kind: 'order-confirmed', to: 'zoe@example.com', sentAt: '2026-11-27T11:00:00.000Z', resendOf: 'e1' },
    { _id: 'e3', kind: 'gift-delivery', to: 'ravi@example.com', sentAt: null, resendOf: null },
  ],
} as unknown as OrderDetail;
const audit = [
  { _id: '1', type: 'order.paid', summary: 'Order PRS-1 paid: ₹349.50 (digital)', occurredAt: '2026-11-27T10:02:00.000Z', actor: null },
  { _id: '2', type: 'order.note_added', summary: 'Note added to order PRS-1', occurredAt: '2026-11-27T10:30:00.000Z', actor: 'owner@persona-books.in' },
] as unknown as AuditEntry[];

describe('the order timeline', () => {
  it('lists everything newest first: the audit log with who, the failed attempts, the e-mails sent, the order placed', () => {
    expect(orderTimeline(detail, audit).map((i) => [i.text, i.actor])).toEqual([
      ['Copy of the order confirmation e-mail sent to zoe@example.com', null],
      ['Note added to order PRS-1', 'owner@persona-books.in'],
      ['The order confirmation e-mail sent to zoe@example.com', null],
      ['Order PRS-1 paid: ₹349.50 (digital)', null],
      ['Payment failed: card declined (webhook)', null],
      ['Order placed by Zoë Ünal', null],
    ]);
  });

  it('names e-mails as a person would, and an unknown kind by its name', () => {
    expect(emailKindLabel('persona-ready')).toBe('"your Persona is ready" e-mail');
    expect(emailKindLabel('something-new')).toBe('something-new e-mail');
  });
});
