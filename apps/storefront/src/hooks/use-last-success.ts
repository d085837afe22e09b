import { useRef } from 'react';
import type { AsyncState } from '@persona/web-kit/use-async';

/** The latest successful data of a changing read, kept while the next one loads (no flash of skeletons between filters). */
export function useLastSuccess<T>(state: AsyncState<T>): T | undefined {
  const last = useRef<T | undefined>(undefined);
  if (state.status === 'success') last.current = state.data;
  return state.status === 'error' ? undefined : last.current;
}
