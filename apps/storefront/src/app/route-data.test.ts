import { routeQueries } from './route-data';

const ID = '2b1c7a52-6f3e-4f7e-9d1a-0c6e5b4a3f21';

describe('what each page reads first (fetched by the server before it renders)', () => {
  it.each([
    ['/', '', ['/books?limit=8']],
    ['/books', '?search=tifin&tag=poetry&page=2', ['/books?search=tifin&tag=poetry&page=2&limit=24', '/tags?sort=count&limit=40']],
    [`/book/${ID}`, '', [`/books/${ID}`, `/books/${ID}/related?limit=4`]],
    [`/read/${ID}`, '', [`/books/${ID}`]],
    [`/checkout/${ID}`, '', [`/books/${ID}`]],
    ['/faqs', '', []],
    ['/no/such/page', '', []],
  ])('%s%s', (pathname, search, expected) => {
    expect(routeQueries(pathname, search)).toEqual(expected);
  });
});
