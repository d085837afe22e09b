// The shop's answer to a visitor's message (issue 24): what the administrator wrote, to the address
// the visitor gave, with their own message quoted under it so the answer reads on its own.
import type { FeedbackAnsweredPayload } from '@persona/contracts';
import { emailHtml, emailText, type EmailBody } from '../mail/email-body';
import type { DueEmail, ShopMail } from '../mail/emails.repository';

/** The answer's paragraphs as the administrator wrote them (a blank line between two). */
const paragraphsOf = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);

export function feedbackAnswerEmail(answer: FeedbackAnsweredPayload, shop: ShopMail, correlationId: string | null): DueEmail {
  const about = answer.bookTitle ? `your message about "${answer.bookTitle}"` : 'your message';
  const body: EmailBody = {
    greeting: `Dear ${answer.name},`,
    heading: `Our answer to ${about}`,
    paragraphs: paragraphsOf(answer.answer),
    after: ['You wrote:', ...paragraphsOf(answer.message).map((paragraph) => `> ${paragraph}`)],
    footer: ['Persona Books', `To write to us again, reply to this e-mail or write to ${shop.supportEmail}.`],
    shopUrl: shop.publicUrl,
  };
  return {
    orderId: null,
    kind: 'feedback-answer',
    to: answer.email,
    subject: answer.bookTitle ? `Re: your message about "${answer.bookTitle}"` : 'Re: your message to Persona Books',
    text: emailText(body),
    html: emailHtml(body),
    correlationId,
    // The message it answers (the admin service answers each once; the inbox stops a redelivered event).
    occasion: answer.feedbackId,
  };
}
