import type { PaymentStatus, PersonaStatus } from '@persona/contracts';
import { capitalize } from '../../../lib/format';

const PERSONA_TONE: Record<PersonaStatus, string> = { pending: 'muted', generating: 'info', ready: 'success', failed: 'danger' };
const PAYMENT_TONE: Record<PaymentStatus, string> = { created: 'muted', attempted: 'warning', paid: 'success', failed: 'danger' };

export function PersonaBadge({ status }: { status: PersonaStatus }) {
  return <span className={`badge badge--${PERSONA_TONE[status]}`}>{capitalize(status)}</span>;
}

export function PaymentBadge({ status }: { status: PaymentStatus }) {
  return <span className={`badge badge--${PAYMENT_TONE[status]}`}>{capitalize(status)}</span>;
}
