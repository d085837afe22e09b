// /payment-failed: a declined payment or a failed verification lands here, with a way to try
// the same book again (DESIGN §9.10).
import { Link, useSearchParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { useDocumentHead } from '../../../hooks/use-document-head';
import './payment-result.css';

export function PaymentFailedPage() {
  const [params] = useSearchParams();
  const bookId = params.get('book')?.trim() || null;
  useDocumentHead({ title: 'Payment Failed | Persona Books', description: 'The payment did not go through.', robots: 'noindex' });

  return (
    <div className="container payment-result">
      <div className="payment-result__card">
        <svg
          className="payment-result__icon payment-result__icon--failed"
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
          <path d="m9 9 6 6M15 9l-6 6" />
        </svg>
        <h1 className="payment-result__title">Payment Failed</h1>
        <p className="payment-result__text">Something went wrong during the payment. Please try again.</p>
        <p className="payment-result__note">If money left your account, it will be refunded automatically; no order is placed without a confirmed payment.</p>
        <div className="payment-result__actions">
          {bookId && (
            <Link to={paths.checkout(bookId)} className="btn btn--primary btn--lg">
              Try again
            </Link>
          )}
          <Link to={paths.home} className={`btn btn--lg ${bookId ? 'btn--outline' : 'btn--primary'}`}>
            Return to Home
          </Link>
        </div>
      </div>
    </div>
  );
}
