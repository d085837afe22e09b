// Reads the book being bought from the catalogue (DESIGN §1: a read that must
// be current goes over HTTP to the owning service), with a timeout.
import { rupeesToPaise, type Book } from '@persona/contracts';
import { HttpError, notFound, serviceUnavailable } from '@persona/service-kit';

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
    let res: Response;
    try {
      res = await fetch(`${catalogueUrl}/api/books/${bookId}`, { headers: { 'x-correlation-id': correlationId }, signal: AbortSignal.timeout(timeoutMs) });
    } catch {
      throw serviceUnavailable('The catalogue is not answering right now; please try again shortly');
    }
    if (res.status === 404 || res.status === 400) throw notFound('Book not found');
    if (!res.ok) throw new HttpError(503, 'The catalogue is not answering right now; please try again shortly', 'CATALOGUE_UNAVAILABLE');
    const { data } = (await res.json()) as { data: Book };
    return { id: data._id, title: data.title, author: data.author, pricePaise: rupeesToPaise(data.price), printingCostPaise: rupeesToPaise(data.printingCost) };
  };
}
