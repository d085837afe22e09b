// What each page reads in its first render, by API address: the server fetches these
// before it renders the page (DESIGN §11), so the HTML carries the page with its data and
// the browser's first render finds the same answers. Pages build the same addresses with
// the same functions, so the two never drift apart.
import { matchPath } from 'react-router-dom';
import { routePatterns } from '../config/paths';
import { bookPath } from '../lib/catalogue-api';
import { relatedPath } from '../features/book-detail/api/related-books-path';
import { exploreQueries } from '../features/explore/api/explore-query';
import { featuredBooksPath } from '../features/home/api/featured-books-path';

export function routeQueries(pathname: string, search: string): string[] {
  if (matchPath(routePatterns.home, pathname)) return [featuredBooksPath('all', '')];
  if (matchPath(routePatterns.books, pathname)) return exploreQueries(new URLSearchParams(search));
  const book = matchPath(routePatterns.book, pathname);
  if (book?.params.id) return [bookPath(book.params.id), relatedPath(book.params.id)];
  const oneBook = matchPath(routePatterns.read, pathname) ?? matchPath(routePatterns.checkout, pathname);
  if (oneBook?.params.id) return [bookPath(oneBook.params.id)];
  return [];
}
