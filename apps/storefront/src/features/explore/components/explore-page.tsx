// /books: search, shelves (the home tabs), tag chips, sort and numbered pages, each answered
// by the server one page at a time; the place lives in the address (spec §2, §5; DESIGN §11).
import { GRID_COVER_SIZES } from '../../../components/book/cover-sizes';
import { useEffect, useId, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { BookList, ListOf, TagCount } from '@persona/contracts';
import { StateMessage } from '@persona/web-kit/state-message';
import { BookCardSkeleton } from '../../../components/ui/skeleton';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { useDocumentHead } from '../../../hooks/use-document-head';
import { useLastSuccess } from '../../../hooks/use-last-success';
import { useApiData } from '../../../lib/api-data';
import { formatCount } from '../../../lib/format-count';
import { CHIPS_PATH, EXPLORE_PAGE_SIZE, exploreBooksPath, exploreHref, readExploreParams, type ExploreParams } from '../api/explore-query';
import { DidYouMean } from './did-you-mean';
import { PopularBooks } from './popular-books';
import { ExploreCard } from './explore-card';
import { ExplorePagination } from './explore-pagination';
import { ExploreToolbar } from './explore-toolbar';
import { TagChips } from './tag-chips';
import './explore.css';

export const EXPLORE_SKELETON_COUNT = 8;
/** The widest grid's first row: covers seen without scrolling. */
const FIRST_ROW = 4;
const SEARCH_SETTLE_MS = 300;

export function ExplorePage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const params = readExploreParams(searchParams);
  const books = useApiData<BookList>(exploreBooksPath(params));
  const chips = useApiData<ListOf<TagCount>>(CHIPS_PATH);
  const shown = useLastSuccess(books);
  const ids = useId();

  // The search box answers as the reader types; the address follows once typing settles.
  const [searchText, setSearchText] = useState(params.search);
  const settledSearch = useDebouncedValue(searchText, SEARCH_SETTLE_MS);
  useEffect(() => setSearchText(params.search), [params.search]);
  useEffect(() => {
    if (settledSearch.trim() === params.search.trim()) return;
    void navigate(exploreHref({ ...params, search: settledSearch, page: 1 }), { replace: true, preventScrollReset: true });
    // Only a settled change of the text moves the address.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settledSearch]);

  useDocumentHead({
    title: exploreTitle(params),
    description: 'Browse every book you can make your Persona: search by title or author and filter by tag.',
    // Filtered and paged views name their own address; search results and sort orders are the same set as without them.
    path: exploreHref(params, { forCanonical: true }),
    // The first cover is the page's largest paint on a phone: fetched beside the scripts.
    preloadImage: shown?.data[0]?.coverImage ? { url: shown.data[0].coverImage.url, sizes: GRID_COVER_SIZES } : null,
  });

  useEffect(() => {
    if (books.status === 'error') console.error('Failed to load books', books.error);
  }, [books.status, books.error]);

  const to = (next: Partial<ExploreParams>) => exploreHref({ ...params, page: 1, ...next });
  const firstLoad = books.status === 'loading' && !shown;
  const total = shown?.meta.total ?? 0;
  // A search counts its matches up to a cap: "10,000+ books".
  const more = shown?.meta.totalCapped ? '+' : '';
  const pages = Math.max(1, Math.ceil(total / EXPLORE_PAGE_SIZE));
  const filtered = Boolean(params.search || params.tag || params.tab);

  return (
    <div className="explore">
      <section className="explore__intro">
        <div className="container">
          <h1 className="explore__title">Explore Books</h1>
          <p className="explore__lead">Discover your next read, try a free sample, and make it your Persona.</p>
          <form className="explore__search" role="search" aria-label="Search the catalogue" onSubmit={(event) => event.preventDefault()}>
            <label htmlFor={`${ids}-search`} className="visually-hidden">
              Search books by title or author
            </label>
            <svg
              className="explore__search-icon"
              viewBox="0 0 24 24"
              width="18"
              height="18"
              aria-hidden="true"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            >
              <circle cx="11" cy="11" r="7" />
              <path d="m20 20-3.5-3.5" />
            </svg>
            <input
              id={`${ids}-search`}
              type="search"
              name="search"
              className="text-input explore__search-input"
              placeholder="Search by title or author..."
              autoComplete="off"
              maxLength={200}
              value={searchText}
              onChange={(event) => setSearchText(event.target.value)}
            />
          </form>
        </div>
      </section>

      <div className="container explore__content">
        <ExploreToolbar params={params} to={to} />
        <TagChips selected={params.tag} chips={chips.status === 'success' ? chips.data : undefined} to={to} />

        <p className="explore__count" role="status" aria-live="polite">
          {firstLoad ? 'Loading books' : books.status === 'error' ? '' : `${formatCount(total)}${more} ${total === 1 && !more ? 'book' : 'books'} found`}
        </p>

        {firstLoad ? (
          <ul className="book-grid" aria-busy="true" aria-label="Loading books">
            {Array.from({ length: EXPLORE_SKELETON_COUNT }, (_, i) => (
              <li key={i} className="explore__skeleton">
                <BookCardSkeleton />
              </li>
            ))}
          </ul>
        ) : !shown || shown.data.length === 0 ? (
          <>
            <StateMessage icon="search" title="No books found" message="Try adjusting your search or filter criteria">
              {shown?.meta.didYouMean && <DidYouMean title={shown.meta.didYouMean} href={to({ search: shown.meta.didYouMean })} onFollow={setSearchText} />}
              {total > 0 && params.page > pages ? (
                <Link className="btn btn--outline" to={exploreHref({ ...params, page: pages })}>
                  Go to the last page
                </Link>
              ) : (
                filtered && (
                  <Link className="btn btn--outline" to="/books" onClick={() => setSearchText('')}>
                    Clear filters
                  </Link>
                )
              )}
            </StateMessage>
            {/* A search that finds nothing still leaves something to read. */}
            {books.status !== 'loading' && !(total > 0 && params.page > pages) && <PopularBooks />}
          </>
        ) : (
          <>
            {/* Matches found only once a typo was corrected: say which title they stand for. */}
            {shown.meta.didYouMean && params.page === 1 && (
              <DidYouMean title={shown.meta.didYouMean} href={to({ search: shown.meta.didYouMean })} onFollow={setSearchText} corrected />
            )}
            <ul className={`book-grid explore__grid${books.status === 'loading' ? ' is-refreshing' : ''}`} aria-busy={books.status === 'loading'}>
              {shown.data.map((book, i) => (
                <li key={book._id}>
                  <ExploreCard book={book} eager={i < FIRST_ROW} priority={i === 0} />
                </li>
              ))}
            </ul>
            <ExplorePagination page={params.page} pages={pages} href={(page) => exploreHref({ ...params, page })} />
          </>
        )}
      </div>
    </div>
  );
}

function exploreTitle(params: ExploreParams): string {
  const what = params.tag ? `“${params.tag}” books` : 'Explore Books';
  return `${what}${params.page > 1 ? ` (page ${params.page})` : ''} | Persona Books`;
}
