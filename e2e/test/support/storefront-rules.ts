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

export interface ExpectedPage {
  kind: 'content' | 'ad' | 'placeholder';
  content: string;
}

/**
 * Reader pages: string samples give one page per non-empty trimmed line, list samples one per
 * non-blank entry; a placeholder ad follows every 3rd reading page since the last ad of either
 * kind, only when a reading page follows (never at the end, never next to a source ad).
 */
export function expectedReaderPages(sample: Book['sampleContent']): ExpectedPage[] {
  const source: ExpectedPage[] =
    typeof sample === 'string'
      ? sample
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter(Boolean)
          .map((content) => ({ kind: 'content' as const, content }))
      : (sample as SamplePage[])
          .filter((p) => p.content.trim())
          .map((p) => ({ kind: p.isAd ? ('ad' as const) : ('content' as const), content: p.content.trim() }));
  const pages: ExpectedPage[] = [];
  let since = 0;
  source.forEach((page, i) => {
    pages.push(page);
    if (page.kind === 'ad') {
      since = 0;
      return;
    }
    since += 1;
    const next = source[i + 1];
    if (since === 3 && next && next.kind !== 'ad') {
      pages.push({ kind: 'placeholder', content: 'This is a test Ad. Replace with real AdSense code after approval.' });
      since = 0;
    }
  });
  return pages;
}
