// Reads the book being bought from the catalogue (DESIGN §1: a read that must
// be current goes over HTTP to the owning service), with a timeout: its
// internal checkout answer, priced in paise as the catalogue stores them, so
// no amount charged ever passes through the public API's rupees.
import type { Book, CheckoutBook } from '@persona/contracts';
import { dataOf, getFromService, HttpError, notFound, personaImageToken } from '@persona/service-kit';

export type { CheckoutBook } from '@persona/contracts';

export type BookReader = (bookId: string, correlationId: string) => Promise<CheckoutBook>;

const wholePaise = (amount: unknown) => Number.isSafeInteger(amount) && (amount as number) >= 0;
const isCheckoutBook = (book: CheckoutBook | null): book is CheckoutBook =>
  !!book &&
  typeof book.id === 'string' &&
  typeof book.title === 'string' &&
  typeof book.author === 'string' &&
  wholePaise(book.pricePaise) &&
  wholePaise(book.printingCostPaise);

const catalogueUnavailable = () => new HttpError(503, 'The catalogue is not answering right now; please try again shortly', 'CATALOGUE_UNAVAILABLE');

export function catalogueBookReader(catalogueUrl: string, internalToken: string, timeoutMs = 3000): BookReader {
  return async (bookId, correlationId) => {
    const answer = await getFromService(catalogueUrl, `/internal/books/${encodeURIComponent(bookId)}/checkout`, { correlationId, internalToken, timeoutMs });
    if (!answer.ok) {
      // Only a 404 is the buyer's: a refusal (our token, say) or silence is the shop's, so 503.
      if (answer.outcome === 'missing') throw notFound('Book not found');
      throw catalogueUnavailable();
    }
    const book = await dataOf<CheckoutBook>(answer.response).catch(() => null);
    // Never charge from an answer that is not the contract's (a price that is not whole paise, say).
    if (!isCheckoutBook(book)) throw catalogueUnavailable();
    return { id: book.id, title: book.title, author: book.author, pricePaise: book.pricePaise, printingCostPaise: book.printingCostPaise };
  };
}

/** The public address of a finished Persona's dedication image, behind its token (personaImageToken: the personalisation service checks it). */
export const dedicationImageUrl = (publicUrl: string, personaId: string, internalToken: string) =>
  `${publicUrl}/api/personas/${personaId}/dedication?token=${personaImageToken(internalToken, personaId)}`;

/** The pictures a gift's recipient sees: the book's cover and their own dedication page (absolute addresses); either may be missing. */
export interface GiftPictures {
  cover?: string | null;
  dedication?: string | null;
}

/**
 * The pictures of a gift's e-mail to its recipient: the book's cover as the catalogue serves it
 * (absolute, with PUBLIC_URL; none when the book has none or the catalogue does not answer: the
 * e-mail goes without) and their dedication page (none without the shared INTERNAL_TOKEN).
 */
export function giftPictures(catalogueUrl: string, publicUrl: string, internalToken?: string, timeoutMs = 3000) {
  return async (order: { book_id: string; persona_id: string }): Promise<GiftPictures> => {
    const answer = await getFromService(catalogueUrl, `/api/books/${encodeURIComponent(order.book_id)}`, { timeoutMs });
    const cover = answer.ok ? ((await dataOf<Book>(answer.response).catch(() => null))?.coverImage?.url ?? null) : null;
    return {
      cover: cover ? new URL(cover, `${publicUrl}/`).href : null,
      dedication: internalToken ? dedicationImageUrl(publicUrl, order.persona_id, internalToken) : null,
    };
  };
}
