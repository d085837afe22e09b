// While a paid Persona is being prepared, /send-persona and /payment-success ask again every 2 s; while the payment
// is not yet received (a late webhook can still confirm it), every 10 s. Failed lookups back off
// (doubling, capped) so a struggling server is not hammered.
import type { PublicOrder } from '@persona/contracts';
import { normalizePersonaId } from '@persona/contracts';

export const POLL_INTERVAL_MS = 2000;
export const PAYMENT_POLL_INTERVAL_MS = 10000;
export const MAX_POLL_DELAY_MS = 30000;

/** The wait before the next lookup, after `consecutiveErrors` failed lookups in a row. */
export function nextPollDelay(consecutiveErrors: number, interval: number = POLL_INTERVAL_MS): number {
  const errors = Math.max(0, Math.floor(consecutiveErrors));
  return Math.min(interval * 2 ** Math.min(errors, 16), MAX_POLL_DELAY_MS);
}

/** The payment is neither confirmed nor refused yet. */
export function isAwaitingPayment(order: Pick<PublicOrder, 'paymentStatus'>): boolean {
  return order.paymentStatus === 'created' || order.paymentStatus === 'attempted';
}

/** How often to ask again about this order. */
export function pollInterval(order: Pick<PublicOrder, 'paymentStatus' | 'personaStatus'>): number {
  return isAwaitingPayment(order) ? PAYMENT_POLL_INTERVAL_MS : POLL_INTERVAL_MS;
}

/** The PDF is still being made for a paid order. */
export function isPreparing(order: Pick<PublicOrder, 'paymentStatus' | 'personaStatus'>): boolean {
  return order.paymentStatus === 'paid' && (order.personaStatus === 'pending' || order.personaStatus === 'generating');
}

/** Keep asking only while the answer can still change by itself: stop when ready or failed. */
export function shouldPoll(order: Pick<PublicOrder, 'paymentStatus' | 'personaStatus'>): boolean {
  return isPreparing(order) || isAwaitingPayment(order);
}

export const INVALID_PERSONA_ID = 'Please enter a valid Persona ID';

/** What a person typed into "Find my Persona": the canonical id, or the message to show. */
export function parsePersonaIdInput(input: string): { personaId: string } | { error: string } {
  const personaId = normalizePersonaId(input);
  return personaId ? { personaId } : { error: INVALID_PERSONA_ID };
}

const LABELS: Record<string, string> = {
  digital: 'Digital',
  physical: 'Physical',
  pending: 'Pending',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

/** "physical" → "Physical"; a missing delivery status reads as pending (spec §4). */
export function statusLabel(value: string | null | undefined): string {
  if (!value) return 'Pending';
  return LABELS[value] ?? value.charAt(0).toUpperCase() + value.slice(1);
}
