// /verify/:personaId (what the QR code in every Persona opens) and /verify: whether a Persona
// record is genuine, and a check of a Persona PDF file (DESIGN §5).
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { FileVerification, PersonaVerification } from '@persona/contracts';
import { normalizePersonaId } from '@persona/contracts';
import { paths } from '../../../config/paths';
import { useAsync } from '@persona/web-kit/use-async';
import { useDocumentHead } from '../../../hooks/use-document-head';
import { ApiError, errorMessage } from '@persona/web-kit/api-client';
import { StateMessage } from '@persona/web-kit/state-message';
import { getPersonaVerification, getPublicKey, verifyPersonaFile } from '../api/verify';
import type { LogProof } from '../lib/log-proof';
import { licenceNotice, PERSONA_FILE_ACCEPT, personaFileProblem, privacyNote } from '../lib/verify-persona';
import { formatLongDate } from '../../../lib/format-date';
import { Field } from '../../../components/ui/field';
import './verify-persona.css';

export function VerifyPersonaPage() {
  const { personaId: raw } = useParams();
  const personaId = raw ? normalizePersonaId(raw) : null;
  useDocumentHead({
    title: 'Verify a Persona | Persona Books',
    description: 'Check that a Persona, a personalised and signed copy of a book, is genuine and unmodified.',
    robots: 'noindex',
  });

  return (
    <div className="container verify-persona">
      <header className="verify-persona__header">
        <p className="eyebrow">Authenticity</p>
        <h1 className="verify-persona__title">Verify a Persona</h1>
        <p className="verify-persona__lead">
          Every Persona is signed by the shop on the author&apos;s behalf. Check a Persona ID, or upload the PDF or EPUB itself to confirm it has not been
          changed.
        </p>
      </header>
      {raw && personaId && <RecordCheck key={personaId} personaId={personaId} />}
      {raw && !personaId && (
        <div className="verify-card verify-card--bad" role="alert">
          <h2 className="verify-card__title">Not a valid Persona ID</h2>
          <p className="verify-card__text">“{raw}” is not a Persona ID. Persona IDs look like PRS-XXXX-XXXX-XXXX-XXXX.</p>
        </div>
      )}
      {!raw && <LookupForm />}
      <FileCheck />
    </div>
  );
}

