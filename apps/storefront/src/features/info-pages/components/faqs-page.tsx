import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { SHIPPING } from '../../../config/site-content';
import { useDocumentHead } from '../../../hooks/use-document-head';
import { InfoPage } from './info-page';

const FAQS = [
  {
    question: 'What is a Persona?',
    answer:
      'A Persona is a personalised copy of a book. It carries your name and purchase date, the author’s digital signature and a unique Persona ID you can use to find your copy later.',
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
    answer: `Printed Personas are shipped by hand and take ${SHIPPING.minBusinessDays} to ${SHIPPING.maxBusinessDays} business days after dispatch, for a flat delivery fee of Rs ${SHIPPING.deliveryFeeRupees}. Digital Personas are ready to download as soon as they are made.`,
  },
] as const;

export function FaqsPage() {
  useDocumentHead({
    title: 'FAQ | Persona Books',
    description: 'Answers about Personas: what they are, how personalisation works, formats and shipping times.',
  });
  return (
    <InfoPage eyebrow="Help" title="Frequently Asked Questions" lead="Everything you need to know about your Persona.">
      <div className="faq-list">
        {FAQS.map((faq, index) => (
          <details key={faq.question} className="faq" open={index === 0}>
            <summary className="faq__question">{faq.question}</summary>
            <p className="faq__answer">{faq.answer}</p>
          </details>
        ))}
      </div>
      <p className="info-page__note">
        Still have a question? <Link to={paths.contact}>Contact us</Link>.
      </p>
    </InfoPage>
  );
}
