// What the server said about a refused call, when it said something a person should read.
import { ApiError } from '@persona/web-kit/api-client';

// The client falls back to the bare status line when an answer carries no message of its own
// (a proxy's HTML error page, an empty body): that is no explanation, so it does not count.
const REASON_PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The server's own message for a refused call; null for a network failure or an answer that explained nothing. */
export function serverMessage(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const text = error.message.trim();
  if (!text || text === `Request failed (${error.status})` || text === REASON_PHRASES[error.status]) return null;
  return text;
}
