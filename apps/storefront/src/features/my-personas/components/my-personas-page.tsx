// /my-personas: a buyer's library without a password (DESIGN §12). Ask for a sign-in link by
// e-mail (the same answer for every address); the link (its token in the fragment) opens every
// Persona bought with that address, each with its cover, its downloads (named by format, with what
// each has left: issue 24), its verify page and its order, for the session the link opened (kept in this tab).
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { LIBRARY_LINK_MINUTES, PERSONA_FAILED_NOTICE, shopDate, type Library, type LibraryPersona } from '@persona/contracts';
import { ApiError, errorMessage } from '@persona/web-kit/api-client';
import { StateMessage } from '@persona/web-kit/state-message';
import { paths } from '../../../config/paths';
import { useDocumentHead } from '../../../hooks/use-document-head';
import { Field } from '../../../components/ui/field';
import { formatLongDate } from '../../../lib/format-date';
import { openLibrary, requestLibraryLink } from '../api/library';
import { readCovers } from '../api/covers';
import { BookCover } from '../../../components/book/book-cover';
import { PersonaDownloads } from '../../../components/persona/persona-downloads';
import { forgetSession, readSession, saveSession, tokenFromFragment } from '../lib/library-session';
import './my-personas.css';

type State =
  { kind: 'ask' } | { kind: 'opening' } | { kind: 'open'; library: Library } | { kind: 'closed'; message: string } | { kind: 'failed'; message: string };

export function MyPersonasPage() {
  useDocumentHead({
    title: 'My Personas | Persona Books',
    description: 'Every Persona bought with your e-mail address, with its downloads: sign in with a link we e-mail you.',
    robots: 'noindex',
  });
  const [state, setState] = useState<State>({ kind: 'ask' });

  useEffect(() => {
    let controller: AbortController | null = null;
    const openFromAddress = () => {
      const fromLink = tokenFromFragment(window.location.hash);
      // The token leaves the address at once: not in history, not in a bookmark, not in a shared screen.
      if (fromLink) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
      const token = fromLink ?? readSession(window.sessionStorage)?.token;
      if (!token) return;
      controller?.abort();
      const current = (controller = new AbortController());
      setState({ kind: 'opening' });
      openLibrary(token, current.signal).then(
        (library) => {
          saveSession(window.sessionStorage, library.session);
          setState({ kind: 'open', library });
        },
        (error: unknown) => {
          if (current.signal.aborted) return;
          forgetSession(window.sessionStorage);
          if (error instanceof ApiError && error.status === 401) {
            setState(fromLink ? { kind: 'closed', message: errorMessage(error) } : { kind: 'ask' });
          } else setState({ kind: 'failed', message: errorMessage(error) });
        },
      );
    };
    openFromAddress();
    // A link pasted into this tab while the page is open changes only the fragment.
    window.addEventListener('hashchange', openFromAddress);
    return () => {
      window.removeEventListener('hashchange', openFromAddress);
      controller?.abort();
    };
  }, []);

  const signOut = () => {
    forgetSession(window.sessionStorage);
    setState({ kind: 'ask' });
  };

  return (
    <div className="container my-personas">
      {state.kind === 'opening' && (
        <p className="my-personas__loading" role="status">
          Opening your Personas...
        </p>
      )}
      {state.kind === 'open' && <LibraryView library={state.library} onSignOut={signOut} />}
      {state.kind === 'closed' && (
        <>
          <StateMessage headingLevel={1} icon="alert" title="This link no longer opens your Personas" message={state.message} />
          <AskForLink headingLevel={2} />
        </>
      )}
      {state.kind === 'failed' && (
        <StateMessage headingLevel={1} icon="alert" title="We couldn't open your Personas" message={state.message}>
          <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
            Try again
          </button>
        </StateMessage>
      )}
      {state.kind === 'ask' && <AskForLink headingLevel={1} />}
    </div>
  );
}

function AskForLink({ headingLevel }: { headingLevel: 1 | 2 }) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const id = useId();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = email.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(typed)) {
      setError('Please enter a valid email address');
      inputRef.current?.focus();
      return;
    }
    setError(null);
    setSending(true);
    try {
      await requestLibraryLink(typed);
      setSentTo(typed);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setSending(false);
    }
  }

  return (
    <section className="my-personas__ask" aria-labelledby={`${id}-heading`}>
      <Heading id={`${id}-heading`} className="my-personas__title">
        My Personas
      </Heading>
      <p className="my-personas__lead">Every Persona bought with your e-mail address, in one place. No password: we e-mail you a link that signs you in.</p>
      {sentTo ? (
        <div className="my-personas__sent" role="status">
          <p>
            If <strong>{sentTo}</strong> has Personas, a sign-in link is on its way to it. The link works once, within {LIBRARY_LINK_MINUTES} minutes.
          </p>
          <button type="button" className="btn btn--outline btn--sm" onClick={() => setSentTo(null)}>
            Use another address
          </button>
        </div>
      ) : (
        <form className="my-personas__form" onSubmit={submit} noValidate>
          <Field label="Email" error={error} announceError>
            {(control) => (
              <div className="my-personas__row">
                <input
                  ref={inputRef}
                  {...control}
                  type="email"
                  name="email"
                  className="text-input"
                  autoComplete="email"
                  inputMode="email"
                  maxLength={200}
                  required
                  value={email}
                  onChange={(event) => setEmail(event.target.value)}
                />
                <button type="submit" className="btn btn--primary" disabled={sending}>
                  {sending ? 'Sending...' : 'Send me a sign-in link'}
                </button>
              </div>
            )}
          </Field>
        </form>
      )}
      <p className="my-personas__other">
        Have a Persona ID? <Link to={paths.sendPersona}>Find one Persona by its ID</Link>.
      </p>
    </section>
  );
}

