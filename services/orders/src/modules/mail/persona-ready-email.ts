// The e-mail a buyer gets when their Persona is ready: where to see it, where to download it, and
// what happens next for a printed copy.
import { personalizedPdfUrl } from '@persona/contracts';
import type { OrderRow } from '../orders/orders.repository';
import type { DueEmail } from './emails.repository';

export function personaReadyEmail(order: OrderRow, publicUrl: string, correlationId: string | null): DueEmail {
  const page = `${publicUrl}/send-persona?personaId=${order.persona_id}`;
  const download = `${publicUrl}${personalizedPdfUrl(order.persona_id)}`;
  return {
    orderId: order.id,
    kind: 'persona-ready',
    to: order.email,
    subject: `Your Persona of "${order.book_title}" is ready`,
    text: [
      `Dear ${order.full_name},`,
      '',
      `Your Persona of "${order.book_title}" by ${order.book_author} is ready.`,
      '',
      `Persona ID: ${order.persona_id}`,
      `Your Persona: ${page}`,
      `Download: ${download}`,
      '',
      order.delivery_type === 'physical'
        ? 'Your printed copy will be dispatched soon; physical deliveries take 5 to 7 business days after dispatch.'
        : 'Keep your Persona ID: it finds your copy again whenever you need it.',
      '',
      'Persona Books',
    ].join('\n'),
    correlationId,
  };
}
