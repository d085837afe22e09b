// Reads a book's source from the catalogue's internal routes: the full PDF
// when one was uploaded, else the text to typeset.
import type { BookSource } from '@persona/contracts';
import { dataOf, getFromService } from '@persona/service-kit';

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
  /** As readers name it ("English"); the EPUB's language. */
  language: string;
  source: { kind: 'text'; paragraphs: string[] } | { kind: 'pdf'; bytes: Uint8Array };
}

export type SourceReader = (bookId: string, correlationId: string) => Promise<LoadedSource>;

export function catalogueSourceReader(catalogueUrl: string, internalToken: string, timeoutMs = 15_000): SourceReader {
  const get = async (path: string, correlationId: string) => {
    const answer = await getFromService(catalogueUrl, path, { correlationId, internalToken, timeoutMs });
    if (answer.ok) return answer.response;
    // A book that is gone, or a request the catalogue refuses, will not succeed on a retry.
    throw new SourceUnavailableError(`the catalogue ${answer.detail}`, answer.outcome === 'missing' || answer.outcome === 'refused');
  };
  return async (bookId, correlationId) => {
    const data = await dataOf<BookSource>(await get(`/internal/books/${bookId}/source`, correlationId));
    if (data.hasFullPdf) {
      const bytes = new Uint8Array(await (await get(`/internal/books/${bookId}/pdf`, correlationId)).arrayBuffer());
      return { title: data.title, author: data.author, language: data.language, source: { kind: 'pdf', bytes } };
    }
    return { title: data.title, author: data.author, language: data.language, source: { kind: 'text', paragraphs: data.paragraphs } };
  };
}
