// Reads a book's source from the catalogue's internal routes: the full PDF
// when one was uploaded, else the text to typeset; and the images a Persona
// prints, when the book has them (issue 24): its cover and the author's own signature.
import type { BookSource } from '@persona/contracts';
import { dataOf, getFromService } from '@persona/service-kit';
import { LRUCache } from 'lru-cache';

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
  /** The book's description: a printed copy's back cover (issue 27). */
  description?: string;
  source: { kind: 'text'; paragraphs: string[] } | { kind: 'pdf'; bytes: Uint8Array };
  /** The book's cover (PNG or JPEG), when it has one: the Persona's page 1 and the EPUB's cover image. */
  cover?: Uint8Array;
  /** The author's own signature (PNG), when it was uploaded: drawn on the dedication page. */
  authorSignature?: Uint8Array;
}

export type SourceReader = (bookId: string, correlationId: string) => Promise<LoadedSource>;

/** The most of the sources read that are kept, by the bytes of their text or PDF. */
export const SOURCE_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The catalogue's internal routes, each book's source kept with its entity tag and asked for again
 * with it: while the book is unchanged the catalogue answers 304 and sends nothing more (a book sold
 * often was read, whole, for every copy), and a book written since is read again.
 */
export function catalogueSourceReader(catalogueUrl: string, internalToken: string, timeoutMs = 15_000, cacheBytes = SOURCE_CACHE_BYTES): SourceReader {
  const kept = new LRUCache<string, { tag: string; source: LoadedSource }>({
    maxSize: cacheBytes,
    // A string's UTF-16 units, two bytes each; a PDF's bytes.
    sizeCalculation: ({ source }) =>
      Math.max(
        1,
        (source.source.kind === 'pdf' ? source.source.bytes.byteLength : source.source.paragraphs.reduce((sum, p) => sum + 2 * p.length, 0)) +
          (source.cover?.byteLength ?? 0) +
          (source.authorSignature?.byteLength ?? 0),
      ),
  });
  const get = async (path: string, correlationId: string, ifNoneMatch?: string) => {
    const answer = await getFromService(catalogueUrl, path, { correlationId, internalToken, timeoutMs, ifNoneMatch });
    if (answer.ok) return answer.response;
    // A book that is gone, or a request the catalogue refuses, will not succeed on a retry.
    throw new SourceUnavailableError(`the catalogue ${answer.detail}`, answer.outcome === 'missing' || answer.outcome === 'refused');
  };
  return async (bookId, correlationId) => {
    const known = kept.get(bookId);
    const response = await get(`/internal/books/${bookId}/source`, correlationId, known?.tag);
    if (known && response.status === 304) return known.source;
    const tag = response.headers.get('etag');
    const data = await dataOf<BookSource>(response);
    const bytesOf = async (what: string) => new Uint8Array(await (await get(`/internal/books/${bookId}/${what}`, correlationId)).arrayBuffer());
    // Read with the source and kept with it: the same entity tag answers for them.
    const [pdf, cover, authorSignature] = await Promise.all([
      data.hasFullPdf ? bytesOf('pdf') : undefined,
      data.hasCover ? bytesOf('cover') : undefined,
      data.hasAuthorSignature ? bytesOf('signature') : undefined,
    ]);
    const source: LoadedSource = {
      title: data.title,
      author: data.author,
      language: data.language,
      description: data.description ?? '',
      source: pdf ? { kind: 'pdf', bytes: pdf } : { kind: 'text', paragraphs: data.paragraphs },
      ...(cover ? { cover } : {}),
      ...(authorSignature ? { authorSignature } : {}),
    };
    if (tag) kept.set(bookId, { tag, source });
    else kept.delete(bookId);
    return source;
  };
}
