// The home page's featured books: the first cards of a tab (spec §2, §5), asked of the server.
import type { HomeTab } from '@persona/contracts';
import { booksPath } from '../../../lib/catalogue-api';

export type HomeTabId = 'all' | HomeTab;

export interface HomeTabInfo {
  id: HomeTabId;
  label: string;
}

export const HOME_TABS: readonly HomeTabInfo[] = [
  { id: 'all', label: 'All Books' },
  { id: 'fiction', label: 'Fiction' },
  { id: 'non-fiction', label: 'Non-Fiction' },
  { id: 'self-help', label: 'Self-Help' },
];

/** Two rows of four on a wide screen; "See all" leads to the rest. */
export const HOME_CARDS = 8;

export function featuredBooksPath(tab: HomeTabId, search: string): string {
  return booksPath({ tab: tab === 'all' ? undefined : tab, search: search.trim() || undefined, limit: HOME_CARDS });
}

/** Where "See all" leads: the same tab and search on the explore page. */
export function seeAllHref(tab: HomeTabId, search: string): string {
  const params = new URLSearchParams();
  if (tab !== 'all') params.set('tab', tab);
  if (search.trim()) params.set('search', search.trim());
  const qs = params.toString();
  return qs ? `/books?${qs}` : '/books';
}
