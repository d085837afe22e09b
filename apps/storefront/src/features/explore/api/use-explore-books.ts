import { useAsync } from '@persona/web-kit/use-async';
import { getAllBooks } from '../../../lib/catalogue-api';

/** The public catalogue; on explore a failure is only logged and the list stays empty (spec §8). */
export function useExploreBooks() {
  return useAsync('explore-books', (signal) => getAllBooks(signal));
}
