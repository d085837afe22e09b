// One book by id, for every page about a single book (DESIGN §9.7: never the whole list to find one).
import type { Book, Envelope } from '@persona/contracts';
import { ApiError } from '@persona/web-kit/api-client';
import type { AsyncState } from '@persona/web-kit/use-async';
import { useApiData } from '../lib/api-data';
import { bookPath } from '../lib/catalogue-api';

export function useBook(id: string): AsyncState<Book> & { reload: () => void } {
  const answer = useApiData<Envelope<Book>>(bookPath(id));
  return answer.status === 'success' ? { ...answer, data: answer.data.data } : (answer as AsyncState<never> & { reload: () => void });
}

/** 404 (unknown id) and 400 (malformed id) both mean: no such book. */
export function isMissingBook(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}
