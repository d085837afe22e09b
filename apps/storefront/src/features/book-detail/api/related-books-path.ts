import { relatedBooksPath } from '../../../lib/catalogue-api';

/** "You Might Also Like": at most 4 books (spec §9). */
export const RELATED_MAX = 4;

export const relatedPath = (id: string) => relatedBooksPath(id, RELATED_MAX);
