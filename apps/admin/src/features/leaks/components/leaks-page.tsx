// Find a leaked copy: an administrator uploads a PDF or EPUB of a Persona found outside the shop,
// and the invisible mark every copy carries names the order it was sold in.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { LeakFinding } from '@persona/contracts';
import { PageHeader } from '../../../components/page-header';
import { paths } from '../../../config/paths';
import { formatDate } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { checkLeakFile, formatMegabytes, LEAK_FILE_ACCEPT, MAX_LEAK_UPLOAD_LABEL, searchLeak } from '../lib/leak-search';

export function LeaksPage() {
  usePageTitle('Find a leaked copy');
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  // A file refused before sending (its type, its size, none chosen): said beside the input.
  const [problem, setProblem] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const uploadingRef = useRef(false);
  const [finding, setFinding] = useState<LeakFinding | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const request = useRef<AbortController | null>(null);
  // Leaving the page drops an upload still on its way.
  useEffect(() => () => request.current?.abort(), []);

  function pick(list: FileList | null) {
    const chosen = list?.[0] ?? null;
    // What was found belongs to the previous file.
    setFinding(null);
    setFailure(null);
    const refused = chosen && checkLeakFile(chosen);
    setProblem(refused || null);
    if (refused && input.current) input.current.value = '';
    setFile(refused ? null : chosen);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // A second submit while uploading is ignored (the ref closes the gap before React re-renders).
    if (uploadingRef.current) return;
    setFinding(null);
    setFailure(null);
    setProblem(null);
    const controller = new AbortController();
    request.current = controller;
    uploadingRef.current = true;
    setUploading(true);
    const outcome = await searchLeak(file, controller.signal);
    if (controller.signal.aborted) return;
    uploadingRef.current = false;
    setUploading(false);
    if (outcome.kind === 'refused') {
      setProblem(outcome.message);
      input.current?.focus();
    } else if (outcome.kind === 'failed') setFailure(outcome.message);
    else setFinding(outcome.finding);
  }

  const hintId = `${id}-hint`;
  const problemId = `${id}-problem`;

  return (
    <>
      <PageHeader title="Find a leaked copy" />
      <p className="page-intro">
        Upload a PDF or EPUB of a Persona found outside the shop: the mark every copy carries names the order it was sold in. The mark survives a removed footer
        or metadata and re-saving; it does not survive a photo or a retyped text.
      </p>
      <div className="split leak-page">
        <form className="panel" onSubmit={submit} aria-busy={uploading}>
          <div className="field">
            <label htmlFor={id}>The copy (PDF or EPUB)</label>
            <input
              ref={input}
              id={id}
              name="file"
              type="file"
              accept={LEAK_FILE_ACCEPT}
              disabled={uploading}
              onChange={(e) => pick(e.target.files)}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${hintId} ${problemId}` : hintId}
            />
            <p id={hintId} className="form-note">
              A .pdf or .epub file, at most {MAX_LEAK_UPLOAD_LABEL}.
            </p>
            {file && (
              <p className="form-note">
                Chosen: {file.name} ({formatMegabytes(file.size)})
              </p>
            )}
            {problem && <LeakAlert id={problemId} message={problem} />}
          </div>
          <div className="form-actions">
            <button type="submit" className="btn btn--primary" disabled={uploading}>
              {uploading ? 'Finding the order...' : 'Find the order'}
            </button>
          </div>
        </form>
        <div className="leak-page__answer">
          {failure && <LeakAlert message={failure} />}
          <div aria-live="polite">
            {uploading && (
              <p className="page-loading">
                <span className="spinner" aria-hidden="true" /> Reading the copy&apos;s mark...
              </p>
            )}
            {finding && <LeakResult finding={finding} />}
          </div>
        </div>
      </div>
    </>
  );
}

/** A refusal or a failed search, in the admin's error style. */
export function LeakAlert({ message, id }: { message: string; id?: string }) {
  return (
    <div className="load-error" role="alert" id={id}>
      <p>{message}</p>
    </div>
  );
}

/** What the copy's mark names: the order it was sold in, or that none matches, with where the mark was read. */
export function LeakResult({ finding }: { finding: LeakFinding }) {
  const titleId = useId();
  const { match, evidence } = finding;
  if (!match) {
    return (
      <section className="panel leak-result" aria-labelledby={titleId}>
        <h2 id={titleId} className="section-title">
          No order matches this copy
        </h2>
        <p className="leak-result__evidence">{evidence}</p>
      </section>
    );
  }
  return (
    <section className="panel leak-result" aria-labelledby={titleId}>
      <h2 id={titleId} className="section-title leak-result__title">
        This copy was sold in order {match.orderId}
      </h2>
      <dl className="detail-list">
        <div>
          <dt>Persona ID</dt>
          <dd className="mono">{match.personaId}</dd>
        </div>
        <div>
          <dt>Book</dt>
          <dd>{match.bookTitle}</dd>
        </div>
        <div>
          <dt>Buyer</dt>
          <dd>{match.buyerName}</dd>
        </div>
        {match.recipientName && (
          <div>
            <dt>Recipient</dt>
            <dd>{match.recipientName} (a gift)</dd>
          </div>
        )}
        <div>
          <dt>Paid on</dt>
          {/* A YYYY-MM-DD day reads as UTC midnight: still that day in India time. */}
          <dd>{formatDate(match.paidAt)}</dd>
        </div>
      </dl>
      <p className="leak-result__evidence">{evidence}</p>
      {/* The next step: the order page has the buyer to write to, the Persona's downloads (to stop them) and its timeline. */}
      <div className="leak-result__next">
        <p className="leak-result__link">Next: see who bought it and how often it was downloaded, stop its downloads or write to the buyer.</p>
        <Link to={paths.order(match.orderId)} className="btn btn--primary">
          Open this order
        </Link>
      </div>
    </section>
  );
}
