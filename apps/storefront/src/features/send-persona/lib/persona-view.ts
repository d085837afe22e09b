// What /send-persona tells the holder of a persona id: one true state of the order (its heading,
// what it means and what happens next) and a short timeline: paid → prepared → ready, then
// shipped → delivered for a printed copy. Spec §2's "Your Persona is Ready!" only when it is.
import { PERSONA_FAILED_NOTICE, type PublicOrder } from '@persona/contracts';
import { DISPATCH_DAYS } from '../../../lib/persona-formats';

export type PersonaStage = 'payment-pending' | 'payment-failed' | 'preparing' | 'failed' | 'ready' | 'shipped' | 'delivered' | 'cancelled' | 'refunded';
export type StepState = 'done' | 'current' | 'upcoming' | 'failed';
export type Tone = 'info' | 'progress' | 'success' | 'problem';

export interface TimelineStep {
  key: 'paid' | 'prepared' | 'ready' | 'shipped' | 'delivered' | 'cancelled' | 'refunded';
  label: string;
  state: StepState;
}

export interface PersonaView {
  stage: PersonaStage;
  heading: string;
  message: string;
  tone: Tone;
  steps: TimelineStep[];
  /** A printed copy has a delivery status worth showing; a digital one has only its download. */
  showDeliveryStatus: boolean;
  /** The payment failed: offer the checkout of the same book again. */
  offerRetry: boolean;
}

type ViewOrder = Pick<PublicOrder, 'deliveryType' | 'deliveryStatus' | 'paymentStatus' | 'personaStatus' | 'refundedAt'>;

export function personaStage(order: ViewOrder): PersonaStage {
  if (order.paymentStatus === 'failed') return 'payment-failed';
  if (order.paymentStatus !== 'paid') return 'payment-pending';
  // Refunded in full: the licence ended, whatever the Persona's or the copy's state.
  if (order.refundedAt) return 'refunded';
  if (order.personaStatus === 'failed') return 'failed';
  if (order.personaStatus !== 'ready') return 'preparing';
  if (order.deliveryType === 'physical') {
    if (order.deliveryStatus === 'shipped') return 'shipped';
    if (order.deliveryStatus === 'delivered') return 'delivered';
    if (order.deliveryStatus === 'cancelled') return 'cancelled';
  }
  return 'ready';
}

const TEXTS: Record<PersonaStage, { heading: string; tone: Tone; message: (physical: boolean) => string }> = {
  'payment-pending': {
    heading: 'Waiting for your payment',
    tone: 'info',
    message: () =>
      'We have not received the payment for this order yet. If you have paid, it shows here within a few minutes and your Persona is prepared straight away; this page updates by itself.',
  },
  'payment-failed': {
    heading: 'Your payment did not go through',
    tone: 'problem',
    message: () =>
      'This order was not paid, so there is no Persona to prepare. If any money left your account, your bank returns it within 5–7 business days. You can try again with the same book.',
  },
  preparing: {
    heading: 'Your Persona is being prepared',
    tone: 'progress',
    message: () => 'We are adding your name and the date, and signing it. This page updates by itself; it usually takes under a minute.',
  },
  // The words of the buyer's e-mail (contracts): the payment is safe, the shop knows, and by when.
  failed: {
    heading: PERSONA_FAILED_NOTICE.heading,
    tone: 'problem',
    message: () => `${PERSONA_FAILED_NOTICE.message} ${PERSONA_FAILED_NOTICE.next}`,
  },
  ready: {
    heading: 'Your Persona is Ready!',
    tone: 'success',
    message: (physical) =>
      physical
        ? `Your personalised copy is ready: its downloads are below. Your printed copy is dispatched within ${DISPATCH_DAYS}.`
        : 'Your personalised copy is ready: its downloads are below.',
  },
  shipped: {
    heading: 'Your printed Persona is on its way',
    tone: 'success',
    message: () => 'Your printed copy has been shipped. Meanwhile your personalised digital copy is ready: its downloads are below.',
  },
  delivered: {
    heading: 'Your printed Persona has been delivered',
    tone: 'success',
    message: () => 'Your printed copy has been delivered. Enjoy your book; your digital copy’s downloads are below.',
  },
  refunded: {
    heading: 'This order was refunded',
    tone: 'info',
    message: () =>
      'This order was refunded in full, so its Persona can no longer be downloaded. It is still a genuine Persona: its verify page says so, and when it was refunded.',
  },
  cancelled: {
    heading: 'Your printed copy was cancelled',
    tone: 'problem',
    message: () => 'The printed copy of this order was cancelled. Your personalised digital copy’s downloads are below. Questions? Contact us.',
  },
};

function timeline(stage: PersonaStage, physical: boolean): TimelineStep[] {
  if (stage === 'refunded') {
    return [
      { key: 'paid', label: 'Paid', state: 'done' },
      { key: 'refunded', label: 'Refunded', state: 'done' },
    ];
  }
  const paid: StepState = stage === 'payment-failed' ? 'failed' : stage === 'payment-pending' ? 'current' : 'done';
  const made = stage === 'ready' || stage === 'shipped' || stage === 'delivered' || stage === 'cancelled';
  const prepared: StepState = made ? 'done' : stage === 'preparing' ? 'current' : stage === 'failed' ? 'failed' : 'upcoming';
  const steps: TimelineStep[] = [
    { key: 'paid', label: 'Paid', state: paid },
    { key: 'prepared', label: 'Prepared', state: prepared },
    { key: 'ready', label: 'Ready to download', state: made ? 'done' : 'upcoming' },
  ];
  if (!physical) return steps;
  if (stage === 'cancelled') return [...steps, { key: 'cancelled', label: 'Cancelled', state: 'failed' }];
  const shipped: StepState = stage === 'shipped' || stage === 'delivered' ? 'done' : stage === 'ready' ? 'current' : 'upcoming';
  const delivered: StepState = stage === 'delivered' ? 'done' : stage === 'shipped' ? 'current' : 'upcoming';
  return [...steps, { key: 'shipped', label: 'Shipped', state: shipped }, { key: 'delivered', label: 'Delivered', state: delivered }];
}

export function personaView(order: ViewOrder): PersonaView {
  const stage = personaStage(order);
  const physical = order.deliveryType === 'physical';
  const text = TEXTS[stage];
  return {
    stage,
    heading: text.heading,
    message: text.message(physical),
    tone: text.tone,
    steps: timeline(stage, physical),
    showDeliveryStatus: physical,
    offerRetry: stage === 'payment-failed',
  };
}
