// Reads public API answers for the pages the gateway renders: from the shared cache when it
// holds them (the same cache the proxy fills, so a write through the gateway is seen at once),
// else from the owning service, storing what may be shared (SharedCache.store keeps only a whole
// answer). Never throws: a failure, an answer that is not JSON included, is an answer with a
// status and a message, which the page shows as the browser would have.
import type { ServiceName } from '@persona/contracts';
import type { RequestHeaders, SharedCache } from '../proxy/shared-cache';
import { ownerOf } from '../proxy/upstreams';

export type ApiResult = { ok: true; data: unknown } | { ok: false; status: number; message: string };

export interface ApiReaderOptions {
  upstreams: Partial<Record<ServiceName, string>>;
  cache?: SharedCache;
  /** A page waits this long for its data, then renders with the failure. */
  timeoutMs?: number;
}

/**
 * What every read asks with, so an answer that varies by them is served from the cache only when
 * it was made for the same; the identity body, which is what the cache keeps and measures.
 */
const READ_HEADERS = { accept: 'application/json', 'accept-encoding': 'identity' } as const satisfies RequestHeaders;

type Answer = ApiResult | { answer: ApiResult; text: string };

/** The answer's data, or a 502 when its text is not JSON (a stored or fetched body alike). */
function jsonAnswer(text: string, owner: string): Answer {
  try {
    return { answer: { ok: true, data: JSON.parse(text) as unknown }, text };
  } catch {
    return { ok: false, status: 502, message: `The ${owner} service sent an answer that is not JSON` };
  }
}

function messageOf(body: string, status: number): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string' && parsed.message) return parsed.message;
  } catch {
    // not JSON
  }
  return `Request failed (${status})`;
}

export class ApiReader {
  constructor(private readonly options: ApiReaderOptions) {}

  /** `path` is an API address below /api ("/books?limit=8"), as the storefront names it. */
  async read(path: string, ids: { requestId: string; correlationId: string }): Promise<ApiResult> {
    return (await this.answer(path, ids)).result;
  }

  /** The answer and, when it is a success, its text exactly as the service sent it (what a page's cache key is made of). */
  async answer(path: string, ids: { requestId: string; correlationId: string }): Promise<{ result: ApiResult; text: string | null }> {
    const result = await this.fetchAnswer(path, ids);
    return 'text' in result ? { result: result.answer, text: result.text } : { result, text: null };
  }

  private async fetchAnswer(path: string, ids: { requestId: string; correlationId: string }): Promise<Answer> {
    const url = `/api${path}`;
    const owner = ownerOf(url.split('?')[0]!);
    const base = owner && this.options.upstreams[owner];
    if (!base) return { ok: false, status: 503, message: 'This part of the shop is not available yet' };
    const { cache } = this.options;
    const hit = cache?.get(url, READ_HEADERS);
    if (hit) return jsonAnswer(hit.body.toString('utf8'), owner);
    const generation = cache?.generation ?? 0;
    let res: Response;
    let body: Buffer;
    try {
      res = await fetch(`${base}${url}`, {
        headers: { ...READ_HEADERS, 'x-request-id': ids.requestId, 'x-correlation-id': ids.correlationId },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 3000),
      });
      body = Buffer.from(await res.arrayBuffer());
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError';
      return {
        ok: false,
        status: timedOut ? 504 : 503,
        message: timedOut ? `The ${owner} service took too long to answer, please try again` : `The ${owner} service is unavailable, please try again shortly`,
      };
    }
    const text = body.toString('utf8');
    if (!res.ok) return { ok: false, status: res.status, message: messageOf(text, res.status) };
    if (cache) {
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        headers[name] = value;
      });
      // Stored as the proxy stores: with the upstream's own content-length and coding to be measured against
      // (fetch would decode a coding the service chose anyway: such an answer is refused).
      cache.store(url, res.status, headers, body, { generation, request: READ_HEADERS });
    }
    return jsonAnswer(text, owner);
  }
}
