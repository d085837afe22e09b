// The title of the book a message is about, read from the catalogue when the message arrives
// (kept with the message, so the list still names a book deleted later).
import type { Book } from '@persona/contracts';
import { badRequest, dataOf, getFromService, serviceUnavailable } from '@persona/service-kit';

export type BookTitleReader = (bookId: string, correlationId: string) => Promise<string>;

export function catalogueBookTitles(catalogueUrl: string, timeoutMs = 3000): BookTitleReader {
  return async (bookId, correlationId) => {
    const answer = await getFromService(catalogueUrl, `/api/books/${encodeURIComponent(bookId)}`, { correlationId, timeoutMs });
    if (answer.ok) return (await dataOf<Book>(answer.response)).title;
    if (answer.outcome === 'missing') throw badRequest('The book this message is about does not exist');
    throw serviceUnavailable('The catalogue is not answering; please try again shortly');
  };
}