/** Each book's cover by its id, once read (until then, and for a book without one, the cover's fallback). */
function useCovers(bookIds: readonly string[]): Map<string, string | null> {
  const [covers, setCovers] = useState<Map<string, string | null>>(new Map());
  const key = [...new Set(bookIds)].sort().join(',');
  useEffect(() => {
    const controller = new AbortController();
    readCovers(key ? key.split(',') : [], controller.signal).then(setCovers, () => undefined);
    return () => controller.abort();
  }, [key]);
  return covers;
}

const STATUS: Record<LibraryPersona['personaStatus'], string> = {
  pending: 'Waiting for the payment',
  generating: 'Being prepared',
  ready: 'Ready',
  failed: 'Not made yet: your payment is safe',
};

function LibraryView({ library, onSignOut }: { library: Library; onSignOut: () => void }) {
  const covers = useCovers(library.personas.map((p) => p.book._id));
  return (
    <section className="my-personas__library" aria-labelledby="library-heading">
      <div className="my-personas__head">
        <div>
          <h1 id="library-heading" className="my-personas__title">
            My Personas
          </h1>
          <p className="my-personas__lead">
            Bought with or given to <strong>{library.email}</strong>
          </p>
        </div>
        <button type="button" className="btn btn--outline btn--sm" onClick={onSignOut}>
          Sign out
        </button>
      </div>
      {library.personas.length === 0 ? (
        <p className="my-personas__empty">No Personas have been bought with or given to this address yet.</p>
      ) : (
        <ul className="my-personas__list">
          {library.personas.map((persona) => (
            <li key={persona.personaId} className="my-personas__item">
              <BookCover
                className="my-personas__cover"
                title={persona.book.title}
                author={persona.book.author}
                url={covers.get(persona.book._id)}
                width={120}
                height={180}
                sizes="6rem"
                decorative
              />
              <div className="my-personas__body">
                <h2 className="my-personas__book">{persona.book.title}</h2>
                <p className="my-personas__author">by {persona.book.author}</p>
                <dl className="my-personas__facts">
                  <div>
                    <dt>{persona.gift?.direction === 'received' ? 'Given' : 'Bought'}</dt>
                    <dd>{formatLongDate(persona.gift?.direction === 'received' ? persona.gift.deliverOn : persona.paidAt)}</dd>
                  </div>
                  {persona.gift && (
                    <div>
                      <dt>Gift</dt>
                      <dd>{persona.gift.direction === 'received' ? `From ${persona.gift.from}` : `For ${persona.gift.recipientName}`}</dd>
                    </div>
                  )}
                  <div>
                    <dt>Format</dt>
                    <dd>{persona.deliveryType === 'physical' ? 'Printed, with the PDF' : 'Digital'}</dd>
                  </div>
                  <div>
                    <dt>Persona ID</dt>
                    <dd>
                      <code>{persona.personaId}</code>
                    </dd>
                  </div>
                  <div>
                    <dt>State</dt>
                    <dd>{persona.refundedAt ? `Refunded on ${formatLongDate(shopDate(new Date(persona.refundedAt)))}` : STATUS[persona.personaStatus]}</dd>
                  </div>
                </dl>
                {/* Refunded in full: the licence ended, so no download (the server refuses it too); it still verifies. */}
                {persona.refundedAt && (
                  <p className="my-personas__problem">
                    This order was refunded in full, so this Persona can no longer be downloaded. It is still a genuine Persona.
                  </p>
                )}
                {/* The words of the buyer's e-mail: what went wrong, what happens next and by when. */}
                {persona.personaStatus === 'failed' && (
                  <p className="my-personas__problem">
                    <strong>{PERSONA_FAILED_NOTICE.heading}.</strong> {PERSONA_FAILED_NOTICE.message} {PERSONA_FAILED_NOTICE.next}
                  </p>
                )}
                <PersonaDownloads personaId={persona.personaId} downloads={persona.downloads} bookTitle={persona.book.title} size="sm" />
                <div className="my-personas__actions">
                  <Link to={paths.verifyPersona(persona.personaId)} className="btn btn--outline btn--sm">
                    Verify<span className="visually-hidden"> {persona.personaId}</span>
                  </Link>
                  <Link to={paths.sendPersonaFor(persona.personaId)} className="btn btn--ghost btn--sm">
                    Order details<span className="visually-hidden"> of {persona.book.title}</span>
                  </Link>
                </div>
                {/* The buyer's tax papers (a gift received has none: they are the giver's). */}
                {persona.documents.length > 0 && (
                  <p className="my-personas__documents">
                    {persona.documents.map((doc) => (
                      <a key={doc.number} href={doc.url} target="_blank" rel="noreferrer">
                        {doc.kind === 'invoice' ? 'Tax invoice' : 'Credit note'} {doc.number}
                        <span className="visually-hidden"> of {persona.book.title}</span> (PDF)
                      </a>
                    ))}
                  </p>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
