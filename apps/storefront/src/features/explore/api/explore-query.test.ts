import { exploreBooksPath, exploreHref, exploreQueries, readExploreParams, EXPLORE_DEFAULTS } from './explore-query';

describe("the explore page's address", () => {
  it('reads what it knows and ignores the rest', () => {
    expect(readExploreParams(new URLSearchParams('search=Tiffin&tag=Poetry&tab=fiction&sort=price-asc&page=3&x=1'))).toEqual({
      search: 'Tiffin',
      tag: 'poetry',
      tab: 'fiction',
      sort: 'price-asc',
      page: 3,
    });
    expect(readExploreParams(new URLSearchParams('tab=poems&sort=cheap&page=-2'))).toEqual(EXPLORE_DEFAULTS);
    expect(readExploreParams(new URLSearchParams('page=2.5')).page).toBe(1);
  });

  it('writes only what differs from the defaults, and the canonical form drops search and sort', () => {
    expect(exploreHref(EXPLORE_DEFAULTS)).toBe('/books');
    const p = { search: ' tiffin ', tag: 'poetry', tab: 'fiction' as const, sort: 'rating' as const, page: 2 };
    expect(exploreHref(p)).toBe('/books?search=tiffin&tab=fiction&tag=poetry&sort=rating&page=2');
    expect(exploreHref(p, { forCanonical: true })).toBe('/books?tab=fiction&tag=poetry&page=2');
  });

  it('asks the API for one page of books and the most used tags', () => {
    expect(exploreQueries(new URLSearchParams('search=zoe&page=2'))).toEqual(['/books?search=zoe&page=2&limit=24', '/tags?sort=count&limit=40']);
    expect(exploreBooksPath(EXPLORE_DEFAULTS)).toBe('/books?limit=24');
  });
});
