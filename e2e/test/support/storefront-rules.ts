// The storefront's rules restated from the spec, so the browser tests derive their expectations
// from the API's books instead of hard-coded demo titles.
import type { Book, SamplePage } from '@persona/contracts';

export const HOME_TAB_RULES: Record<string, (book: Book) => boolean> = {
  'All Books': () => true,
  Fiction: (book) => book.tags.includes('Fiction'),
  'Non-Fiction': (book) => book.tags.some((tag) => ['Memoir', 'Biography', 'Historical'].some((marker) => tag.includes(marker))),
  'Self-Help': (book) => book.tags.includes('Self-Help'),
};

export function matchesTitleOrAuthor(book: Book, text: string): boolean {
  const q = text.trim().toLowerCase();
  return !q || book.title.toLowerCase().includes(q) || book.author.toLowerCase().includes(q);
}

export function expectedChips(books: Book[]): string[] {
  const set = new Set<string>();
  books.forEach((book) => book.tags.forEach((tag) => tag.trim() && set.add(tag.trim().toLowerCase())));
  set.delete('all');
  return ['all', ...[...set].sort((a, b) => a.localeCompare(b))];
}

export function matchesChip(book: Book, chip: string): boolean {
  return chip === 'all' || book.tags.some((tag) => tag.toLowerCase().includes(chip));
}

/** The words a reader must show, in order: every excerpt's text (not the book's own ad pages), split at white space. */
export function sampleWords(sample: Book['sampleContent']): string[] {
  const texts = typeof sample === 'string' ? sample.split(/\r?\n/) : (sample as SamplePage[]).filter((page) => !page.isAd).map((page) => page.content);
  return texts.flatMap((text) => text.split(/\s+/).filter(Boolean));
}

/** True when the book's own sample has an ad page (a list sample flagging one). */
export function hasOwnAdPage(sample: Book['sampleContent']): boolean {
  return Array.isArray(sample) && (sample as SamplePage[]).some((page) => page.isAd && page.content.trim());
}
