// /payment-success: the order is placed; the persona id and the way to the Persona (DESIGN §10),
// and the receipt the checkout left in the navigation's state: what was bought, the amount paid,
// where the confirmation went and, for a printed copy, where it goes and when. The order is asked
// again until its Persona is ready, and then its files are offered here (persona-progress).
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { orderInvoiceUrl, type PersonaFormat, type PublicOrder, type Receipt } from '@persona/contracts';
import { readReceipt, receiptView } from '../lib/receipt';
import { personaProgress } from '../lib/persona-progress';
import { usePersonaOrder } from '../../../hooks/use-persona-order';
import { PersonaDownloads } from '../../../components/persona/persona-downloads';
import { paths } from '../../../config/paths';
import { useDocumentHead } from '../../../hooks/use-document-head';
import './payment-result.css';

export function PaymentSuccessPage() {
  const [params] = useSearchParams();
  const personaId = params.get('personaId')?.trim() || null;
  const location = useLocation();
  // Read after the first render: the server's HTML has no navigation state, and hydration must match it.
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  useEffect(() => setReceipt(readReceipt(location.state)), [location.state]);
  useDocumentHead({ title: 'Payment Successful | Persona Books', description: 'Your order has been placed.', robots: 'noindex' });
  const order = useLatestOrder(personaId);
  const progress = personaProgress(order);
  const files: PersonaFormat[] = order ? order.downloads.map((download) => download.format) : [];

  return (
    <div className="container payment-result">
      <div className="payment-result__card">
        <svg
          className="payment-result__icon payment-result__icon--success"
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
        <h1 className="payment-result__title">Payment Successful!</h1>
        <p className="payment-result__text" role="status">
          {progress.text}
        </p>
        {progress.stage === 'ready' && personaId && order && (
          <div className="payment-result__downloads">
            <PersonaDownloads personaId={personaId} downloads={order.downloads} bookTitle={order.book.title} />
          </div>
        )}
        {receipt && <ReceiptDetails receipt={receipt} files={files} ready={progress.stage === 'ready'} />}
        {personaId && (
          <div className="persona-id-box">
            <p className="persona-id-box__label">Your Persona ID</p>
            <p className="persona-id-box__value">
              <code>{personaId}</code>
            </p>
            <CopyButton text={personaId} />
            <p className="persona-id-box__hint">Keep this ID: it is how you find, download and verify your Persona.</p>
            <p className="persona-id-box__hint">
              {/* The tax invoice is issued as the payment is confirmed; the e-mail receipt links it too. */}
              <a href={orderInvoiceUrl(personaId)} target="_blank" rel="noreferrer">
                Download your tax invoice (PDF)
              </a>
            </p>
          </div>
        )}
        <div className="payment-result__actions">
          {personaId && (
            <Link to={paths.sendPersonaFor(personaId)} className={`btn btn--lg ${progress.stage === 'ready' ? 'btn--outline' : 'btn--primary'}`}>
              View your Persona
            </Link>
          )}
          <Link to={paths.home} className={`btn btn--lg ${personaId ? 'btn--outline' : 'btn--primary'}`}>
            Return to Home
          </Link>
        </div>
      </div>
    </div>
  );
}

/** The order as last read, kept current while its Persona is made; null before the first answer (or without an id, or when it cannot be read: the page still stands on its receipt). */
function useLatestOrder(personaId: string | null): PublicOrder | null {
  const state = usePersonaOrder(personaId ?? '', personaId !== null);
  return state.status === 'success' ? state.order : null;
}

function CopyButton({ text }: { text: string }) {
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setStatus('copied');
    } catch {
      setStatus('failed');
    }
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setStatus('idle'), 3000);
  }

  return (
    <>
      <button type="button" className="btn btn--outline btn--sm" onClick={copy} aria-label="Copy Persona ID">
        {status === 'copied' ? 'Copied' : 'Copy'}
      </button>
      <span className="visually-hidden" role="status" aria-live="polite">
        {status === 'copied' ? 'Persona ID copied to the clipboard' : status === 'failed' ? 'Copying failed: select the ID and copy it yourself' : ''}
      </span>
    </>
  );
}

function ReceiptDetails({ receipt, files, ready }: { receipt: Receipt; files: readonly PersonaFormat[]; ready: boolean }) {
  const view = receiptView(receipt, files);
  return (
    <section className="receipt" aria-label="Your order">
      <dl className="receipt__rows">
        {view.rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {view.delivery && (
        <p className="receipt__delivery">
          <strong>Delivering to:</strong> {view.delivery.address}. {view.delivery.estimate}
        </p>
      )}
      {view.gift && <p className="receipt__delivery">{view.gift}</p>}
      <p className="receipt__emailed">
        {ready ? (
          <>
            Your receipt and the links to your Persona are on their way to <strong>{view.emailedTo}</strong>.
          </>
        ) : (
          <>
            Your receipt is on its way to <strong>{view.emailedTo}</strong>, with the links to your Persona once it is ready.
          </>
        )}
      </p>
    </section>
  );
}
