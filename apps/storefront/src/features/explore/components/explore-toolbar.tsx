// The explore page's shelves (the home tabs' rules, spec §5) and its sort order.
import { useId } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { BOOK_SORTS, type BookSort } from '@persona/contracts';
import type { ExploreParams } from '../api/explore-query';

const SHELVES: ReadonlyArray<{ tab: ExploreParams['tab']; label: string }> = [
  { tab: '', label: 'All Books' },
  { tab: 'fiction', label: 'Fiction' },
  { tab: 'non-fiction', label: 'Non-Fiction' },
  { tab: 'self-help', label: 'Self-Help' },
];

export const SORT_LABELS: Record<BookSort, string> = {
  relevance: 'Best match',
  newest: 'Newest',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
  rating: 'Top rated',
};

export function ExploreToolbar({ params, to }: { params: ExploreParams; to: (next: Partial<ExploreParams>) => string }) {
  const navigate = useNavigate();
  const sortId = useId();
  // "Best match" only means something for a search; without one the list is newest first.
  const sorts = BOOK_SORTS.filter((s) => s !== 'relevance' || params.search);
  const sort = params.sort && sorts.includes(params.sort) ? params.sort : params.search ? 'relevance' : 'newest';
  return (
    <div className="explore__toolbar">
      <nav aria-label="Shelves" className="shelves">
        {SHELVES.map((shelf) => (
          <Link key={shelf.label} to={to({ tab: shelf.tab })} className="shelves__shelf" aria-current={params.tab === shelf.tab ? 'page' : undefined}>
            {shelf.label}
          </Link>
        ))}
      </nav>
      <div className="explore__sort">
        <label htmlFor={sortId}>Sort by</label>
        <select id={sortId} value={sort} onChange={(event) => navigate(to({ sort: event.target.value as BookSort }))}>
          {sorts.map((s) => (
            <option key={s} value={s}>
              {SORT_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
