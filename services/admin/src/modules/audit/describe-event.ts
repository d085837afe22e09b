// One readable line per event for the audit log.
import type { EventEnvelope } from '@persona/contracts';

type P = Record<string, unknown>;
const rupees = (paise: unknown) => `₹${(Number(paise) / 100).toFixed(2)}`;

export function describeEvent(event: EventEnvelope): { summary: string; subjectId: string | null; actor: string | null } {
  const p = (event.payload ?? {}) as P;
  switch (event.type) {
    case 'book.created':
      return { summary: `Book "${p.title}" by ${p.author} created at ${rupees(p.pricePaise)}`, subjectId: String(p.bookId), actor: null };
    case 'book.updated':
      return { summary: `Book "${p.title}" updated (now ${rupees(p.pricePaise)})`, subjectId: String(p.bookId), actor: null };
    case 'book.deleted':
      return { summary: `Book "${p.title}" deleted`, subjectId: String(p.bookId), actor: null };
    case 'category.created':
    case 'category.updated':
    case 'category.deleted':
      return { summary: `Category "${p.name}" ${event.type.split('.')[1]}`, subjectId: String(p.categoryId), actor: null };
    case 'order.paid':
      return { summary: `Order ${p.personaId} paid: ${rupees(p.amountPaise)} (${p.deliveryType})`, subjectId: String(p.orderId), actor: null };
    case 'order.delivery_status_changed':
      return { summary: `Order ${p.personaId} delivery status ${p.from} → ${p.to}`, subjectId: String(p.orderId), actor: null };
    case 'persona.ready':
      return { summary: `Persona ${p.personaId} ready (${p.pages} pages)`, subjectId: String(p.orderId), actor: null };
    case 'persona.failed':
      return { summary: `Persona ${p.personaId} failed: ${p.reason}`, subjectId: String(p.orderId), actor: null };
    case 'admin.logged_in':
      return { summary: `${p.email} logged in`, subjectId: String(p.adminId), actor: String(p.email) };
    default:
      return { summary: event.type, subjectId: null, actor: null };
  }
}
