import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { CONTACT_DETAILS, SHIPPING } from '../../../config/site-content';
import { formatInr } from '@persona/contracts';
import { useDocumentHead } from '../../../hooks/use-document-head';
import { InfoPage } from './info-page';

const FAQS = [
  {
    question: 'What is a Persona?',
    answer:
      'A Persona is a personalised copy of a book. It carries your name and purchase date, a signature anyone can verify (the author’s own, where they have given one) and a unique Persona ID you can use to find your copy later.',
  },
  {
    question: 'How does personalisation work?',
    answer:
      'When you buy a Persona we add a dedication page with your name and the date of purchase, sign the copy with the author’s key and give it a unique Persona ID. You can check a Persona is genuine at any time.',
  },
  {
    question: 'Which formats are available?',
    answer:
      'Every Persona comes as a digital PDF you can download. You can also choose a printed copy, which we ship to you; it carries the same personalisation.',
  },
  {
    question: 'How long does shipping take?',
    answer: `Printed Personas are shipped by hand and take ${SHIPPING.minBusinessDays} to ${SHIPPING.maxBusinessDays} business days after dispatch, for a flat delivery fee of ${formatInr(SHIPPING.deliveryFeeRupees)}. Digital Personas are ready to download as soon as they are made.`,
  },
  {
    question: 'Can I get a refund or cancel my order?',
    answer:
      'A printed copy can be cancelled until it is dispatched, and a Persona that could not be made or arrives damaged is made again or refunded. A digital Persona cannot be cancelled once it is ready, because it is made for you alone. Refunds reach the card, UPI account or bank you paid with within 5 to 7 business days.',
    link: { to: paths.refunds, label: 'Read the Refund and Cancellation Policy' },
  },
  {
    question: 'My name is misspelt in my Persona. Can you fix it?',
    answer: `Yes. Write to us at ${CONTACT_DETAILS.email} within 7 days of your order with your Persona ID and the correct spelling, and we make a corrected copy at no cost (for a printed copy, before it is dispatched).`,
  },
  {
    question: 'On which devices can I read my Persona?',
    answer:
      'Your digital Persona is a standard PDF: it opens on any phone, tablet, e-reader that reads PDFs, or computer, and you can download it again at any time from "Find My Persona" with your Persona ID.',
  },
  {
    question: 'I lost the e-mail with my Persona ID. How do I get my copy?',
    answer:
      'Open My Personas and enter the e-mail address you bought with: we send a link that signs you in and lists every Persona bought with that address, with its download. No password needed.',
    link: { to: paths.myPersonas, label: 'My Personas' },
  },
  {
    question: 'Will I get an invoice?',
    answer: `Your order confirmation e-mail is your receipt: it lists the book, the amount paid and your Persona ID. If you need a GST invoice, write to us at ${CONTACT_DETAILS.email} with your Persona ID and your GSTIN, and we send it within ${CONTACT_DETAILS.replyWithin}.`,
  },
  {
    question: 'Can I give a Persona as a gift?',
    answer:
      "Gifting is coming soon: you will be able to put the recipient's name in the book and have the printed copy sent to them. Until then, enter the recipient's name at checkout, and for a printed copy their delivery address.",
  },
] as const satisfies ReadonlyArray<{ question: string; answer: string; link?: { to: string; label: string } }>;

export function FaqsPage() {
  useDocumentHead({
    title: 'FAQ | Persona Books',
    description: 'Answers about Personas: what they are, how personalisation works, formats, shipping, refunds, invoices and gifts.',
  });
  return (
    <InfoPage eyebrow="Help" title="Frequently Asked Questions" lead="Everything you need to know about your Persona.">
      <div className="faq-list">
        {FAQS.map((faq, index) => (
          <details key={faq.question} className="faq" open={index === 0}>
            <summary className="faq__question">{faq.question}</summary>
            <p className="faq__answer">
              {faq.answer}
              {'link' in faq && (
                <>
                  {' '}
                  <Link to={faq.link.to}>{faq.link.label}</Link>.
                </>
              )}
            </p>
          </details>
        ))}
      </div>
      <p className="info-page__note">
        Still have a question? <Link to={paths.contact}>Contact us</Link>.
      </p>
    </InfoPage>
  );
}
