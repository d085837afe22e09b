// The catalogue's list rules as plain values (no schemas), so the storefront can import them
// without the schema library: tabs, sorts and limits of the list routes.

/** The home page's tabs (spec §2, §5); "All Books" is no tab at all. */
export const HOME_TABS = ['fiction', 'non-fiction', 'self-help'] as const;
export type HomeTab = (typeof HOME_TABS)[number];

/** Orders a book list can be read in; `relevance` (the default with a search) ranks exact and prefix title matches first. */
export const BOOK_SORTS = ['relevance', 'newest', 'price-asc', 'price-desc', 'rating'] as const;
export type BookSort = (typeof BOOK_SORTS)[number];

/** Longest search text: a whole title fits (titles are at most 200 characters). */
export const SEARCH_MAX_LENGTH = 200;

export const TAGS_MAX_PAGE_SIZE = 500;
export const TAG_SORTS = ['name', 'count'] as const;

/** Most related books one request may ask for ("You Might Also Like" shows 4, spec §9). */
export const RELATED_MAX = 12;

/** Most suggestions the header search box gets. */
export const SUGGESTIONS_MAX = 8;

/** Search engines' sitemaps: at most this many addresses per file (the sitemaps.org limit). */
export const SITEMAP_URLS_PER_FILE = 50_000;
