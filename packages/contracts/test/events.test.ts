// Every event's payload has a schema; a message is one of the shop's events only when its
// envelope, its type and its payload all hold.
import { randomUUID } from 'node:crypto';
import { EVENT_PAYLOADS, eventProblem, type EventPayloads, type EventType } from '../src';

const envelope = <T extends EventType>(type: T, payload: EventPayloads[T]) => ({
  id: randomUUID(),
  type,
  occurredAt: new Date().toISOString(),
  correlationId: 'c-1',
  payload,
});

const paid: EventPayloads['order.paid'] = {
  orderId: randomUUID(),
  personaId: 'PB-7Q4M-2KX9-HT3D',
  bookId: randomUUID(),
  buyerName: 'Ananya Rao',
  purchaseDate: '2026-11-24',
  deliveryType: 'digital',
  amountPaise: 34900,
  paidAt: new Date().toISOString(),
};

describe('event schemas', () => {
  it('accepts each event as the services publish it', () => {
    expect(eventProblem(envelope('order.paid', paid))).toBeNull();
    expect(eventProblem(envelope('persona.retry_requested', paid))).toBeNull();
    expect(eventProblem(envelope('persona.ready', { orderId: paid.orderId, personaId: paid.personaId, sha256: 'a'.repeat(64), pages: 312 }))).toBeNull();
    expect(
      eventProblem(envelope('book.updated', { bookId: randomUUID(), title: 'Rain Ledger', author: 'Meera Nair', pricePaise: 49900, categoryId: null })),
    ).toBeNull();
    expect(
      eventProblem(envelope('order.delivery_status_changed', { orderId: paid.orderId, personaId: paid.personaId, from: 'pending', to: 'shipped' })),
    ).toBeNull();
    expect(eventProblem(envelope('feedback.deleted', { feedbackId: randomUUID(), name: 'Kiran' }))).toBeNull();
    // An administrator's change names them.
    expect(
      eventProblem({ ...envelope('book.deleted', { bookId: randomUUID(), title: 'T' }), actor: { id: randomUUID(), email: 'owner@example.com' } }),
    ).toBeNull();
    // The order page's actions and refunds (issue 23).
    expect(eventProblem(envelope('order.note_added', { orderId: paid.orderId, personaId: paid.personaId, noteId: randomUUID() }))).toBeNull();
    expect(
      eventProblem(
        envelope('order.email_resent', { orderId: paid.orderId, personaId: paid.personaId, emailId: randomUUID(), kind: 'persona-ready', to: 'a@example.com' }),
      ),
    ).toBeNull();
    const refund = { orderId: paid.orderId, personaId: paid.personaId, refundId: randomUUID(), amountPaise: 10_000 };
    expect(eventProblem(envelope('order.refund_changed', { ...refund, status: 'failed', failure: 'Razorpay refused the refund' }))).toBeNull();
    expect(eventProblem(envelope('order.refund_changed', { ...refund, status: 'refunded' } as never))).toMatch(/status/);
    expect(eventProblem(envelope('order.refund_changed', { ...refund, amountPaise: 10.5, status: 'processed' }))).toMatch(/amountPaise/);
    // After the sale (issue 23): a licence ended by a full refund, a Persona re-issued.
    expect(
      eventProblem(envelope('order.refunded_in_full', { orderId: paid.orderId, personaId: paid.personaId, refundedAt: new Date().toISOString() })),
    ).toBeNull();
    expect(eventProblem(envelope('order.refunded_in_full', { orderId: paid.orderId, personaId: paid.personaId, refundedAt: '' }))).toMatch(/refundedAt/);
    const reissue = { ...paid, personaId: 'PB-8R5N-3LY2-JU4E', reissueId: randomUUID(), replacesPersonaId: paid.personaId, reason: 'The name was misspelt' };
    expect(eventProblem(envelope('persona.reissue_requested', reissue))).toBeNull();
    expect(eventProblem(envelope('persona.reissue_requested', { ...reissue, replacesPersonaId: undefined } as never))).toMatch(/replacesPersonaId/);
    // Downloads (issue 24): the link for more, with its allowance; the owner's reset and stop, with why.
    const renewal = {
      personaId: paid.personaId,
      orderId: paid.orderId,
      renewalId: randomUUID(),
      token: 'A'.repeat(43),
      expiresAt: new Date().toISOString(),
      used: 10,
      limit: 10,
    };
    expect(eventProblem(envelope('persona.download_renewal_requested', renewal))).toBeNull();
    expect(eventProblem(envelope('persona.download_renewal_requested', { ...renewal, limit: 0 }))).toMatch(/limit/);
    expect(eventProblem(envelope('persona.downloads_reset', { personaId: paid.personaId, orderId: paid.orderId, reason: 'A new tablet' }))).toBeNull();
    expect(eventProblem(envelope('persona.downloads_revoked', { personaId: paid.personaId, orderId: paid.orderId } as never))).toMatch(/reason/);
    expect(Object.keys(EVENT_PAYLOADS)).toHaveLength(25);
  });

  it('names what is wrong: the envelope, the type, or the payload field', () => {
    expect(eventProblem('order.paid')).toMatch(/^not an event envelope/);
    expect(eventProblem({ ...envelope('order.paid', paid), id: undefined })).toMatch(/^not an event envelope \(\/id/);
    expect(eventProblem({ ...envelope('order.paid', paid), type: 'order.refunded' })).toBe('unknown event type "order.refunded"');
    expect(eventProblem({ ...envelope('order.paid', paid), type: 'constructor' })).toBe('unknown event type "constructor"');
    expect(eventProblem(envelope('order.paid', { ...paid, amountPaise: 349.5 }))).toMatch(/^order\.paid payload: \/amountPaise /);
    expect(eventProblem(envelope('order.paid', { ...paid, purchaseDate: '24/11/2026' }))).toMatch(/^order\.paid payload: \/purchaseDate /);
    const { buyerName: _dropped, ...withoutName } = paid;
    expect(eventProblem(envelope('order.paid', withoutName as typeof paid))).toMatch(/^order\.paid payload: \/buyerName /);
    expect(eventProblem(envelope('persona.ready', { orderId: paid.orderId, personaId: 'x', sha256: 'not hex', pages: 1 }))).toMatch(/\/sha256/);
    expect(eventProblem({ ...envelope('order.paid', paid), actor: { email: 'owner@example.com' } })).toMatch(/^not an event envelope \(\/actor/);
  });
});
