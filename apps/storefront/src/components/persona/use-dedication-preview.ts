// The dedication page's preview as the buyer types (DESIGN §12): the name and message checked
// here with the shop's printing rules, then, once typing has paused, drawn by the Persona engine
// (POST /api/personas/preview); a newer text aborts the request still under way.
import { useEffect, useState } from 'react';
import { giftMessageProblem, printedNameProblem } from '@persona/contracts';
import { apiDownload, errorMessage, isAbortError } from '@persona/web-kit/api-client';
import { useDebouncedValue } from '../../hooks/use-debounced-value';

/** Typing pauses this long before a preview is asked for: short, the page answers within 300 ms of the pause. */
export const PREVIEW_DEBOUNCE_MS = 120;

export type PreviewState =
  | { status: 'empty' }
  | { status: 'loading'; url: string | null }
  | { status: 'ready'; url: string; name: string }
  | { status: 'invalid'; message: string }
  | { status: 'error'; message: string; url: string | null };

export function useDedicationPreview(bookId: string, name: string, message = ''): PreviewState {
  // A string settles (an object would be new at every render and never settle).
  const key = useDebouncedValue(JSON.stringify([name.trim(), message.trim()]), PREVIEW_DEBOUNCE_MS);
  const [settledName, settledMessage] = JSON.parse(key) as [string, string];
  const settled = { name: settledName, message: settledMessage };
  const [state, setState] = useState<PreviewState>({ status: 'empty' });

  useEffect(() => {
    if (!settled.name) {
      setState({ status: 'empty' });
      return;
    }
    const problem = printedNameProblem(settled.name) ?? (settled.message ? giftMessageProblem(settled.message) : null);
    if (problem) {
      setState({ status: 'invalid', message: problem });
      return;
    }
    const controller = new AbortController();
    setState((current) => ({ status: 'loading', url: 'url' in current ? current.url : null }));
    apiDownload('/personas/preview', {
      method: 'POST',
      body: { bookId, name: settled.name, ...(settled.message ? { message: settled.message } : {}) },
      signal: controller.signal,
    })
      .then(({ blob }) => setState({ status: 'ready', url: URL.createObjectURL(blob), name: settled.name }))
      .catch((error: unknown) => {
        if (isAbortError(error)) return;
        setState((current) => ({
          status: 'error',
          message: errorMessage(error, 'The preview could not be drawn'),
          url: 'url' in current ? current.url : null,
        }));
      });
    return () => controller.abort();
  }, [bookId, settled.name, settled.message]);

  // Each image's address is let go once a newer one shows.
  const url = 'url' in state ? state.url : null;
  useEffect(() => {
    if (!url) return;
    return () => {
      window.setTimeout(() => URL.revokeObjectURL(url), 0);
    };
  }, [url]);

  return state;
}
