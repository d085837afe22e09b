import { useAsync } from '@persona/web-kit/use-async';
import { getAllBooks } from '../../../lib/catalogue-api';

/** Candidates for "You Might Also Like"; a failure simply hides the section. */
export function useRelatedCandidates(id: string) {
  return useAsync(`related:${id}`, (signal) => getAllBooks(signal));
}
