// The readers' favourites (the best rated books), offered when a search or a filter finds
// nothing: an empty page never ends the visit.
import type { BookSummary, ListOf } from '@persona/contracts';
import { useApiData } from '../../../lib/api-data';
import { booksPath } from '../../../lib/catalogue-api';
import { ExploreCard } from './explore-card';

export const POPULAR_BOOKS = 4;
export const POPULAR_BOOKS_PATH = booksPath({ sort: 'rating', limit: POPULAR_BOOKS });

export function PopularBooks() {
  const popular = useApiData<ListOf<BookSummary>>(POPULAR_BOOKS_PATH);
  if (popular.status !== 'success' || popular.data.data.length === 0) return null;
  return (
    <section className="explore__popular" aria-labelledby="explore-popular-title">
      <h2 id="explore-popular-title" className="explore__popular-title">
        Popular books
      </h2>
      <ul className="book-grid explore__grid">
        {popular.data.data.map((book) => (
          <li key={book._id}>
            <ExploreCard book={book} />
          </li>
        ))}
      </ul>
    </section>
  );
}
