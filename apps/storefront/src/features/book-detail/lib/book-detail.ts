// Pure pieces of the book page: the sample quote, related books and the head tags.
import type { Book } from '@persona/contracts';
import { META_DESCRIPTION_MAX, SAMPLE_QUOTE_MAX, truncateText } from '../../../lib/truncate-text';
import type { HeadInfo } from '../../../lib/document-head';

export const RELATED_MAX = 4;

/** The first sample entry's content (the first non-blank line of a string sample; the first non-ad page of a list), cut at 150. */
export function sampleQuote(sample: Book['sampleContent'] | null | undefined): string | null {
  let first: string | undefined;
  if (typeof sample === 'string') {
    first = sample.split(/\r?\n/).map((line) => line.trim()).find((line) => line.length > 0);
  } else if (Array.isArray(sample)) {
    first = sample.find((page) => !page.isAd && page.content.trim())?.content ?? sample.find((page) => page.content.trim())?.content;
  }
  return first ? truncateText(first, SAMPLE_QUOTE_MAX) : null;
}

/** Up to 4 other books: same category first, then most shared tags, then catalogue order. */
export function pickRelatedBooks<T extends Pick<Book, '_id' | 'tags' | 'category'>>(book: Pick<Book, '_id' | 'tags' | 'category'>, candidates: readonly T[], max = RELATED_MAX): T[] {
  const tags = new Set(book.tags.map((tag) => tag.toLowerCase()));
  const score = (other: T) =>
    (book.category && other.category && other.category._id === book.category._id ? 10 : 0) +
    other.tags.filter((tag) => tags.has(tag.toLowerCase())).length;
  return candidates
    .filter((other) => other._id !== book._id)
    .map((other, order) => ({ other, order, score: score(other) }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, max)
    .map(({ other }) => other);
}

export function bookHead(book: Pick<Book, '_id' | 'title' | 'author' | 'description' | 'coverImage'>): HeadInfo {
  return {
    title: `${book.title} by ${book.author} | Persona Books`,
    description: truncateText(book.description || `${book.title} by ${book.author}: a Personalized edition from Persona Books.`, META_DESCRIPTION_MAX),
    image: book.coverImage?.url ?? null,
    type: 'book',
    path: `/book/${book._id}`,
  };
}
