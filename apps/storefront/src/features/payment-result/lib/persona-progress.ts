// What /payment-success says of the Persona while the buyer waits on it: the order is asked again
// (lib/persona-polling's intervals) until its Persona is ready, and then the page offers each
// file's download instead of "being personalised".
import { PERSONA_FAILED_NOTICE, type PublicOrder } from '@persona/contracts';
import { isAwaitingPayment } from '../../../lib/persona-polling';

export type PersonaProgress =
  | { stage: 'preparing'; text: string }
  | { stage: 'awaiting-payment'; text: string }
  | { stage: 'ready'; text: string }
  | { stage: 'failed'; text: string }
  | { stage: 'refunded'; text: string };

const PREPARING = 'Thank you for your order. Your Persona is being personalised for you: this page updates the moment it is ready.';

/** The order as last read (null before the first answer, or without a Persona ID to ask about). */
export function personaProgress(order: Pick<PublicOrder, 'paymentStatus' | 'personaStatus' | 'downloads' | 'refundedAt'> | null): PersonaProgress {
  if (!order) return { stage: 'preparing', text: PREPARING };
  if (order.refundedAt) return { stage: 'refunded', text: 'This order was refunded in full, so its Persona is no longer yours to download.' };
  if (order.personaStatus === 'failed') return { stage: 'failed', text: PERSONA_FAILED_NOTICE.message };
  if (isAwaitingPayment(order)) {
    return { stage: 'awaiting-payment', text: 'Thank you for your order. We are waiting for your bank to confirm the payment; this page updates by itself.' };
  }
  if (order.personaStatus === 'ready' && order.downloads.length > 0) {
    return { stage: 'ready', text: 'Thank you for your order. Your Persona is ready to download.' };
  }
  return { stage: 'preparing', text: PREPARING };
}
