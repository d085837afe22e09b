// /send-persona?personaId=…: the buyer's Persona, its order and its downloads (spec §2): one true
// state with a timeline (persona-view), kept current while it can change by itself; each format's
// download with what it has left, or past the limit a way to ask for more (issue 24), and the
// e-mailed link that gives more (#renew=…); without an id, a "Find my Persona" form (DESIGN §10).
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { PersonaDownloads as Allowance, PublicOrder } from '@persona/contracts';
import { normalizePersonaId } from '@persona/contracts';
import { formatLongDate } from '../../../lib/format-date';
import { paths } from '../../../config/paths';
import { useDocumentHead } from '../../../hooks/use-document-head';
import { ApiError, errorMessage } from '@persona/web-kit/api-client';
import { StateMessage } from '@persona/web-kit/state-message';
import { usePersonaOrder } from '../../../hooks/use-persona-order';
import { parsePersonaIdInput, shouldPoll, statusLabel } from '../../../lib/persona-polling';
import { personaView, type StepState } from '../lib/persona-view';
import { Field } from '../../../components/ui/field';
import { PersonaDownloads } from '../../../components/persona/persona-downloads';
import { renewalTokenFromFragment, renewDownloads } from '../../../lib/persona-downloads';
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
  return <PersonaStatus order={order.order} stale={order.stale} />;
}

type Renewal = { state: 'none' | 'renewing' } | { state: 'renewed'; allowance: Allowance } | { state: 'failed'; message: string };

/**
 * Opens the "more downloads" link e-mailed to the buyer (its token in the fragment, taken out of
 * the address at once): a fresh allowance, once.
 */
function useRenewalLink(personaId: string): Renewal {
  const [renewal, setRenewal] = useState<Renewal>({ state: 'none' });
  useEffect(() => {
    const renewFromAddress = () => {
      const token = renewalTokenFromFragment(window.location.hash);
      if (!token) return;
      window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
      setRenewal({ state: 'renewing' });
      renewDownloads(personaId, token).then(
        (allowance) => setRenewal({ state: 'renewed', allowance }),
        (error: unknown) => setRenewal({ state: 'failed', message: errorMessage(error) }),
      );
    };
    renewFromAddress();
    // A link pasted into this tab while the page is open changes only the fragment.
    window.addEventListener('hashchange', renewFromAddress);
    return () => window.removeEventListener('hashchange', renewFromAddress);
  }, [personaId]);
  return renewal;
}

function PersonaStatus({ order, stale }: { order: PublicOrder; stale: boolean }) {
  const view = personaView(order);
  const renewal = useRenewalLink(order.personaId);
  return (
    <div className="container send-persona">
      <div className="send-persona__card" data-stage={view.stage}>
        <p className="eyebrow">Your Persona</p>
        {/* The heading and the message below it say the one true state; the region announces each change. */}
        <div role="status" aria-live="polite" aria-atomic="true">
          <h1 className="send-persona__title">{view.heading}</h1>
          <p className={`persona-state persona-state--${view.tone}`}>
            {view.tone === 'progress' && <span className="persona-state__spinner" aria-hidden="true" />}
            <span>{view.message}</span>
          </p>
        </div>
        {stale && shouldPoll(order) && <p className="send-persona__stale">We couldn&apos;t check on your order just now; trying again shortly.</p>}

        <ol className="persona-timeline" aria-label="Order progress">
          {view.steps.map((step) => (
            <li
              key={step.key}
              className={`persona-timeline__step persona-timeline__step--${step.state}`}
              aria-current={step.state === 'current' ? 'step' : undefined}
            >
              <span className="persona-timeline__dot" aria-hidden="true" />
              <span className="persona-timeline__label">{step.label}</span>
              <span className="visually-hidden">{STEP_STATE_TEXT[step.state]}</span>
            </li>
          ))}
        </ol>

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
          {order.gift && order.deliverOn && (
            <div>
              <dt>Gift</dt>
              <dd>Yes, for {formatLongDate(order.deliverOn)}</dd>
            </div>
          )}
          {view.showDeliveryStatus && (
            <div>
              <dt>Delivery Status</dt>
              <dd>{statusLabel(order.deliveryStatus)}</dd>
            </div>
          )}
          {view.showDeliveryStatus && order.shipment?.carrier && (
            <div>
              <dt>Carrier</dt>
              <dd>{order.shipment.carrier}</dd>
            </div>
          )}
          {view.showDeliveryStatus && order.shipment?.trackingNumber && (
            <div>
              <dt>Tracking number</dt>
              <dd>
                <code>{order.shipment.trackingNumber}</code>
              </dd>
            </div>
          )}
        </dl>

        {renewal.state === 'renewed' && (
          <p className="persona-state persona-state--success" role="status">
            <span>Your Persona has a fresh allowance of downloads.</span>
          </p>
        )}
        {renewal.state === 'failed' && (
          <p className="persona-state persona-state--problem" role="alert">
            <span>{renewal.message}</span>
          </p>
        )}
        <PersonaDownloads
          personaId={order.personaId}
          downloads={order.downloads}
          bookTitle={order.book.title}
          known={renewal.state === 'renewed' ? renewal.allowance : null}
        />
        <div className="send-persona__actions">
          {view.offerRetry && (
            <Link to={paths.checkout(order.book._id)} className="btn btn--primary btn--lg">
              Try again
            </Link>
          )}
          {(view.stage === 'cancelled' || view.stage === 'failed') && (
            <Link to={paths.contact} className="btn btn--outline btn--lg">
              Contact us
            </Link>
          )}
          <Link to={paths.home} className="btn btn--outline btn--lg">
            Return to Home
          </Link>
        </div>
        {order.paymentStatus === 'paid' && (
          <p className="send-persona__verify">
            Anyone can check that this copy is genuine: <Link to={paths.verifyPersona(order.personaId)}>verify this Persona</Link>.
          </p>
        )}
      </div>
    </div>
  );
}

const STEP_STATE_TEXT: Record<StepState, string> = { done: ' (done)', current: ' (in progress)', upcoming: ' (to come)', failed: ' (did not happen)' };

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
