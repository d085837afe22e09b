// The e-mail that answers "Ask for more downloads" (issue 24): whoever holds a Persona's id found
// its downloads used up and asked; the link goes to the buyer's address on the order, never to one
// a visitor typed, so the buyer decides whether the copy is lent again.
import { downloadRenewalPath, shopDate } from '@persona/contracts';
import type { OrderRow } from '../order-records/orders.repository';
import { emailHtml, emailText, type EmailBody } from './email-body';
import type { DueEmail, ShopMail } from './emails.repository';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** "25 November 2026", India's date. */
const longDate = (at: Date) => {
  const [year, month, day] = shopDate(at).split('-').map(Number);
  return `${day} ${MONTHS[month! - 1]} ${year}`;
};

export interface DownloadRenewal {
  renewalId: string;
  token: string;
  expiresAt: string;
  used: number;
  limit: number;
}

export function downloadRenewalEmail(order: OrderRow, renewal: DownloadRenewal, shop: ShopMail, correlationId: string | null): DueEmail {
  const body: EmailBody = {
    greeting: `Dear ${order.full_name},`,
    heading: 'More downloads of your Persona',
    paragraphs: [
      `Someone with your Persona ID asked for more downloads of your Persona of "${order.book_title}": it has been downloaded ${renewal.used} times, the most we allow for each format.`,
      'If it was you, or someone you lent the book to, this button gives it a fresh allowance of downloads.',
    ],
    facts: [
      ['Book', `${order.book_title} by ${order.book_author}`],
      ['Persona ID', order.persona_id],
    ],
    actions: [{ label: 'Give more downloads', url: `${shop.publicUrl}${downloadRenewalPath(order.persona_id, renewal.token)}` }],
    after: [
      `The link works once, until ${longDate(new Date(renewal.expiresAt))}.`,
      'If you did not expect this, ignore this e-mail: nothing changes without the link.',
    ],
    footer: ['Persona Books', `Questions? Write to ${shop.supportEmail}, quoting your Persona ID.`],
    shopUrl: shop.publicUrl,
  };
  return {
    orderId: order.id,
    kind: 'download-renewal',
    to: order.email,
    subject: `More downloads of your Persona of "${order.book_title}"`,
    text: emailText(body),
    html: emailHtml(body),
    correlationId,
    occasion: renewal.renewalId,
  };
}
