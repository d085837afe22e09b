// The one HTTP client of both React apps: relative `/api` URLs (same origin as the gateway),
// JSON in and out, errors turned into ApiError carrying the server's human message.
import type { ErrorBody } from '@persona/contracts';

export class ApiError extends Error {
  readonly status: number;
  /** The answer's machine-readable code (ErrorBody.code: "BAD_CURSOR", "VALIDATION_ERROR"…), when it has one. */
  readonly code: string | undefined;
  constructor(status: number, message: string, code?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, QueryValue>;
  /** Sent as JSON, or as multipart when it is FormData (the browser sets the boundary). */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const url = `/api${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

/** Where the admin token lives (spec §3: local storage, key "token"). */
export const TOKEN_STORAGE_KEY = 'token';

export function storedToken(): string | null {
  try {
    const token = globalThis.localStorage?.getItem(TOKEN_STORAGE_KEY);
    return token && token.trim() ? token : null;
  } catch {
    return null;
  }
}

type UnauthorizedHandler = (error: ApiError) => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;

/** The admin app sends a person back to its login page when any call answers 401. */
export function onUnauthorized(handler: UnauthorizedHandler | null): void {
  unauthorizedHandler = handler;
}

function isErrorBody(value: unknown): value is Partial<ErrorBody> {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';
}

async function send(path: string, options: RequestOptions, accept: string): Promise<Response> {
  const multipart = typeof FormData !== 'undefined' && options.body instanceof FormData;
  const headers: Record<string, string> = { Accept: accept, ...options.headers };
  if (options.body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  // Spec §6: a stored token travels as a bearer header on every call.
  const token = storedToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  const method = options.method ?? 'GET';
  const call = () =>
    fetch(buildUrl(path, options.query), {
      method,
      headers,
      body: options.body === undefined ? undefined : multipart ? (options.body as FormData) : JSON.stringify(options.body),
      signal: options.signal,
    });
  let response = await call();
  // A read the shop shed (busy for a moment) is asked once more after the wait it names; a write never
  // is: the person sees the message and decides.
  const wait = method === 'GET' ? shedWaitMs(response) : null;
  if (wait !== null) {
    await sleep(wait, options.signal);
    response = await call();
  }
  if (!response.ok) {
    const { message, code } = await readError(response);
    const error = new ApiError(response.status, message, code);
    if (response.status === 401 && token && unauthorizedHandler) unauthorizedHandler(error);
    throw error;
  }
  return response;
}

/** The longest a shed read waits before its one retry, whatever Retry-After says. */
export const SHED_RETRY_MAX_MS = 10_000;

/** How long to wait before asking again, when the answer is the shop shedding load (503 + Retry-After). */
function shedWaitMs(response: Response): number | null {
  if (response.status !== 503) return null;
  const header = response.headers.get('retry-after');
  // (Seconds only: the shop never sends a date.)
  if (header === null || !/^\d+$/.test(header.trim())) return null;
  const seconds = Number(header);
  return Math.min(seconds * 1000, SHED_RETRY_MAX_MS);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function readError(response: Response): Promise<{ message: string; code?: string }> {
  const parsed = parseJson(await response.text());
  const code = isErrorBody(parsed) && typeof parsed.code === 'string' ? parsed.code : undefined;
  return { message: isErrorBody(parsed) && parsed.message ? parsed.message : response.statusText || `Request failed (${response.status})`, code };
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options, 'application/json');
  return parseJson(await response.text()) as T;
}

/** A file the API answers (an export): the bytes and the name the server suggests. */
export async function apiDownload(path: string, options: RequestOptions = {}): Promise<{ blob: Blob; filename: string | null }> {
  const response = await send(path, options, '*/*');
  const disposition = response.headers.get('content-disposition') ?? '';
  const match = /filename="?([^";]+)"?/i.exec(disposition);
  return { blob: await response.blob(), filename: match ? match[1] : null };
}

export const api = {
  get: <T>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal) => apiRequest<T>(path, { query, signal }),
  post: <T>(path: string, body: unknown, signal?: AbortSignal) => apiRequest<T>(path, { method: 'POST', body, signal }),
  put: <T>(path: string, body: unknown, signal?: AbortSignal) => apiRequest<T>(path, { method: 'PUT', body, signal }),
  patch: <T>(path: string, body: unknown, signal?: AbortSignal) => apiRequest<T>(path, { method: 'PATCH', body, signal }),
  delete: <T>(path: string, signal?: AbortSignal) => apiRequest<T>(path, { method: 'DELETE', signal }),
};

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException ? error.name === 'AbortError' : (error as { name?: string } | null)?.name === 'AbortError';
}

/** The message a person should read for a failed call. */
export function errorMessage(error: unknown, fallback = 'Something went wrong!'): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
