import type { PageMeta } from '@persona/contracts';
import { countLabel, jumpPlace, newerPlace, olderPlace, pageCount, pageLabel, placeQuery, readPlace, withFilter, withoutPlace, writePlace } from './list-place';

const meta = (over: Partial<PageMeta> = {}): PageMeta => ({ total: 95, page: 1, limit: 20, next: 'NEXT', prev: null, ...over });

describe('a place in a long list', () => {
  it('reads the first page from an empty URL and writes nothing for it', () => {
    expect(readPlace(new URLSearchParams(''))).toEqual({ page: 1 });
    expect(writePlace(new URLSearchParams('search=asha'), { page: 1, after: 'ignored' }).toString()).toBe('search=asha');
  });

  it('round-trips a cursor page through the URL, keeping the filters', () => {
    const params = writePlace(new URLSearchParams('status=shipped'), { page: 3, after: 'eyJhIjoxfQ' });
    expect(params.toString()).toBe('status=shipped&page=3&after=eyJhIjoxfQ');
    expect(readPlace(params)).toEqual({ page: 3, after: 'eyJhIjoxfQ' });
    expect(placeQuery(readPlace(params), 20)).toEqual({ page: 3, limit: 20, after: 'eyJhIjoxfQ' });
  });

  it('ignores what the API would refuse: bad page numbers and cursors that are not its own', () => {
    expect(readPlace(new URLSearchParams('page=-2&after=a%2Bb'))).toEqual({ page: 1 });
    expect(readPlace(new URLSearchParams('page=2.5'))).toEqual({ page: 1 });
    expect(readPlace(new URLSearchParams(`page=4&before=${'x'.repeat(201)}`))).toEqual({ page: 4 });
    // Both directions at once: the API refuses that, so the first wins.
    expect(readPlace(new URLSearchParams('page=4&after=A&before=B'))).toEqual({ page: 4, after: 'A' });
  });

  it('goes to the next page by the cursor after the last row, and back by the one before the first', () => {
    const second = olderPlace({ page: 1 }, meta())!;
    expect(second).toEqual({ page: 2, after: 'NEXT' });
    expect(olderPlace(second, meta({ next: null }))).toBeNull();
    expect(newerPlace({ page: 3, after: 'X' }, meta({ prev: 'PREV' }))).toEqual({ page: 2, before: 'PREV' });
    // Back to page 1 is the first page itself (what arrived since shows at the top).
    expect(newerPlace({ page: 2, after: 'X' }, meta({ prev: 'PREV' }))).toEqual({ page: 1 });
    expect(newerPlace({ page: 1 }, meta())).toBeNull();
  });

  it('starts again at the first page when a filter changes', () => {
    const params = new URLSearchParams('type=order.paid&page=5&before=B');
    expect(withoutPlace(params).toString()).toBe('type=order.paid');
    expect(withFilter(params, 'type', 'book.updated').toString()).toBe('type=book.updated');
    expect(withFilter(params, 'type', '').toString()).toBe('');
  });

  it('labels pages and counts, with a + where counting stopped', () => {
    expect(pageLabel({ page: 2 }, meta())).toBe('Page 2 of 5');
    expect(pageLabel({ page: 7 }, meta({ total: 10_000, totalCapped: true }))).toBe('Page 7 of 500+');
    expect(countLabel(meta({ total: 10_000, totalCapped: true }), 'order', 'orders')).toBe('10,000+ orders');
    expect(countLabel(meta({ total: 1 }), 'order', 'orders')).toBe('1 order');
    expect(countLabel(meta({ total: 123456 }), 'order', 'orders')).toBe('1,23,456 orders');
  });

  it('labels a deep page of a million orders counted exactly, and jumps to any page of it by number', () => {
    const million = meta({ total: 1_000_000, page: 25_000 });
    expect(pageCount(million)).toBe(50_000);
    expect(pageLabel({ page: 25_000, after: 'X' }, million)).toBe('Page 25,000 of 50,000');
    expect(jumpPlace('25000', million)).toEqual({ page: 25_000 });
    expect(jumpPlace(' 50000 ', million)).toEqual({ page: 50_000 });
    // A page number leads to an offset page: no cursor carried over, the filters kept by writePlace.
    expect(writePlace(new URLSearchParams('status=shipped&page=3&after=A'), jumpPlace('7', million)!).toString()).toBe('status=shipped&page=7');
    for (const typed of ['', '0', '50001', '2.5', '-3', '1e3', 'abc', '1234567']) expect(jumpPlace(typed, million)).toBeNull();
    expect(pageCount(meta({ total: 0 }))).toBe(1);
  });
});
