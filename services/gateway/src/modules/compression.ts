// Content codings the gateway sends text in: which one a browser takes, and the compression
// itself (off the event loop, at levels that cost well under a millisecond for a page of books).
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type ContentCoding = 'br' | 'gzip';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * The coding to send for this Accept-Encoding: Brotli, else gzip, when the client takes it
 * (q > 0) and it is available; else none (the body as it is).
 */
export function negotiateCoding(acceptEncoding: string | undefined, available: Partial<Record<ContentCoding, unknown>>): ContentCoding | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(name.trim());
  }
  for (const coding of ['br', 'gzip'] as const) {
    if (available[coding] && (accepted.has(coding) || accepted.has('*'))) return coding;
  }
  return undefined;
}

/** Every coding, for a body made per request (a page). */
export const ANY_CODING: Readonly<Record<ContentCoding, true>> = { br: true, gzip: true };

export function compressText(body: Buffer | string, coding: ContentCoding): Promise<Buffer> {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  return coding === 'br'
    ? brotli(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: length },
      })
    : gzipAsync(body, { level: 6 });
}
