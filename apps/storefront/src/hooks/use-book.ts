// One book by id, for every page about a single book (DESIGN §9.7: never the whole list to find one).
import { ApiError } from '@persona/web-kit/api-client';
import { getBook } from '../lib/catalogue-api';
import { useAsync } from '@persona/web-kit/use-async';

export function useBook(id: string) {
  return useAsync(`book:${id}`, (signal) => getBook(id, signal));
}

/** 404 (unknown id) and 400 (malformed id) both mean: no such book. */
export function isMissingBook(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}
