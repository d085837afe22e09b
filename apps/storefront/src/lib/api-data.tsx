// The storefront's reads of the API, through one cache keyed by the API address
// ("/books?limit=8"). The server renders a page with the answers it fetched and
// sends them along (PageData); the browser starts from them, so hydration sees
// exactly what the server rendered, and fetches only what it lacks. Answers stay
// fresh for a short while, so going back to a page shows it at once.
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { ApiError, apiRequest, isAbortError } from '@persona/web-kit/api-client';
import type { AsyncState } from '@persona/web-kit/use-async';

/** One answer as the server saw it: its data, or its failure (status and the message a person reads). */
export type ApiResult = { ok: true; data: unknown } | { ok: false; status: number; message: string };

/** The answers a page was rendered with, by API address. */
export type PageData = Record<string, ApiResult>;

export const FRESH_MS = 30_000;

export class ApiDataCache {
  readonly #entries = new Map<string, { result: ApiResult; at: number }>();

  constructor(initial: PageData = {}, now = Date.now()) {
    for (const [key, result] of Object.entries(initial)) this.#entries.set(key, { result, at: now });
  }

  /** The answer for `key` when it is recent enough to show. */
  fresh(key: string, now = Date.now()): ApiResult | undefined {
    const entry = this.#entries.get(key);
    return entry && now - entry.at < FRESH_MS ? entry.result : undefined;
  }

  set(key: string, result: ApiResult, now = Date.now()): void {
    this.#entries.set(key, { result, at: now });
  }
}

const ApiDataContext = createContext<ApiDataCache>(new ApiDataCache());

export function ApiDataProvider({ cache, children }: { cache: ApiDataCache; children: ReactNode }) {
  return <ApiDataContext.Provider value={cache}>{children}</ApiDataContext.Provider>;
}

const LOADING = { status: 'loading', data: undefined, error: undefined } as const;

function fromResult<T>(result: ApiResult): AsyncState<T> {
  return result.ok
    ? { status: 'success', data: result.data as T, error: undefined }
    : { status: 'error', data: undefined, error: new ApiError(result.status, result.message) };
}

/** The result a failed call leaves in the cache: an API error keeps its status, anything else is a network failure (0). */
export function failureResult(error: unknown): ApiResult {
  return { ok: false, status: error instanceof ApiError ? error.status : 0, message: error instanceof Error ? error.message : 'Something went wrong!' };
}

/**
 * Reads `path` (an API address below /api, e.g. "/books?tab=fiction&limit=8"); null reads
 * nothing. The first render already has the answer when the page was rendered with it.
 */
export function useApiData<T>(path: string | null): AsyncState<T> & { reload: () => void } {
  const cache = useContext(ApiDataContext);
  const [state, setState] = useState<{ path: string | null; attempt: number; value: AsyncState<T> }>(() => ({
    path,
    attempt: 0,
    value: (path && cache.fresh(path) && fromResult<T>(cache.fresh(path)!)) || LOADING,
  }));
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!path) return;
    if (attempt === 0) {
      const hit = cache.fresh(path);
      if (hit) {
        setState((s) => (s.path === path && s.value.status !== 'loading' ? s : { path, attempt, value: fromResult<T>(hit) }));
        return;
      }
    }
    const controller = new AbortController();
    setState({ path, attempt, value: LOADING });
    apiRequest<T>(path, { signal: controller.signal }).then(
      (data) => {
        cache.set(path, { ok: true, data });
        if (!controller.signal.aborted) setState({ path, attempt, value: { status: 'success', data, error: undefined } });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        setState({ path, attempt, value: { status: 'error', data: undefined, error } });
      },
    );
    return () => controller.abort();
  }, [cache, path, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  // A new address shows its cached answer (or loading) at once, never the previous address's.
  const value = state.path === path ? state.value : (path && cache.fresh(path) && fromResult<T>(cache.fresh(path)!)) || LOADING;
  return { ...value, reload };
}
