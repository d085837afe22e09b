// An administrator's answer to a visitor's message (issue 24), orders' side, on PGlite and
// PostgreSQL: feedback.answered (through the bus) becomes an e-mail to the sender's address, sent by
// the mail relay; once however often the event is delivered (the admin service answers a message once).
import { randomUUID } from 'node:crypto';
import { createEvent } from '@persona/bus';
import { describeWithPostgres } from '@persona/test-kit';
import { applyFeedbackAnswer } from '../../src/modules/feedback-answers/feedback-answers';
import { ordersHarnessFor, queuedEmails, SHOP, untilQueued } from '../support/emails';

function contract(kind: 'pglite' | 'postgres') {
  const h = ordersHarnessFor(kind);
  const answers = (feedbackId: string) => queuedEmails(h, 'feedback-answer', { occasion: feedbackId });
  const answered = (feedbackId: string, bookTitle: string | null = null) =>
    createEvent(
      'feedback.answered',
      {
        feedbackId,
        name: 'Farhan Ali',
        email: 'Farhan.Ali@Example.com',
        message: 'Do you ship to Leh?\n\nMy sister lives there.',
        answer: 'Yes, we ship across India, Leh included.\n\nA printed Persona takes 5 to 7 business days after dispatch.',
        bookTitle,
      },
      { correlationId: 'c-answer', actor: { id: randomUUID(), email: 'owner@persona-books.in' } },
    );

  it("e-mails the answer to the sender's address, with their message quoted, once however often it is delivered", async () => {
    const feedbackId = randomUUID();
    const event = answered(feedbackId);
    await h.bus.publish(event);
    await untilQueued(() => answers(feedbackId));
    // Delivered again: the inbox has it.
    expect(await applyFeedbackAnswer(h.database.db, event, SHOP)).toBe(false);
    const [mail, ...more] = await answers(feedbackId);
    expect(more).toEqual([]);
    expect(mail!.order_id).toBeNull();
    expect(mail!.to_address).toBe('Farhan.Ali@Example.com');
    expect(mail!.subject).toBe('Re: your message to Persona Books');
    expect(mail!.text_body).toContain('Dear Farhan Ali,');
    expect(mail!.text_body).toContain('Our answer to your message');
    expect(mail!.text_body).toContain('Yes, we ship across India, Leh included.');
    expect(mail!.text_body).toContain('A printed Persona takes 5 to 7 business days after dispatch.');
    expect(mail!.text_body).toContain('> Do you ship to Leh?');
    expect(mail!.text_body).toContain('> My sister lives there.');
    expect(mail!.html_body).toContain('Yes, we ship across India, Leh included.');
  });

  it('names the book a message was about, and escapes what the visitor wrote', async () => {
    const feedbackId = randomUUID();
    const event = createEvent(
      'feedback.answered',
      { ...answered(feedbackId, 'Gitanjali').payload, message: '<script>alert(1)</script>' },
      { correlationId: 'c-answer-2' },
    );
    expect(await applyFeedbackAnswer(h.database.db, event, SHOP)).toBe(true);
    const [mail] = await answers(feedbackId);
    expect(mail!.subject).toBe('Re: your message about "Gitanjali"');
    expect(mail!.text_body).toContain('Our answer to your message about "Gitanjali"');
    expect(mail!.html_body).not.toContain('<script>');
    expect(mail!.html_body).toContain('&lt;script&gt;');
  });
}

describe('answers to visitors on PGlite', () => contract('pglite'));
describeWithPostgres()('answers to visitors on PostgreSQL', () => contract('postgres'));
