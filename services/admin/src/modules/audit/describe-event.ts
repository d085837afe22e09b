// One readable line per event for the audit log.
import type { KnownEvent } from '@persona/bus';
import { paiseToRupees } from '@persona/contracts';

export interface AuditLine {
  summary: string;
  subjectId: string | null;
  actor: string | null;
}

const rupees = (paise: number) => `₹${paiseToRupees(paise).toFixed(2)}`;

/** The line for an event; its actor is the administrator who caused it (none for the shop's own work). */
export function describeEvent(event: KnownEvent): AuditLine {
  const line = describePayload(event);
  return { ...line, actor: event.actor?.email ?? line.actor };
}

function describePayload(event: KnownEvent): AuditLine {
  switch (event.type) {
    case 'book.created': {
      const p = event.payload;
      return { summary: `Book "${p.title}" by ${p.author} created at ${rupees(p.pricePaise)}`, subjectId: p.bookId, actor: null };
    }
    case 'book.updated': {
      const p = event.payload;
      return { summary: `Book "${p.title}" updated (now ${rupees(p.pricePaise)})`, subjectId: p.bookId, actor: null };
    }
    case 'book.deleted':
      return { summary: `Book "${event.payload.title}" deleted`, subjectId: event.payload.bookId, actor: null };
    case 'category.created':
    case 'category.updated':
    case 'category.deleted':
      return { summary: `Category "${event.payload.name}" ${event.type.split('.')[1]}`, subjectId: event.payload.categoryId, actor: null };
    case 'order.paid': {
      const p = event.payload;
      return { summary: `Order ${p.personaId} paid: ${rupees(p.amountPaise)} (${p.deliveryType})`, subjectId: p.orderId, actor: null };
    }
    case 'persona.retry_requested':
      return { summary: `Persona ${event.payload.personaId} requested again`, subjectId: event.payload.orderId, actor: null };
    case 'order.delivery_status_changed': {
      const p = event.payload;
      return { summary: `Order ${p.personaId} delivery status ${p.from} → ${p.to}`, subjectId: p.orderId, actor: null };
    }
    case 'order.note_added':
      return { summary: `Note added to order ${event.payload.personaId}`, subjectId: event.payload.orderId, actor: null };
    case 'order.email_resent': {
      const p = event.payload;
      return { summary: `E-mail "${p.kind}" of order ${p.personaId} sent again to ${p.to}`, subjectId: p.orderId, actor: null };
    }
    case 'order.refund_changed': {
      const p = event.payload;
      const what = { requested: 'asked for', pending: 'accepted by Razorpay', processed: 'processed', failed: `failed: ${p.failure ?? 'no reason given'}` }[
        p.status
      ];
      return { summary: `Refund of ${rupees(p.amountPaise)} on order ${p.personaId} ${what}`, subjectId: p.orderId, actor: null };
    }
    case 'coupon.created':
    case 'coupon.updated': {
      const p = event.payload;
      const verb = event.type === 'coupon.created' ? 'created' : 'changed';
      return { summary: `Coupon ${p.code} ${verb}: ${p.offer}, ${p.active ? 'active' : 'inactive'}`, subjectId: p.couponId, actor: null };
    }
    case 'order.refunded_in_full':
      return {
        summary: `Order ${event.payload.personaId} refunded in full: its Persona's licence ended (no more downloads)`,
        subjectId: event.payload.orderId,
        actor: null,
      };
    case 'persona.reissue_requested': {
      const p = event.payload;
      return {
        summary: `Persona ${p.replacesPersonaId} re-issued as ${p.personaId} for ${p.gift ? `${p.buyerName} (to ${p.gift.recipientName})` : p.buyerName}: ${p.reason}`,
        subjectId: p.orderId,
        actor: null,
      };
    }
    case 'persona.ready':
      return { summary: `Persona ${event.payload.personaId} ready (${event.payload.pages} pages)`, subjectId: event.payload.orderId, actor: null };
    case 'persona.failed':
      return { summary: `Persona ${event.payload.personaId} failed: ${event.payload.reason}`, subjectId: event.payload.orderId, actor: null };
    case 'persona.download_renewal_requested':
      return {
        summary: `More downloads of Persona ${event.payload.personaId} asked for (downloaded ${event.payload.used} times): a link e-mailed to the buyer`,
        subjectId: event.payload.orderId,
        actor: null,
      };
    case 'persona.downloads_reset':
      return {
        summary: `Downloads of Persona ${event.payload.personaId} reset (a fresh allowance): ${event.payload.reason}`,
        subjectId: event.payload.orderId,
        actor: null,
      };
    case 'persona.downloads_revoked':
      return { summary: `Downloads of Persona ${event.payload.personaId} stopped: ${event.payload.reason}`, subjectId: event.payload.orderId, actor: null };
    case 'admin.logged_in':
      return { summary: `${event.payload.email} logged in`, subjectId: event.payload.adminId, actor: event.payload.email };
    case 'feedback.deleted':
      return { summary: `Message from ${event.payload.name} deleted`, subjectId: event.payload.feedbackId, actor: null };
    case 'feedback.handled':
      return {
        summary: `Message from ${event.payload.name} marked ${event.payload.handled ? 'handled' : 'waiting'}`,
        subjectId: event.payload.feedbackId,
        actor: null,
      };
    case 'feedback.answered':
      return { summary: `Message from ${event.payload.name} answered by e-mail`, subjectId: event.payload.feedbackId, actor: null };
  }
}
