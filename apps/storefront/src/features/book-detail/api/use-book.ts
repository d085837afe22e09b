import { useAsync } from '../../../hooks/use-async';
import { getAllBooks, getBook } from '../../../lib/catalogue-api';
import { ApiError } from '../../../lib/api-client';

/** One book by id (DESIGN §9.7: never the whole list to find one). */
export function useBook(id: string) {
  return useAsync(`book:${id}`, (signal) => getBook(id, signal));
}

/** Candidates for "You Might Also Like"; a failure simply hides the section. */
export function useRelatedCandidates(id: string) {
  return useAsync(`related:${id}`, (signal) => getAllBooks(signal));
}

/** 404 (unknown id) and 400 (malformed id) both mean: no such book. */
export function isMissingBook(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}
