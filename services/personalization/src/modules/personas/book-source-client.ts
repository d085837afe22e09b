// Reads a book's source from the catalogue's internal routes: the full PDF
// when one was uploaded, else the text to typeset.
import type { BookSource } from '@persona/contracts';
import { INTERNAL_TOKEN_HEADER } from '@persona/service-kit';

export class SourceUnavailableError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'SourceUnavailableError';
  }
}

export interface LoadedSource {
  title: string;
  author: string;
  source: { kind: 'text'; paragraphs: string[] } | { kind: 'pdf'; bytes: Uint8Array };
}

export type SourceReader = (bookId: string, correlationId: string) => Promise<LoadedSource>;

export function catalogueSourceReader(catalogueUrl: string, internalToken: string, timeoutMs = 15_000): SourceReader {
  const get = async (path: string, correlationId: string) => {
    let res: Response;
    try {
      res = await fetch(`${catalogueUrl}${path}`, {
        headers: { [INTERNAL_TOKEN_HEADER]: internalToken, 'x-correlation-id': correlationId },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new SourceUnavailableError(`the catalogue did not answer (${(err as Error).message})`, false);
    }
    if (res.status === 404) throw new SourceUnavailableError(`the catalogue has no ${path}`, true);
    if (!res.ok) throw new SourceUnavailableError(`the catalogue answered ${res.status} for ${path}`, res.status < 500);
    return res;
  };
  return async (bookId, correlationId) => {
    const { data } = (await (await get(`/internal/books/${bookId}/source`, correlationId)).json()) as { data: BookSource };
    if (data.hasFullPdf) {
      const bytes = new Uint8Array(await (await get(`/internal/books/${bookId}/pdf`, correlationId)).arrayBuffer());
      return { title: data.title, author: data.author, source: { kind: 'pdf', bytes } };
    }
    return { title: data.title, author: data.author, source: { kind: 'text', paragraphs: data.paragraphs } };
  };
}
