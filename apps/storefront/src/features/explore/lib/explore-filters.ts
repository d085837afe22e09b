// Explore's chips and search (spec §2, §5).
import type { BookSummary } from '@persona/contracts';
import { matchesTitleOrAuthor } from '../../../lib/book-search';

export const ALL_CHIP = 'all';

/** "all" first, then every distinct lower-cased, trimmed tag, sorted. */
export function chipList(books: readonly Pick<BookSummary, 'tags'>[]): string[] {
  const tags = new Set<string>();
  for (const book of books) {
    for (const tag of book.tags) {
      const chip = tag.trim().toLowerCase();
      if (chip) tags.add(chip);
    }
  }
  tags.delete(ALL_CHIP);
  return [ALL_CHIP, ...[...tags].sort((a, b) => a.localeCompare(b))];
}

/** A chip keeps books having a tag that contains the chip text (case-insensitively, chips being lower-case). */
export function matchesChip(book: Pick<BookSummary, 'tags'>, chip: string): boolean {
  if (!chip || chip === ALL_CHIP) return true;
  const needle = chip.toLowerCase();
  return book.tags.some((tag) => tag.toLowerCase().includes(needle));
}

export function filterExploreBooks<T extends Pick<BookSummary, 'tags' | 'title' | 'author'>>(books: readonly T[], search: string, chip: string): T[] {
  return books.filter((book) => matchesChip(book, chip) && matchesTitleOrAuthor(book, search));
}
