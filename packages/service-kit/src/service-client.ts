// One GET from one service to another, written once: the caller's correlation id carried, the
// internal token when the route is internal, a timeout, and the outcome named rather than thrown.
// Each service keeps one small typed client per need (the orders' book at checkout, the
// personalisation's book source, the admin's book title) that turns these outcomes into its errors.
import { INTERNAL_TOKEN_HEADER } from './secrets';

export interface ServiceCall {
  correlationId?: string;
  /** Sent as INTERNAL_TOKEN_HEADER, for `/internal` routes. */
  internalToken?: string;
  timeoutMs: number;
  /** The entity tag of the copy the caller keeps: a 304 answer (ok, no body) says it is still current. */
  ifNoneMatch?: string;
}

export type ServiceAnswer =
  | { ok: true; response: Response }
  /** unreachable: no answer in time (or no connection); missing: 404; refused: another 4xx; failed: 5xx. */
  | { ok: false; outcome: 'unreachable' | 'missing' | 'refused' | 'failed'; detail: string };

export async function getFromService(baseUrl: string, path: string, call: ServiceCall): Promise<ServiceAnswer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (call.correlationId) headers['x-correlation-id'] = call.correlationId;
  if (call.internalToken) headers[INTERNAL_TOKEN_HEADER] = call.internalToken;
  if (call.ifNoneMatch) headers['if-none-match'] = call.ifNoneMatch;
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${path}`, { headers, signal: AbortSignal.timeout(call.timeoutMs) });
  } catch (err) {
    return { ok: false, outcome: 'unreachable', detail: `no answer for ${path} (${(err as Error).message})` };
  }
  if (response.ok || (call.ifNoneMatch && response.status === 304)) return { ok: true, response };
  const outcome = response.status === 404 ? 'missing' : response.status < 500 ? 'refused' : 'failed';
  return { ok: false, outcome, detail: `answered ${response.status} for ${path}${await reasonOf(response)}` };
}

/** The longest error answer whose message is read: the house's `{statusCode, error, message}` is far smaller. */
const MAX_REASON_BODY = 4096;

/**
 * What an error answer says went wrong (its `message`), for the detail that reaches logs and an
 * owner's alert ("The full PDF file is missing" says more than a 404); nothing when it is not a
 * small JSON answer with one.
 */
async function reasonOf(response: Response): Promise<string> {
  const length = Number(response.headers.get('content-length') ?? Number.POSITIVE_INFINITY);
  if (!(length <= MAX_REASON_BODY) || !/\bjson\b/.test(response.headers.get('content-type') ?? '')) {
    await response.body?.cancel();
    return '';
  }
  try {
    const { message } = (await response.json()) as { message?: unknown };
    return typeof message === 'string' && message.trim() ? `: ${message.trim().slice(0, 200)}` : '';
  } catch {
    return '';
  }
}

/** The `data` of a JSON answer `{ data }`, typed by the contract the route answers with. */
export async function dataOf<T>(response: Response): Promise<T> {
  return ((await response.json()) as { data: T }).data;
}
