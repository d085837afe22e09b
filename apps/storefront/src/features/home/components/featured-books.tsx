// Featured books: the first cards of the All / Fiction / Non-Fiction / Self-Help tabs and a
// search (spec §2, §5), each asked of the server, with "See all" to the explore page.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import type { BookSummary, ListOf } from '@persona/contracts';
import { BookCardSkeleton } from '../../../components/ui/skeleton';
import { StateMessage } from '@persona/web-kit/state-message';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { useLastSuccess } from '../../../hooks/use-last-success';
import { useApiData } from '../../../lib/api-data';
import { featuredBooksPath, HOME_CARDS, HOME_TABS, seeAllHref, type HomeTabId } from '../api/featured-books-path';
import { formatCount } from '../../../lib/format-count';
import { HomeBookCard } from './home-book-card';

export const SEARCH_SETTLE_MS = 250;

export function FeaturedBooks() {
  const [tab, setTab] = useState<HomeTabId>('all');
  const [search, setSearch] = useState('');
  const settledSearch = useDebouncedValue(search, SEARCH_SETTLE_MS);
  const books = useApiData<ListOf<BookSummary>>(featuredBooksPath(tab, settledSearch));
  const shown = useLastSuccess(books);
  const baseId = useId();
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    // Spec §8: on home a failed fetch is only logged; the list stays empty.
    if (books.status === 'error') console.error('Failed to load featured books', books.error);
  }, [books.status, books.error]);

  function onTabKey(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const last = HOME_TABS.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setTab(HOME_TABS[next]!.id);
    tabRefs.current[next]?.focus();
  }

  const panelId = `${baseId}-panel`;
  const label = HOME_TABS.find((t) => t.id === tab)!.label;
  const loading = books.status === 'loading';
  const total = shown?.meta.total ?? 0;
  return (
    <section className="page-section featured" aria-labelledby={`${baseId}-heading`}>
      <div className="container">
        <div className="featured__header">
          <div>
            <p className="eyebrow">Featured books</p>
            <h2 id={`${baseId}-heading`} className="section-heading">
              Find your next Persona
            </h2>
          </div>
          <div className="featured__search">
            <label htmlFor={`${baseId}-search`} className="visually-hidden">
              Search featured books by title or author
            </label>
            <input
              id={`${baseId}-search`}
              type="search"
              className="text-input"
              placeholder="Search by title or author..."
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
        </div>

        <div role="tablist" aria-label="Book categories" className="tabs">
          {HOME_TABS.map((item, index) => {
            const selected = item.id === tab;
            return (
              <button
                key={item.id}
                ref={(el) => {
                  tabRefs.current[index] = el;
                }}
                type="button"
                role="tab"
                id={`${baseId}-tab-${item.id}`}
                aria-selected={selected}
                aria-controls={panelId}
                tabIndex={selected ? 0 : -1}
                className="tabs__tab"
                onClick={() => setTab(item.id)}
                onKeyDown={(event) => onTabKey(event, index)}
              >
                {item.label}
              </button>
            );
          })}
        </div>

        <div role="tabpanel" id={panelId} aria-labelledby={`${baseId}-tab-${tab}`} className="featured__panel" aria-busy={loading}>
          {!shown && loading ? (
            <ul className="book-grid" aria-label="Loading books">
              {Array.from({ length: HOME_CARDS }, (_, i) => (
                <li key={i}>
                  <BookCardSkeleton />
                </li>
              ))}
            </ul>
          ) : !shown || shown.data.length === 0 ? (
            <StateMessage
              icon="search"
              title="No books found"
              message={books.status === 'error' ? 'The catalogue could not be loaded right now. Please try again later.' : 'Try another search or tab.'}
            >
              <Link to="/books" className="btn btn--outline">
                Browse all books
              </Link>
            </StateMessage>
          ) : (
            <>
              <ul className={`book-grid featured__grid${loading ? ' is-refreshing' : ''}`}>
                {shown.data.map((book) => (
                  <li key={book._id}>
                    <HomeBookCard book={book} />
                  </li>
                ))}
              </ul>
              <p className="featured__more">
                <span className="featured__count">
                  {`Showing ${shown.data.length} of ${formatCount(total)}${shown.meta.totalCapped ? '+' : ''} ${total === 1 ? 'book' : 'books'}`}
                </span>
                <Link to={seeAllHref(tab, settledSearch)} className="btn btn--outline">
                  {tab === 'all' ? 'See all books' : `See all ${label}`}
                </Link>
              </p>
            </>
          )}
        </div>
      </div>
    </section>
  );
}
