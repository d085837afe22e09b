// /send-persona?personaId=…: the buyer's Persona, its order and its download (spec §2), kept
// current while the PDF is prepared; without an id, a "Find my Persona" form (DESIGN §10).
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { PublicOrder } from '@persona/contracts';
import { normalizePersonaId } from '@persona/contracts';
import { paths } from '../../../config/paths';
import { useDocumentHead } from '../../../hooks/use-document-head';
import { ApiError } from '@persona/web-kit/api-client';
import { StateMessage } from '@persona/web-kit/state-message';
import { usePersonaOrder } from '../hooks/use-persona-order';
import { isPreparing, parsePersonaIdInput, statusLabel } from '../lib/persona-polling';
import { Field } from '../../../components/ui/field';
import './send-persona.css';

export function SendPersonaPage() {
  const [params] = useSearchParams();
  const raw = params.get('personaId')?.trim() ?? '';
  const personaId = raw ? normalizePersonaId(raw) : null;

  useDocumentHead({
    title: personaId ? 'Your Persona | Persona Books' : 'Find my Persona | Persona Books',
    description: 'Find, check on and download your Persona, the personalised copy of your book.',
    robots: 'noindex',
  });

  if (!personaId) {
    return (
      <div className="container send-persona">
        <FindPersona initial={raw} initialError={raw ? 'Please enter a valid Persona ID' : null} headingLevel={1} />
      </div>
    );
  }
  return <PersonaOrder key={personaId} personaId={personaId} />;
}

function PersonaOrder({ personaId }: { personaId: string }) {
  const order = usePersonaOrder(personaId);

  if (order.status === 'loading') {
    return (
      <div className="container send-persona page-pending" aria-busy="true">
        <p className="send-persona__loading" role="status">
          Loading your Persona...
        </p>
      </div>
    );
  }
  if (order.status === 'error') {
    const missing = order.error instanceof ApiError && (order.error.status === 404 || order.error.status === 400);
    return (
      <div className="container send-persona">
        {missing ? (
          <>
            <StateMessage headingLevel={1} icon="search" title="Persona not found" message={`No Persona has the ID ${personaId}. Check the ID and try again.`}>
              <Link to={paths.home} className="btn btn--outline">
                Return to Home
              </Link>
            </StateMessage>
            <FindPersona initial="" initialError={null} headingLevel={2} />
          </>
        ) : (
          <StateMessage headingLevel={1} icon="alert" title="We couldn't load your Persona" message="Failed to fetch order. Try again later.">
            <button type="button" className="btn btn--primary" onClick={order.reload}>
              Try again
            </button>
            <Link to={paths.home} className="btn btn--outline">
              Return to Home
            </Link>
          </StateMessage>
        )}
      </div>
    );
  }
  return <PersonaReady order={order.order} stale={order.stale} />;
}

function PersonaReady({ order, stale }: { order: PublicOrder; stale: boolean }) {
  const preparing = isPreparing(order);
  const ready = order.personaStatus === 'ready' && Boolean(order.personalizedPdfUrl);
  return (
    <div className="container send-persona">
      <div className="send-persona__card">
        <p className="eyebrow">Your Persona</p>
        <h1 className="send-persona__title">Your Persona is Ready!</h1>
        <dl className="send-persona__details">
          <div>
            <dt>Book</dt>
            <dd>{order.book.title}</dd>
          </div>
          <div>
            <dt>Author</dt>
            <dd>{order.book.author}</dd>
          </div>
          <div>
            <dt>Persona ID</dt>
            <dd>
              <code>{order.personaId}</code>
            </dd>
          </div>
          <div>
            <dt>Delivery Type</dt>
            <dd>{statusLabel(order.deliveryType)}</dd>
          </div>
          <div>
            <dt>Delivery Status</dt>
            <dd>{statusLabel(order.deliveryStatus)}</dd>
          </div>
        </dl>

        {/* One polite live region: the preparing state, then what it became, is announced. */}
        <div className="send-persona__status" role="status" aria-live="polite">
          {preparing && (
            <p className="persona-state persona-state--preparing">
              <span className="persona-state__spinner" aria-hidden="true" />
              <span>
                <strong>Your Persona is being prepared…</strong> We are adding your name, the date and the author&apos;s signature. This page updates by itself;
                it usually takes under a minute.
              </span>
            </p>
          )}
          {ready && <p className="persona-state persona-state--ready">Your personalised copy is ready to download.</p>}
          {order.personaStatus === 'failed' && (
            <p className="persona-state persona-state--failed">
              <strong>We couldn&apos;t prepare your Persona.</strong> The shop has been told and will retry it; please check back later. Your payment is safe.
            </p>
          )}
          {order.paymentStatus !== 'paid' && order.personaStatus !== 'ready' && order.personaStatus !== 'failed' && (
            <p className="persona-state persona-state--failed">
              {order.paymentStatus === 'failed'
                ? 'The payment for this order did not go through, so there is no Persona to prepare.'
                : 'We have not received the payment for this order yet. Once it is confirmed, your Persona will be prepared.'}
            </p>
          )}
          {stale && preparing && <p className="send-persona__stale">We couldn&apos;t check on your Persona just now; trying again shortly.</p>}
        </div>

        <div className="send-persona__actions">
          {order.personalizedPdfUrl && (
            <a href={order.personalizedPdfUrl} download className="btn btn--primary btn--lg">
              Download Your Book
            </a>
          )}
          <Link to={paths.home} className="btn btn--outline btn--lg">
            Return to Home
          </Link>
        </div>
        <p className="send-persona__verify">
          Anyone can check that this copy is genuine: <Link to={paths.verifyPersona(order.personaId)}>verify this Persona</Link>.
        </p>
      </div>
    </div>
  );
}

function FindPersona({ initial, initialError, headingLevel }: { initial: string; initialError: string | null; headingLevel: 1 | 2 }) {
  const navigate = useNavigate();
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(initialError);
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const Heading = headingLevel === 1 ? 'h1' : 'h2';

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = parsePersonaIdInput(value);
    if ('error' in parsed) {
      setError(parsed.error);
      inputRef.current?.focus();
      return;
    }
    setError(null);
    void navigate(paths.sendPersonaFor(parsed.personaId));
  }

  return (
    <section className="find-persona" aria-labelledby={`${id}-heading`}>
      <Heading id={`${id}-heading`} className="find-persona__title">
        Find my Persona
      </Heading>
      <p className="find-persona__lead">Enter the Persona ID from your order confirmation to check on your copy and download it.</p>
      <form className="find-persona__form" onSubmit={submit} noValidate>
        <Field label="Persona ID" error={error}>
          {(control) => (
            <div className="find-persona__row">
              <input
                ref={inputRef}
                {...control}
                name="personaId"
                className="text-input find-persona__input"
                placeholder="PRS-XXXX-XXXX-XXXX-XXXX"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                required
                value={value}
                onChange={(event) => setValue(event.target.value)}
              />
              <button type="submit" className="btn btn--primary">
                Find my Persona
              </button>
            </div>
          )}
        </Field>
      </form>
    </section>
  );
}
