// Where "Try it with your name" leads: the book page, with the name in its address (the page's
// server render already shows it in the name field, right under the title and price).
import { paths } from '../../../config/paths';

export function previewHref(bookId: string, name: string): string {
  return `${paths.book(bookId)}?${new URLSearchParams({ name: name.trim() }).toString()}`;
}
