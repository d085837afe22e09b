// /contact-success: where a sent contact message lands (spec §2: a "Thank You" page).
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { CONTACT_DETAILS } from '../../../config/site-content';
import { useDocumentHead } from '../../../hooks/use-document-head';
import './contact.css';

const HEAD = { title: 'Thank You | Persona Books', description: 'Your message has reached Persona Books.', robots: 'noindex' };

export function ContactSuccessPage() {
  useDocumentHead(HEAD);
  return (
    <div className="container contact-success">
      <div className="contact-success__card">
        <svg
          className="contact-success__icon"
          viewBox="0 0 24 24"
          width="48"
          height="48"
          aria-hidden="true"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <circle cx="12" cy="12" r="9" />
          <path d="m8 12.5 2.5 2.5L16 9.5" />
        </svg>
        <h1 className="contact-success__title">Thank You</h1>
        <p className="contact-success__text">Your message has reached us, and we reply within {CONTACT_DETAILS.replyWithin}.</p>
        <div className="contact-success__actions">
          <Link to={paths.home} className="btn btn--primary btn--lg">
            Return to Home
          </Link>
          <Link to={paths.books} className="btn btn--outline btn--lg">
            Explore Books
          </Link>
        </div>
      </div>
    </div>
  );
}
