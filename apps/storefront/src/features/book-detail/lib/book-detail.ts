// Pure pieces of the book page: the sample quote, related books and the head tags.
import { DETAIL_COVER_SIZES } from '../../../components/book/cover-sizes';
import type { Book } from '@persona/contracts';
import { META_DESCRIPTION_MAX, SAMPLE_QUOTE_MAX, truncateText } from '../../../lib/truncate-text';
import type { HeadInfo } from '../../../lib/document-head';
import { formatCount } from '../../../lib/format-count';

/** The first sample entry's content (the first non-blank line of a string sample; the first non-ad page of a list), cut at 150. */
export function sampleQuote(sample: Book['sampleContent'] | null | undefined): string | null {
  let first: string | undefined;
  if (typeof sample === 'string') {
    first = sample
      .split(/\r?\n/)
      .map((line) => line.trim())
      .find((line) => line.length > 0);
  } else if (Array.isArray(sample)) {
    first = sample.find((page) => !page.isAd && page.content.trim())?.content ?? sample.find((page) => page.content.trim())?.content;
  }
  return first ? truncateText(first, SAMPLE_QUOTE_MAX) : null;
}

/** How much of the book the free sample holds: its reading excerpts (ads left out) and their words. */
export function sampleLength(sample: Book['sampleContent'] | null | undefined): { excerpts: number; words: number } {
  const texts =
    typeof sample === 'string' ? sample.split(/\r?\n/) : Array.isArray(sample) ? sample.filter((page) => !page.isAd).map((page) => page.content) : [];
  const excerpts = texts.filter((text) => text.trim().length > 0);
  const words = excerpts.reduce((n, text) => n + text.trim().split(/\s+/).length, 0);
  return { excerpts: excerpts.length, words };
}

/** "about 1,200 words" under a thousand exactly, above it rounded to the hundred. */
export function wordsLabel(words: number): string {
  if (words < 1000) return `${words} ${words === 1 ? 'word' : 'words'}`;
  return `about ${formatCount(Math.round(words / 100) * 100)} words`;
}

/** How long the book is: the pages of its PDF, else the words of its text; null when neither is known. */
export function bookLength(book: Pick<Book, 'pageCount' | 'wordCount'>): string | null {
  if (book.pageCount) return `${formatCount(book.pageCount)} ${book.pageCount === 1 ? 'page' : 'pages'}`;
  if (book.wordCount) return wordsLabel(book.wordCount).replace(/^about/, 'About');
  return null;
}

type HeadBook = Pick<Book, '_id' | 'title' | 'author' | 'description' | 'coverImage' | 'price' | 'tags'>;

/** The page's head: title, description, the cover (preloaded: it is the page's largest paint) and its structured data. */
export function bookHead(book: HeadBook, origin: string): HeadInfo {
  const path = `/book/${book._id}`;
  const description = truncateText(book.description || `${book.title} by ${book.author}: a personalised edition from Persona Books.`, META_DESCRIPTION_MAX);
  return {
    title: `${book.title} by ${book.author} | Persona Books`,
    description,
    image: book.coverImage?.url ?? null,
    preloadImage: book.coverImage ? { url: book.coverImage.url, sizes: DETAIL_COVER_SIZES } : null,
    type: 'book',
    path,
    jsonLd: bookJsonLd(book, origin, description),
  };
}

/** schema.org Book with its Offer: search engines show the price and that it can be bought. */
export function bookJsonLd(book: HeadBook, origin: string, description: string): Record<string, unknown> {
  const url = new URL(`/book/${book._id}`, origin).toString();
  return {
    '@context': 'https://schema.org',
    '@type': 'Book',
    '@id': url,
    url,
    name: book.title,
    author: { '@type': 'Person', name: book.author },
    description,
    ...(book.coverImage ? { image: new URL(book.coverImage.url, origin).toString() } : {}),
    ...(book.tags.length > 0 ? { genre: book.tags } : {}),
    offers: {
      '@type': 'Offer',
      url,
      price: book.price.toFixed(2),
      priceCurrency: 'INR',
      // A Persona is made for each order: it never runs out.
      availability: 'https://schema.org/InStock',
      seller: { '@type': 'Organization', name: 'Persona Books' },
    },
  };
}
