// Reads the book being bought from the catalogue (DESIGN §1: a read that must
// be current goes over HTTP to the owning service), with a timeout.
import { rupeesToPaise, type Book } from '@persona/contracts';
import { dataOf, getFromService, HttpError, notFound, personaImageToken } from '@persona/service-kit';
import type { GiftPictures } from '../mail/order-emails';
import type { OrderRow } from '../orders/orders.repository';

export interface CheckoutBook {
  id: string;
  title: string;
  author: string;
  pricePaise: number;
  printingCostPaise: number;
}

export type BookReader = (bookId: string, correlationId: string) => Promise<CheckoutBook>;

export function catalogueBookReader(catalogueUrl: string, timeoutMs = 3000): BookReader {
  return async (bookId, correlationId) => {
    const answer = await getFromService(catalogueUrl, `/api/books/${encodeURIComponent(bookId)}`, { correlationId, timeoutMs });
    if (!answer.ok) {
      if (answer.outcome === 'missing' || answer.outcome === 'refused') throw notFound('Book not found');
      throw new HttpError(503, 'The catalogue is not answering right now; please try again shortly', 'CATALOGUE_UNAVAILABLE');
    }
    const data = await dataOf<Book>(answer.response);
    return { id: data._id, title: data.title, author: data.author, pricePaise: rupeesToPaise(data.price), printingCostPaise: rupeesToPaise(data.printingCost) };
  };
}

/** The public address of a finished Persona's dedication image, behind its token (personaImageToken: the personalisation service checks it). */
export const dedicationImageUrl = (publicUrl: string, personaId: string, internalToken: string) =>
  `${publicUrl}/api/personas/${personaId}/dedication?token=${personaImageToken(internalToken, personaId)}`;

/**
 * The pictures of a gift's e-mail to its recipient: the book's cover as the catalogue serves it
 * (absolute, with PUBLIC_URL; none when the book has none or the catalogue does not answer: the
 * e-mail goes without) and their dedication page (none without the shared INTERNAL_TOKEN).
 */
export function giftPictures(catalogueUrl: string, publicUrl: string, internalToken?: string, timeoutMs = 3000) {
  return async (order: OrderRow): Promise<GiftPictures> => {
    const answer = await getFromService(catalogueUrl, `/api/books/${encodeURIComponent(order.book_id)}`, { timeoutMs });
    const cover = answer.ok ? ((await dataOf<Book>(answer.response).catch(() => null))?.coverImage?.url ?? null) : null;
    return {
      cover: cover ? new URL(cover, `${publicUrl}/`).href : null,
      dedication: internalToken ? dedicationImageUrl(publicUrl, order.persona_id, internalToken) : null,
    };
  };
}