function RecordCheck({ personaId }: { personaId: string }) {
  const record = useAsync<PersonaVerification>(`verify:${personaId}`, (signal) => getPersonaVerification(personaId, signal));

  if (record.status === 'loading') {
    return (
      <p className="verify-persona__loading" role="status">
        Checking Persona {personaId}...
      </p>
    );
  }
  if (record.status === 'error') {
    const missing = record.error instanceof ApiError && (record.error.status === 404 || record.error.status === 400);
    return missing ? (
      <div className="verify-card verify-card--bad" role="alert">
        <h2 className="verify-card__title">No Persona found</h2>
        <p className="verify-card__text">No Persona has the ID {personaId}. It may have been mistyped, or the copy is not from Persona Books.</p>
      </div>
    ) : (
      <StateMessage icon="alert" title="We couldn't check this Persona" message={errorMessage(record.error)}>
        <button type="button" className="btn btn--primary" onClick={record.reload}>
          Try again
        </button>
        <Link to={paths.home} className="btn btn--outline">
          Return to Home
        </Link>
      </StateMessage>
    );
  }
  const data = record.data;
  const ended = licenceNotice(data.licence);
  return (
    <section className={`verify-card ${data.valid ? 'verify-card--good' : 'verify-card--bad'}`} aria-labelledby="record-heading">
      <h2 id="record-heading" className="verify-card__title">
        {data.valid ? 'Genuine Persona' : 'This Persona record does not verify'}
      </h2>
      <p className="verify-card__text">
        {data.valid
          ? 'The signature on this Persona record holds under the shop’s public key.'
          : 'The signature on this record does not match. Treat this copy as not genuine and contact us.'}
      </p>
      {ended && (
        <div className="verify-card__licence" role="note" aria-label="Licence">
          <p className="verify-card__licence-title">{ended.title}</p>
          <p className="verify-card__text">{ended.text}</p>
          {ended.replacedBy && (
            <p className="verify-card__text">
              <Link to={paths.verifyPersona(ended.replacedBy)}>Verify Persona {ended.replacedBy}</Link>
            </p>
          )}
        </div>
      )}
      <dl className="verify-card__details">
        <div>
          <dt>Title</dt>
          <dd>{data.title}</dd>
        </div>
        <div>
          <dt>Author</dt>
          <dd>{data.author}</dd>
        </div>
        <div>
          <dt>Personalised</dt>
          <dd>
            Personalised for {data.name} on {formatLongDate(data.purchaseDate)}
          </dd>
        </div>
        {data.copy !== null && (
          <div>
            <dt>Copy</dt>
            <dd>Copy No. {data.copy} of the Personas of this book</dd>
          </div>
        )}
        <div>
          <dt>Persona ID</dt>
          <dd>
            <code>{data.personaId}</code>
          </dd>
        </div>
      </dl>
      <p className="verify-card__private" role="note" aria-label="What stays private">
        {privacyNote(data)}
      </p>
      <PublicLogProof data={data} />
      <details className="verify-card__more">
        <summary>Technical details</summary>
        <dl className="verify-card__details verify-card__details--mono">
          <div>
            <dt>Key ID</dt>
            <dd>{data.keyId}</dd>
          </div>
          <div>
            <dt>File SHA-256</dt>
            <dd>{data.sha256}</dd>
          </div>
          <div>
            <dt>Signature</dt>
            <dd>{data.signature}</dd>
          </div>
          {data.record && (
            <div>
              <dt>Signed record</dt>
              <dd>{data.record}</dd>
            </div>
          )}
        </dl>
        <p className="verify-card__note">
          {data.record
            ? 'The signature is Ed25519 over the signed record exactly as shown (UTF-8). '
            : 'This Persona was signed before gift details were kept private, so its record is checked by the shop and not shown. '}
          The public key is published at <a href="/api/personas/public-key">/api/personas/public-key</a>.
        </p>
      </details>
    </section>
  );
}

type ProofState = { kind: 'checking' } | { kind: 'done'; proof: LogProof; later: string[] } | { kind: 'failed'; message: string };

/** How often, and how many times, the page asks again for a checkpoint that holds a just-logged copy. */
const PENDING_RETRY_MS = 3000;
const PENDING_TRIES = 20;

/**
 * The copy's place in the shop's public log (issue 27), checked here in the browser: the proof
 * module and its cryptography load only on this page, after the verdict above is shown.
 */
function PublicLogProof({ data }: { data: PersonaVerification }) {
  const [state, setState] = useState<ProofState>({ kind: 'checking' });
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async (attempt: number) => {
      try {
        const [{ checkLogProof, laterEvents }, key] = await Promise.all([import('../lib/log-proof'), getPublicKey()]);
        const proof = await checkLogProof(data, key.log);
        if (stopped) return;
        if (proof.pending && attempt < PENDING_TRIES) {
          timer = setTimeout(() => void run(attempt + 1), PENDING_RETRY_MS);
          return;
        }
        setState({ kind: 'done', proof, later: data.log ? laterEvents(data.log) : [] });
      } catch (error) {
        if (!stopped) setState({ kind: 'failed', message: errorMessage(error) });
      }
    };
    void run(1);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [data]);

  return (
    <section className="verify-log" aria-labelledby="log-heading" aria-busy={state.kind === 'checking'}>
      <h3 id="log-heading" className="verify-log__title">
        In the public log of Personas
      </h3>
      <p className="verify-card__text">
        The shop records every copy it makes, in order, in a public log that can only grow. Your browser checks this copy’s entry itself, with the log’s own
        files.
      </p>
      <div role="status" aria-live="polite">
        {state.kind === 'checking' && <p className="verify-log__checking">Checking the public log…</p>}
        {state.kind === 'failed' && <p className="verify-log__check verify-log__check--bad">The log could not be checked: {state.message}</p>}
        {state.kind === 'done' && (
          <>
            <p className={`verify-log__verdict ${state.proof.ok ? 'verify-log__verdict--good' : 'verify-log__verdict--bad'}`}>
              {state.proof.ok
                ? 'Proved: this copy is in the public log'
                : state.proof.pending
                  ? 'This copy is not in a signed checkpoint yet: try again in a minute'
                  : 'The public log does not prove this copy'}
            </p>
            <ol className="verify-log__checks">
              {state.proof.checks.map((check) => (
                <li key={check.text} className={`verify-log__check ${check.ok ? 'verify-log__check--good' : 'verify-log__check--bad'}`}>
                  <span aria-hidden="true">{check.ok ? '✓' : '✗'}</span> <span className="visually-hidden">{check.ok ? 'Holds:' : 'Fails:'}</span> {check.text}
                </li>
              ))}
            </ol>
            {state.later.length > 0 && (
              <div className="verify-log__later">
                {state.later.map((line) => (
                  <p key={line} className="verify-card__text">
                    {line}
                  </p>
                ))}
              </div>
            )}
          </>
        )}
      </div>
      <p className="verify-card__note">
        The log’s files are at <a href="/api/log/checkpoint">/api/log/</a>, in the C2SP tlog-tiles layout; anyone can audit all of it.
      </p>
    </section>
  );
}

