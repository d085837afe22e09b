// Where the header search sends a visitor: `/books?search=…`, or nowhere for blank text (spec §5).
import { paths } from '../config/paths';

export function searchPathFor(text: string): string | null {
  const query = text.trim();
  return query ? paths.booksSearch(query) : null;
}
