// A Persona's download buttons, named by format, each with what it has left (issue 24); past the
// limit or the days, a clear notice in their place with "Ask for more downloads", which e-mails the
// buyer a link (never an address typed here). Shared by /send-persona and the library.
import { useCallback, useEffect, useId, useState } from 'react';
import type { PersonaDownload, PersonaDownloads as Allowance } from '@persona/contracts';
import { errorMessage, isAbortError } from '@persona/web-kit/api-client';
import { askForMoreDownloads, downloadLabel, downloadsLeftText, downloadsRefusal, getPersonaDownloads } from '../../lib/persona-downloads';
import './persona-downloads.css';

interface PersonaDownloadsProps {
  personaId: string;
  /** The order's downloads (none before the Persona is ready, or once its licence ended). */
  downloads: readonly PersonaDownload[];
  /** Named for screen readers after each button ("Download PDF of …"). */
  bookTitle: string;
  size?: 'lg' | 'sm';
  /** An allowance the page already has (a renewal link just opened): shown at once, then kept current. */
  known?: Allowance | null;
}

/** After a click the browser's download starts on its own; the count is read again once it has been counted. */
const RECOUNT_AFTER_MS = 1500;

export function PersonaDownloads({ personaId, downloads, bookTitle, size = 'lg', known = null }: PersonaDownloadsProps) {
  const [allowance, setAllowance] = useState<Allowance | null>(known);
  const [asked, setAsked] = useState<{ state: 'idle' | 'sending' } | { state: 'sent' | 'failed'; message: string }>({ state: 'idle' });
  const headingId = useId();
  const hasDownloads = downloads.length > 0;

  const load = useCallback(
    (signal?: AbortSignal) =>
      getPersonaDownloads(personaId, signal).then(setAllowance, (error: unknown) => {
        // Without the counts the buttons still work: the server counts and refuses by itself.
        if (!isAbortError(error)) setAllowance(null);
      }),
    [personaId],
  );
  useEffect(() => {
    if (known) setAllowance(known);
  }, [known]);
  useEffect(() => {
    if (!hasDownloads) return;
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [hasDownloads, load]);

  if (!hasDownloads) return null;
  const refusal = allowance ? downloadsRefusal(allowance) : null;
  const countOf = (format: PersonaDownload['format']) => allowance?.formats.find((f) => f.format === format);
  const open = downloads.filter((d) => {
    const count = countOf(d.format);
    return !count || count.left > 0;
  });

  async function ask() {
    setAsked({ state: 'sending' });
    try {
      setAsked({ state: 'sent', message: await askForMoreDownloads(personaId) });
    } catch (error) {
      setAsked({ state: 'failed', message: errorMessage(error) });
    }
  }

  return (
    <div className={`persona-downloads persona-downloads--${size}`}>
      {refusal && (
        <section className="persona-downloads__refused" aria-labelledby={headingId}>
          <h2 id={headingId} className="persona-downloads__refused-title">
            {refusal.title}
          </h2>
          <p>{refusal.message}</p>
          {refusal.canAsk &&
            (asked.state === 'sent' ? (
              <p className="persona-downloads__sent" role="status">
                {asked.message}
              </p>
            ) : (
              <>
                <button type="button" className="btn btn--primary" onClick={() => void ask()} disabled={asked.state === 'sending'}>
                  {asked.state === 'sending' ? 'Sending...' : 'Ask for more downloads'}
                </button>
                {asked.state === 'failed' && (
                  <p className="persona-downloads__error" role="alert">
                    {asked.message}
                  </p>
                )}
              </>
            ))}
        </section>
      )}
      {open.length > 0 && (!allowance || allowance.status === 'open') && (
        <div className="persona-downloads__list">
          {open.map((download, index) => {
            const count = countOf(download.format);
            return (
              <div key={download.format} className="persona-downloads__item">
                <a
                  href={download.url}
                  download
                  className={`btn ${index === 0 ? 'btn--primary' : 'btn--outline'} btn--${size}`}
                  onClick={() => window.setTimeout(() => void load(), RECOUNT_AFTER_MS)}
                >
                  {downloadLabel(download.format)}
                  <span className="visually-hidden"> of {bookTitle}</span>
                </a>
                {count && <span className="persona-downloads__left">{downloadsLeftText(count)}</span>}
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
