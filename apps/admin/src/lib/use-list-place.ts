import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ApiError } from '@persona/web-kit/api-client';
import { readPlace, withoutPlace, writePlace, type ListPlace } from './list-place';

/** The list's place in the URL (see list-place.ts) and a way to move it. */
export function useListPlace(): { place: ListPlace; go: (place: ListPlace) => void } {
  const [params, setParams] = useSearchParams();
  return { place: readPlace(params), go: (next) => setParams(writePlace(params, next)) };
}

/**
 * A page link the server no longer accepts (`BAD_CURSOR`: edited by hand, or made by an older
 * version) sends the person to the first page instead of leaving them at an error. Answers the
 * error worth telling the person about (none for a stale link).
 */
export function useStaleLinkReset(error: unknown): unknown {
  const [params, setParams] = useSearchParams();
  const stale = error instanceof ApiError && error.code === 'BAD_CURSOR';
  useEffect(() => {
    if (stale) setParams(withoutPlace(params), { replace: true });
  }, [stale, params, setParams]);
  return stale ? null : error;
}
