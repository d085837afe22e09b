// The home page's featured-books tabs and search (spec §5).
import type { BookSummary } from '@persona/contracts';
import { matchesTitleOrAuthor } from '../../../lib/book-search';

export type HomeTabId = 'all' | 'fiction' | 'non-fiction' | 'self-help';

export interface HomeTab {
  id: HomeTabId;
  label: string;
  keeps: (book: Pick<BookSummary, 'tags'>) => boolean;
}

const NON_FICTION_MARKERS = ['Memoir', 'Biography', 'Historical'] as const;

export const HOME_TABS: readonly HomeTab[] = [
  { id: 'all', label: 'All Books', keeps: () => true },
  // Exact tag "Fiction": "Historical Fiction" or "fiction" do not count.
  { id: 'fiction', label: 'Fiction', keeps: (book) => book.tags.includes('Fiction') },
  // Any tag containing one of the markers, case as written (spec: "a tag containing Memoir, Biography or Historical").
  {
    id: 'non-fiction',
    label: 'Non-Fiction',
    keeps: (book) => book.tags.some((tag) => NON_FICTION_MARKERS.some((marker) => tag.includes(marker))),
  },
  { id: 'self-help', label: 'Self-Help', keeps: (book) => book.tags.includes('Self-Help') },
];

export function homeTab(id: HomeTabId): HomeTab {
  return HOME_TABS.find((tab) => tab.id === id) ?? HOME_TABS[0]!;
}

/** Books of a tab that also match the search text, in catalogue order. */
export function filterHomeBooks<T extends Pick<BookSummary, 'tags' | 'title' | 'author'>>(books: readonly T[], tabId: HomeTabId, search: string): T[] {
  const tab = homeTab(tabId);
  return books.filter((book) => tab.keeps(book) && matchesTitleOrAuthor(book, search));
}
