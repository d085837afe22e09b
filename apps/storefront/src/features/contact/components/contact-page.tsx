// /contact-us (spec §2, §5): the contact form and the shop's contact details.
import { CONTACT_DETAILS } from '../../../config/site-content';
import { useDocumentHead } from '../../../hooks/use-document-head';
import { ContactDetails } from './contact-details';
import { ContactForm } from './contact-form';
import './contact.css';

const HEAD = {
  title: 'Contact Us | Persona Books',
  description: `Questions about a book, an order or your Persona? Write to Persona Books, e-mail ${CONTACT_DETAILS.email} or call ${CONTACT_DETAILS.phone}.`,
};

export function ContactPage() {
  useDocumentHead(HEAD);
  return (
    <div className="contact">
      <header className="contact__header">
        <div className="container">
          <p className="eyebrow">Contact</p>
          <h1 className="contact__title">Contact Us</h1>
          <p className="contact__lead">Questions about a book, an order or your Persona? Send us a message and we will get back to you.</p>
        </div>
      </header>
      <div className="container contact__grid">
        <ContactForm />
        <ContactDetails />
      </div>
    </div>
  );
}
