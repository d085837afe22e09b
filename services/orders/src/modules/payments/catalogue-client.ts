// Reads the book being bought from the catalogue (DESIGN §1: a read that must
// be current goes over HTTP to the owning service), with a timeout.
import { rupeesToPaise, type Book } from '@persona/contracts';
import { dataOf, getFromService, HttpError, notFound } from '@persona/service-kit';

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
