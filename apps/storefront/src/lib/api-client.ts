// The one HTTP client: relative `/api` URLs (same origin as the gateway), JSON in and out,
// errors turned into ApiError carrying the server's human message.
import type { ErrorBody } from '@persona/contracts';

export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
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

function storedToken(): string | null {
  try {
    const token = globalThis.localStorage?.getItem('token');
    return token && token.trim() ? token : null;
  } catch {
    return null;
  }
}

function isErrorBody(value: unknown): value is Partial<ErrorBody> {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const multipart = typeof FormData !== 'undefined' && options.body instanceof FormData;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  // Spec §6: a stored token travels as a bearer header on every call.
  const token = storedToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  const response = await fetch(buildUrl(path, options.query), {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : multipart ? (options.body as FormData) : JSON.stringify(options.body),
    signal: options.signal,
  });

  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  if (!response.ok) {
    const message = isErrorBody(parsed) && parsed.message ? parsed.message : response.statusText || `Request failed (${response.status})`;
    throw new ApiError(response.status, message);
  }
  return parsed as T;
}

export const api = {
  get: <T>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal) => apiRequest<T>(path, { query, signal }),
  post: <T>(path: string, body: unknown, signal?: AbortSignal) => apiRequest<T>(path, { method: 'POST', body, signal }),
};

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException ? error.name === 'AbortError' : (error as { name?: string } | null)?.name === 'AbortError';
}

/** The message a person should read for a failed call. */
export function errorMessage(error: unknown, fallback = 'Something went wrong!'): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
