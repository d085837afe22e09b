import type { BookSummary } from '@persona/contracts';

/** Case-insensitive substring match on title or author (spec §5); blank text matches everything. */
export function matchesTitleOrAuthor(book: Pick<BookSummary, 'title' | 'author'>, text: string): boolean {
  const query = text.trim().toLowerCase();
  if (!query) return true;
  return book.title.toLowerCase().includes(query) || book.author.toLowerCase().includes(query);
}
