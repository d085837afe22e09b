import { PERSONA_FAILED_NOTICE } from '@persona/contracts';
import { personaStage, personaView, type PersonaStage } from './persona-view';

type Order = Parameters<typeof personaView>[0];
const order = (over: Partial<Order> = {}): Order => ({
  deliveryType: 'digital',
  deliveryStatus: 'pending',
  paymentStatus: 'paid',
  personaStatus: 'ready',
  refundedAt: null,
  ...over,
});
const states = (o: Order) => personaView(o).steps.map((s) => `${s.key}:${s.state}`);

describe('personaStage: one true state per order', () => {
  const cases: [Partial<Order>, PersonaStage][] = [
    [{ paymentStatus: 'created', personaStatus: 'pending' }, 'payment-pending'],
    [{ paymentStatus: 'attempted', personaStatus: 'pending' }, 'payment-pending'],
    [{ paymentStatus: 'failed', personaStatus: 'pending' }, 'payment-failed'],
    [{ personaStatus: 'pending' }, 'preparing'],
    [{ personaStatus: 'generating' }, 'preparing'],
    [{ personaStatus: 'failed' }, 'failed'],
    [{}, 'ready'],
    [{ deliveryType: 'physical' }, 'ready'],
    [{ deliveryType: 'physical', deliveryStatus: 'shipped' }, 'shipped'],
    [{ deliveryType: 'physical', deliveryStatus: 'delivered' }, 'delivered'],
    [{ deliveryType: 'physical', deliveryStatus: 'cancelled' }, 'cancelled'],
    // Refunded in full: the licence ended, whatever the Persona's or the copy's state.
    [{ refundedAt: '2026-11-27T10:00:00.000Z' }, 'refunded'],
    [{ deliveryType: 'physical', deliveryStatus: 'cancelled', refundedAt: '2026-11-27T10:00:00.000Z' }, 'refunded'],
    [{ personaStatus: 'failed', refundedAt: '2026-11-27T10:00:00.000Z' }, 'refunded'],
    // A digital order's delivery status means nothing to its buyer.
    [{ deliveryStatus: 'shipped' }, 'ready'],
    // A printed copy is not "shipped" before its Persona exists.
    [{ deliveryType: 'physical', deliveryStatus: 'shipped', personaStatus: 'generating' }, 'preparing'],
  ];
  it.each(cases)('%j → %s', (over, stage) => expect(personaStage(order(over))).toBe(stage));
});

describe('personaView', () => {
  it('says "Your Persona is Ready!" only when the Persona is ready', () => {
    expect(personaView(order()).heading).toBe('Your Persona is Ready!');
    for (const over of [
      { personaStatus: 'generating' as const },
      { personaStatus: 'failed' as const },
      { paymentStatus: 'created' as const },
      { paymentStatus: 'failed' as const },
    ]) {
      expect(personaView(order(over)).heading).not.toBe('Your Persona is Ready!');
    }
  });

  it('a digital order has no delivery status and a three-step timeline', () => {
    const view = personaView(order());
    expect(view.showDeliveryStatus).toBe(false);
    expect(states(order())).toEqual(['paid:done', 'prepared:done', 'ready:done']);
    expect(states(order({ personaStatus: 'generating' }))).toEqual(['paid:done', 'prepared:current', 'ready:upcoming']);
  });

  it('a printed copy goes on to shipped and delivered, with the dispatch estimate while it waits', () => {
    const ready = personaView(order({ deliveryType: 'physical' }));
    expect(ready.showDeliveryStatus).toBe(true);
    expect(ready.message).toContain('dispatched within 2 business days');
    expect(states(order({ deliveryType: 'physical' }))).toEqual(['paid:done', 'prepared:done', 'ready:done', 'shipped:current', 'delivered:upcoming']);
    expect(states(order({ deliveryType: 'physical', deliveryStatus: 'shipped' }))).toEqual([
      'paid:done',
      'prepared:done',
      'ready:done',
      'shipped:done',
      'delivered:current',
    ]);
    expect(states(order({ deliveryType: 'physical', deliveryStatus: 'delivered' }))).toEqual([
      'paid:done',
      'prepared:done',
      'ready:done',
      'shipped:done',
      'delivered:done',
    ]);
    expect(states(order({ deliveryType: 'physical', deliveryStatus: 'cancelled' }))).toEqual(['paid:done', 'prepared:done', 'ready:done', 'cancelled:failed']);
  });

  it('a failed payment offers a retry; a failed Persona says what happens next', () => {
    const payment = personaView(order({ paymentStatus: 'failed', personaStatus: 'pending' }));
    expect(payment).toMatchObject({ offerRetry: true, tone: 'problem', heading: 'Your payment did not go through' });
    expect(states(order({ paymentStatus: 'failed', personaStatus: 'pending' }))).toEqual(['paid:failed', 'prepared:upcoming', 'ready:upcoming']);

    const persona = personaView(order({ personaStatus: 'failed' }));
    expect(persona.offerRetry).toBe(false);
    // The words of the buyer's e-mail: the payment is safe, the shop knows, made again or refunded, and by when.
    expect(persona.heading).toBe(PERSONA_FAILED_NOTICE.heading);
    expect(persona.message).toContain(PERSONA_FAILED_NOTICE.message);
    expect(persona.message).toMatch(/^Your payment is safe\./);
    expect(persona.message).toMatch(/has been alerted: we will make it again or refund you in full within 2 business days/);
    expect(persona.tone).toBe('problem');
    expect(states(order({ personaStatus: 'failed' }))).toEqual(['paid:done', 'prepared:failed', 'ready:upcoming']);
  });

  it('a payment not yet received waits on the first step', () => {
    const view = personaView(order({ paymentStatus: 'attempted', personaStatus: 'pending' }));
    expect(view).toMatchObject({ heading: 'Waiting for your payment', offerRetry: false });
    expect(view.steps[0]).toMatchObject({ key: 'paid', state: 'current' });
  });
});

describe('a refunded order', () => {
  it('says so, and that the Persona is still genuine, with paid then refunded as its timeline', () => {
    const view = personaView(order({ refundedAt: '2026-11-27T10:00:00.000Z' }));
    expect(view.heading).toBe('This order was refunded');
    expect(view.message).toMatch(/can no longer be downloaded\. It is still a genuine Persona/);
    expect(states(order({ refundedAt: '2026-11-27T10:00:00.000Z' }))).toEqual(['paid:done', 'refunded:done']);
    expect(view.offerRetry).toBe(false);
  });
});

describe('the words beside the downloads', () => {
  it('points at the downloads below rather than promising one, which the allowance may have used up', () => {
    const made: Partial<Order>[] = [
      {},
      { deliveryType: 'physical' },
      { deliveryType: 'physical', deliveryStatus: 'shipped' },
      { deliveryType: 'physical', deliveryStatus: 'delivered' },
      { deliveryType: 'physical', deliveryStatus: 'cancelled' },
    ];
    for (const over of made) {
      const { message } = personaView(order(over));
      expect({ over, below: message.includes('downloads are below'), promises: /ready to download|stays here to download/.test(message) }).toEqual({
        over,
        below: true,
        promises: false,
      });
    }
  });
});
