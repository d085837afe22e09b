// The pager of a long list, rendered as the server would: "Page N of M", and the page number
// that may be typed in where the list is counted to its end.
import type { PageMeta } from '@persona/contracts';
import { renderToStaticMarkup } from 'react-dom/server';
import { CursorPagination } from './pagination';

const meta = (over: Partial<PageMeta> = {}): PageMeta => ({ total: 1_000_000, page: 1, limit: 20, next: 'NEXT', prev: null, ...over });
const go = () => undefined;

describe('CursorPagination', () => {
  it('says which page of how many, and offers a page number where asked', () => {
    const html = renderToStaticMarkup(<CursorPagination place={{ page: 25_000, after: 'A' }} meta={meta({ prev: 'PREV' })} onGo={go} jump />);
    expect(html).toContain('<span aria-current="page">Page 25,000 of 50,000</span>');
    expect(html).toMatch(/<label for="([^"]+)">Go to page<\/label><input id="\1" type="number" inputMode="numeric" min="1" max="50000" value=""\/>/);
    // Nothing typed yet: nothing to go to.
    expect(html).toMatch(/<button type="submit"[^>]*disabled=""[^>]*>Go<\/button>/);
  });

  it('offers no page number where counting stopped, a list is short, or the page did not ask', () => {
    const jumpOf = (html: string) => html.includes('Go to page');
    expect(
      jumpOf(
        renderToStaticMarkup(<CursorPagination place={{ page: 2, after: 'A' }} meta={meta({ total: 10_000, totalCapped: true, prev: 'P' })} onGo={go} jump />),
      ),
    ).toBe(false);
    expect(jumpOf(renderToStaticMarkup(<CursorPagination place={{ page: 1 }} meta={meta({ total: 35 })} onGo={go} jump />))).toBe(false);
    expect(jumpOf(renderToStaticMarkup(<CursorPagination place={{ page: 1 }} meta={meta()} onGo={go} />))).toBe(false);
    // A lone page has no pager at all.
    expect(renderToStaticMarkup(<CursorPagination place={{ page: 1 }} meta={meta({ total: 5, next: null })} onGo={go} jump />)).toBe('');
  });
});
