// /books: search (kept in ?search=, so the header search lands here prefilled), tag chips and the grid.
import { useEffect, useId, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useDocumentHead } from '../../../hooks/use-document-head';
import { BookCardSkeleton } from '../../../components/ui/skeleton';
import { StateMessage } from '@persona/web-kit/state-message';
import { useExploreBooks } from '../api/use-explore-books';
import { ALL_CHIP, chipList, filterExploreBooks } from '../lib/explore-filters';
import { ExploreCard } from './explore-card';
import './explore.css';

export const EXPLORE_SKELETON_COUNT = 8;

export function ExplorePage() {
  const books = useExploreBooks();
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const [chip, setChip] = useState(ALL_CHIP);
  const ids = useId();

  useDocumentHead({
    title: 'Explore Books | Persona Books',
    description: 'Browse every book you can make your Persona: search by title or author and filter by tag.',
  });

  useEffect(() => {
    if (books.status === 'error') console.error('Failed to load books', books.error);
  }, [books.status, books.error]);

  const list = books.status === 'success' ? books.data : [];
  const chips = useMemo(() => chipList(list), [list]);
  const shown = useMemo(() => filterExploreBooks(list, search, chip), [list, search, chip]);

  function setSearch(value: string) {
    const next = new URLSearchParams(params);
    if (value) next.set('search', value);
    else next.delete('search');
    setParams(next, { replace: true });
  }

  const loading = books.status === 'loading';
  return (
    <div className="explore">
      <section className="explore__intro">
        <div className="container">
          <h1 className="explore__title">Explore Books</h1>
          <p className="explore__lead">Discover your next read, try a free sample, and make it your Persona.</p>
          <div className="explore__search">
            <label htmlFor={`${ids}-search`} className="visually-hidden">
              Search books by title or author
            </label>
            <svg className="explore__search-icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              <circle cx="11" cy="11" r="7" />
              <path d="m20 20-3.5-3.5" />
            </svg>
            <input
              id={`${ids}-search`}
              type="search"
              className="text-input explore__search-input"
              placeholder="Search by title or author..."
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
        </div>
      </section>

      <div className="container explore__content">
        {!loading && chips.length > 1 && (
          <div className="chips" role="group" aria-label="Filter by tag">
            {chips.map((item) => (
              <button key={item} type="button" className="chips__chip" aria-pressed={chip === item} onClick={() => setChip(item)}>
                {item}
              </button>
            ))}
          </div>
        )}

        <p className="visually-hidden" role="status" aria-live="polite">
          {loading ? 'Loading books' : `${shown.length} ${shown.length === 1 ? 'book' : 'books'} found`}
        </p>

        {loading ? (
          <ul className="book-grid" aria-busy="true" aria-label="Loading books">
            {Array.from({ length: EXPLORE_SKELETON_COUNT }, (_, i) => (
              <li key={i} className="explore__skeleton">
                <BookCardSkeleton />
              </li>
            ))}
          </ul>
        ) : shown.length === 0 ? (
          <StateMessage icon="search" title="No books found" message="Try adjusting your search or filter criteria">
            {(search || chip !== ALL_CHIP) && (
              <button
                type="button"
                className="btn btn--outline"
                onClick={() => {
                  setChip(ALL_CHIP);
                  setSearch('');
                }}
              >
                Clear filters
              </button>
            )}
          </StateMessage>
        ) : (
          <ul className="book-grid explore__grid">
            {shown.map((book) => (
              <li key={book._id}>
                <ExploreCard book={book} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
