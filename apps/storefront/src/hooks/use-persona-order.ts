// Loads the order for a persona id and, while it can still change by itself (its Persona being
// prepared, its payment awaited), keeps it current by polling (persona-polling's intervals;
// backing off after failed lookups; stopping when ready or failed and on unmount).
import { useCallback, useEffect, useState } from 'react';
import type { PublicOrder } from '@persona/contracts';
import { isAbortError } from '@persona/web-kit/api-client';
import { getOrderByPersonaId } from '../lib/get-order';
import { nextPollDelay, pollInterval, shouldPoll } from '../lib/persona-polling';

export type PersonaOrderState =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  /** `stale`: the latest refresh failed; the order shown is the last one read. */
  | { status: 'success'; order: PublicOrder; stale: boolean };

/** `enabled` false: nothing is asked (a page without a Persona ID to ask about). */
export function usePersonaOrder(personaId: string, enabled = true): PersonaOrderState & { reload: () => void } {
  const [state, setState] = useState<PersonaOrderState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let stopped = false;
    let timer: number | undefined;
    let controller: AbortController | null = null;
    let known: PublicOrder | null = null;
    let errors = 0;

    const load = async () => {
      controller = new AbortController();
      try {
        const order = await getOrderByPersonaId(personaId, controller.signal);
        if (stopped) return;
        known = order;
        errors = 0;
        setState({ status: 'success', order, stale: false });
        if (shouldPoll(order)) schedule();
      } catch (error) {
        if (stopped || isAbortError(error)) return;
        if (!known) {
          setState({ status: 'error', error });
          return;
        }
        errors += 1;
        setState({ status: 'success', order: known, stale: true });
        schedule();
      }
    };
    const schedule = () => {
      timer = window.setTimeout(() => void load(), nextPollDelay(errors, known ? pollInterval(known) : undefined));
    };

    setState({ status: 'loading' });
    if (!enabled) return;
    void load();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      controller?.abort();
    };
  }, [personaId, enabled, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, reload };
}
