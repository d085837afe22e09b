// Previews of a dedication page as the buyer types (DESIGN §12): the name and message checked with
// the checkout's printing rules, the book's title and author read from the catalogue (and kept a
// minute), the image drawn by the PDF pool (previews before Personas) and cached by its inputs, so
// the same text typed again, or by another buyer, is answered at once (with REDIS_URL, by any replica).
// A preview shows a buyer's name and message: it is kept PREVIEW_CACHE_MINUTES, in memory and in
// Redis alike, and then forgotten (the Persona itself is made from the order, never from a preview).
import { createHash } from 'node:crypto';
import {
  giftMessageProblem,
  normalizeGiftMessage,
  normalizePrintedName,
  PERSONA_PREVIEW_WIDTH,
  personaPrintProblem,
  printedNameProblem,
  shopDate,
} from '@persona/contracts';
import { badRequest, dataOf, getFromService, HttpError, notFound, type SharedBytes } from '@persona/service-kit';
import { LRUCache } from 'lru-cache';
import type { BuildPool } from '../build-pool/build-pool';

export interface BookTitle {
  title: string;
  author: string;
  /** The author's own signature (PNG), when the book has one: the preview draws it as the Persona will. */
  authorSignature?: Uint8Array;
}

/** A book's title and author by id, or null when the catalogue has no such book. */
export type BookTitleReader = (bookId: string, correlationId: string) => Promise<BookTitle | null>;

const unreachable = () => new HttpError(503, 'The catalogue cannot be reached to draw this preview; please try again', 'CATALOGUE_UNAVAILABLE');

/**
 * The catalogue's public answer for a book (what everyone sees of it), and the author's own
 * signature from its internal route when the book has one.
 */
export function catalogueTitleReader(catalogueUrl: string, internalToken: string, timeoutMs = 5_000): BookTitleReader {
  return async (bookId, correlationId) => {
    const answer = await getFromService(catalogueUrl, `/api/books/${bookId}`, { correlationId, timeoutMs });
    if (!answer.ok) {
      if (answer.outcome === 'missing') return null;
      throw unreachable();
    }
    const book = await dataOf<BookTitle & { hasAuthorSignature?: boolean }>(answer.response);
    if (!book.hasAuthorSignature) return { title: book.title, author: book.author };
    const signature = await getFromService(catalogueUrl, `/internal/books/${bookId}/signature`, { correlationId, internalToken, timeoutMs });
    if (!signature.ok) {
      // Removed since the book was read: the page the Persona would print has no signature either.
      if (signature.outcome === 'missing') return { title: book.title, author: book.author };
      throw unreachable();
    }
    return { title: book.title, author: book.author, authorSignature: new Uint8Array(await signature.response.arrayBuffer()) };
  };
}

export interface PreviewRequest {
  bookId: string;
  name: string;
  message?: string;
}

export interface Previews {
  /** The PNG of the dedication page, and whether it came from the cache. */
  draw(request: PreviewRequest, correlationId: string, signal?: AbortSignal): Promise<{ image: Uint8Array; cached: boolean }>;
}

/** How long a preview is kept, in this process and for the other replicas (PREVIEW_CACHE_MINUTES): while a checkout is filled in. */
export const DEFAULT_PREVIEW_CACHE_MINUTES = 60;

export interface PreviewDeps {
  pool: BuildPool;
  readTitle: BookTitleReader;
  publicUrl: string;
  now?: () => Date;
  /** Previews every replica shares (Redis, with REDIS_URL, kept as long as `keepMs`): a text drawn by one is not drawn again by another. */
  shared?: SharedBytes;
  /** How long a drawn preview is kept in this process (default DEFAULT_PREVIEW_CACHE_MINUTES). */
  keepMs?: number;
  /** The cache's clock, milliseconds (tests); performance.now by default. */
  clock?: () => number;
}

export function createPreviews(deps: PreviewDeps): Previews {
  const titles = new LRUCache<string, BookTitle>({ max: 1000, ttl: 60_000 });
  const images = new LRUCache<string, Uint8Array>({
    max: 2000,
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (image) => image.byteLength,
    ttl: deps.keepMs ?? DEFAULT_PREVIEW_CACHE_MINUTES * 60_000,
    // An expired preview is dropped by a timer too, not only when asked again: a name is not kept longer than said.
    ttlAutopurge: true,
    ...(deps.clock ? { perf: { now: deps.clock }, ttlResolution: 0 } : {}),
  });
  return {
    async draw(request, correlationId, signal) {
      const nameProblem = printedNameProblem(request.name);
      if (nameProblem) throw badRequest(nameProblem);
      const messageProblem = request.message === undefined ? null : giftMessageProblem(request.message);
      if (messageProblem) throw badRequest(messageProblem);
      let book = titles.get(request.bookId);
      if (!book) {
        const found = await deps.readTitle(request.bookId, correlationId);
        if (!found) throw notFound('Book not found');
        book = found;
        titles.set(request.bookId, book);
      }
      const input = {
        title: book.title,
        author: book.author,
        ...(book.authorSignature ? { authorSignature: book.authorSignature } : {}),
        name: normalizePrintedName(request.name),
        message: request.message === undefined ? '' : normalizeGiftMessage(request.message),
        purchaseDate: shopDate(deps.now?.() ?? new Date()),
        publicUrl: deps.publicUrl,
        widthPx: PERSONA_PREVIEW_WIDTH,
      };
      // The engine's own check (buildPersonaPdf): no preview of a page no Persona could print.
      const printProblem = personaPrintProblem(input);
      if (printProblem) throw new HttpError(422, printProblem, 'NOT_PRINTABLE');
      const { authorSignature, ...text } = input;
      const key = createHash('sha256')
        .update(JSON.stringify(text))
        .update(authorSignature ?? new Uint8Array(0))
        .digest('hex');
      const kept = images.get(key);
      // Not set again: a preview asked for again and again is still forgotten keepMs after it was drawn.
      if (kept) return { image: kept, cached: true };
      const shared = await deps.shared?.get(key);
      if (shared) {
        images.set(key, shared);
        return { image: shared, cached: true };
      }
      const image = await deps.pool.preview(input, signal);
      images.set(key, image);
      // Kept for the other replicas meanwhile: the buyer waits for the drawing, not for Redis.
      void deps.shared?.set(key, image);
      return { image, cached: false };
    },
  };
}