function LookupForm() {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const personaId = normalizePersonaId(value);
    if (!personaId) {
      setError('Please enter a valid Persona ID');
      return;
    }
    setError(null);
    void navigate(paths.verifyPersona(personaId));
  }

  return (
    <form className="verify-card verify-form" onSubmit={submit} noValidate aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="verify-card__title">
        Check a Persona ID
      </h2>
      <Field label="Persona ID" error={error}>
        {(control) => (
          <div className="verify-form__row">
            <input
              {...control}
              className="text-input"
              placeholder="PRS-XXXX-XXXX-XXXX-XXXX"
              autoComplete="off"
              spellCheck={false}
              value={value}
              onChange={(event) => setValue(event.target.value)}
            />
            <button type="submit" className="btn btn--primary">
              Check ID
            </button>
          </div>
        )}
      </Field>
    </form>
  );
}

type FileState = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; result: FileVerification } | { kind: 'failed'; message: string };

function FileCheck() {
  const [state, setState] = useState<FileState>({ kind: 'idle' });
  const [problem, setProblem] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state.kind === 'busy') return;
    const file = inputRef.current?.files?.[0] ?? null;
    const found = personaFileProblem(file);
    setProblem(found);
    if (found || !file) {
      inputRef.current?.focus();
      return;
    }
    setState({ kind: 'busy' });
    try {
      setState({ kind: 'done', result: await verifyPersonaFile(file) });
    } catch (error) {
      setState({ kind: 'failed', message: errorMessage(error) });
    }
  }

  return (
    <form className="verify-card verify-form" onSubmit={submit} noValidate aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="verify-card__title">
        Check a file
      </h2>
      <p className="verify-card__text">The check confirms the file is exactly the one the shop signed: any change to it fails the check.</p>
      <Field label="Check a Persona PDF or EPUB" error={problem}>
        {(control) => (
          <div className="verify-form__row">
            <input
              ref={inputRef}
              {...control}
              name="file"
              type="file"
              accept={PERSONA_FILE_ACCEPT}
              className="verify-form__file"
              onChange={() => {
                setProblem(null);
                setState({ kind: 'idle' });
              }}
            />
            <button type="submit" className="btn btn--primary" disabled={state.kind === 'busy'}>
              {state.kind === 'busy' ? 'Checking...' : 'Check file'}
            </button>
          </div>
        )}
      </Field>
      <div role="status" aria-live="polite">
        {state.kind === 'done' && (
          <div className={`verify-result ${state.result.genuine ? 'verify-result--good' : 'verify-result--bad'}`}>
            <p className="verify-result__verdict">{state.result.genuine ? 'Genuine, unmodified Persona' : 'Not a genuine, unmodified Persona'}</p>
            <p className="verify-result__reason">{state.result.reason}</p>
            {state.result.personaId && (
              <p className="verify-result__reason">
                Persona ID: <Link to={paths.verifyPersona(state.result.personaId)}>{state.result.personaId}</Link>
              </p>
            )}
          </div>
        )}
        {state.kind === 'failed' && <p className="field__error">{state.message}</p>}
      </div>
    </form>
  );
}
