import { pageItems } from './page-items';

describe('page numbers', () => {
  it('shows every page of a short list', () => {
    expect(pageItems(1, 1)).toEqual([]);
    expect(pageItems(2, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('shows the ends and a window around the current page, with gaps', () => {
    expect(pageItems(6, 4167)).toEqual([1, 'gap', 4, 5, 6, 7, 8, 'gap', 4167]);
    expect(pageItems(1, 4167)).toEqual([1, 2, 3, 'gap', 4167]);
    expect(pageItems(4167, 4167)).toEqual([1, 'gap', 4165, 4166, 4167]);
  });

  it('fills a gap of one page with the page itself', () => {
    expect(pageItems(4, 10)).toEqual([1, 2, 3, 4, 5, 6, 'gap', 10]);
  });
});
