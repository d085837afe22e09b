import { useAsync } from '@persona/web-kit/use-async';
import { getAllBooks } from '../../../lib/catalogue-api';

/** The catalogue for the featured section; failures are only logged there (spec §8). */
export function useHomeBooks() {
  return useAsync('home-books', (signal) => getAllBooks(signal));
}
