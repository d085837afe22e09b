// The explore page's place lives in its address (/books?search=&tag=&tab=&sort=&page=), so
// back, forward, reload and a shared link all return to it; this reads and writes it and
// names the API answers the page shows (one page of books and the most used tags).
import { BOOK_SORTS, HOME_TABS, SEARCH_MAX_LENGTH, type BookSort, type HomeTab } from '@persona/contracts';
import { booksPath, tagsPath } from '../../../lib/catalogue-api';

export const EXPLORE_PAGE_SIZE = 24;
/** Chips shown at once: the most used tags; "More tags" finds the rest. */
export const CHIP_LIMIT = 40;
export const CHIPS_PATH = tagsPath({ sort: 'count', limit: CHIP_LIMIT });
const MAX_PAGE = 100000;

export interface ExploreParams {
  search: string;
  tag: string;
  tab: HomeTab | '';
  sort: BookSort | '';
  page: number;
}

export const EXPLORE_DEFAULTS: ExploreParams = { search: '', tag: '', tab: '', sort: '', page: 1 };

const oneOf = <T extends string>(value: string | null, allowed: readonly T[]): T | '' =>
  value && (allowed as readonly string[]).includes(value) ? (value as T) : '';

export function readExploreParams(params: URLSearchParams): ExploreParams {
  const page = Number(params.get('page'));
  return {
    search: (params.get('search') ?? '').slice(0, SEARCH_MAX_LENGTH),
    tag: (params.get('tag') ?? '').trim().toLowerCase().slice(0, 60),
    tab: oneOf(params.get('tab'), HOME_TABS),
    sort: oneOf(params.get('sort'), BOOK_SORTS),
    page: Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1,
  };
}

/** The address of a place on the explore page; only what differs from the defaults. */
export function exploreHref(p: ExploreParams, options: { forCanonical?: boolean } = {}): string {
  const params = new URLSearchParams();
  if (p.search.trim() && !options.forCanonical) params.set('search', p.search.trim());
  if (p.tab) params.set('tab', p.tab);
  if (p.tag) params.set('tag', p.tag);
  if (p.sort && !options.forCanonical) params.set('sort', p.sort);
  if (p.page > 1) params.set('page', String(p.page));
  const qs = params.toString();
  return qs ? `/books?${qs}` : '/books';
}

export function exploreBooksPath(p: ExploreParams): string {
  return booksPath({
    search: p.search || undefined,
    tag: p.tag || undefined,
    tab: p.tab || undefined,
    sort: p.sort || undefined,
    page: p.page > 1 ? p.page : undefined,
    limit: EXPLORE_PAGE_SIZE,
  });
}

/** What the explore page at this address reads first. */
export function exploreQueries(params: URLSearchParams): string[] {
  return [exploreBooksPath(readExploreParams(params)), CHIPS_PATH];
}
