import { useAsync } from '../../../hooks/use-async';
import { getBook } from '../../../lib/catalogue-api';
import { ApiError } from '../../../lib/api-client';

/** The one book being read (DESIGN §9.7). */
export function useReaderBook(id: string) {
  return useAsync(`reader:${id}`, (signal) => getBook(id, signal));
}

export function isMissingBook(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}
