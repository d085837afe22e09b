import { makeBook } from '../../../test-fixtures';
import { DETAIL_COVER_SIZES } from '../../../components/book/cover-sizes';
import { bookHead, bookLength, sampleLength, sampleQuote, wordsLabel } from './book-detail';

describe('sample quote', () => {
  it('is the first non-empty line of a string sample', () => {
    expect(sampleQuote('\n  It was a bright cold day.  \nSecond')).toBe('It was a bright cold day.');
  });

  it("is the first reading page's content of a list sample", () => {
    expect(
      sampleQuote([
        { chapter: 'Ad', content: 'Buy', isAd: true },
        { chapter: 'One', content: 'Once upon a time', isAd: false },
      ]),
    ).toBe('Once upon a time');
  });

  it('is cut at 150 characters', () => {
    const quote = sampleQuote('x'.repeat(400));
    expect(quote).not.toBeNull();
    expect(quote!.length).toBeLessThanOrEqual(150);
    expect(quote!.endsWith('…')).toBe(true);
  });

  it('is absent without a sample', () => {
    expect(sampleQuote('')).toBeNull();
    expect(sampleQuote([])).toBeNull();
  });
});

describe('book head tags', () => {
  it('cut the meta description at 150 characters and point canonical at /book/:id', () => {
    const book = makeBook({ title: 'T', author: 'A', description: 'word '.repeat(100), coverImage: { url: '/api/files/cover.jpg' } });
    const head = bookHead(book, 'https://shop.example');
    expect(head.description.length).toBeLessThanOrEqual(150);
    expect(head.path).toBe(`/book/${book._id}`);
    expect(head.image).toBe('/api/files/cover.jpg');
    expect(head.preloadImage).toEqual({ url: '/api/files/cover.jpg', sizes: DETAIL_COVER_SIZES });
    expect(head.title).toBe('T by A | Persona Books');
  });

  it('describe the book and its offer for search engines (schema.org Book, INR price, in stock)', () => {
    const book = makeBook({ title: 'Tiffin', author: 'Meera Nair', price: 349.5, tags: ['Fiction'], coverImage: { url: '/api/files/covers/c.jpg' } });
    expect(bookHead(book, 'https://shop.example').jsonLd).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Book',
      '@id': `https://shop.example/book/${book._id}`,
      url: `https://shop.example/book/${book._id}`,
      name: 'Tiffin',
      author: { '@type': 'Person', name: 'Meera Nair' },
      description: expect.any(String),
      image: 'https://shop.example/api/files/covers/c.jpg',
      genre: ['Fiction'],
      offers: {
        '@type': 'Offer',
        url: `https://shop.example/book/${book._id}`,
        price: '349.50',
        priceCurrency: 'INR',
        availability: 'https://schema.org/InStock',
        seller: { '@type': 'Organization', name: 'Persona Books' },
      },
    });
  });
});

describe('sample length', () => {
  it('counts the excerpts and words a reader gets, leaving ads and blank lines out', () => {
    expect(sampleLength('One two three\n\n  \nfour five')).toEqual({ excerpts: 2, words: 5 });
    expect(
      sampleLength([
        { chapter: 'One', content: 'Once upon a time', isAd: false },
        { chapter: 'Ad', content: 'Buy this now please', isAd: true },
        { chapter: 'Two', content: '  there lived  ', isAd: false },
      ]),
    ).toEqual({ excerpts: 2, words: 6 });
    expect(sampleLength('')).toEqual({ excerpts: 0, words: 0 });
    expect(sampleLength(null)).toEqual({ excerpts: 0, words: 0 });
  });

  it('reads as exact words below a thousand, rounded to the hundred above', () => {
    expect(wordsLabel(1)).toBe('1 word');
    expect(wordsLabel(640)).toBe('640 words');
    expect(wordsLabel(1249)).toBe('about 1,200 words');
    expect(wordsLabel(123456)).toBe('about 1,23,500 words');
  });
});

describe('book length', () => {
  it("states the full PDF's pages, else the full text's words, else nothing", () => {
    expect(bookLength({ pageCount: 212, wordCount: 52_345 })).toBe('212 pages');
    expect(bookLength({ pageCount: 1, wordCount: null })).toBe('1 page');
    expect(bookLength({ pageCount: null, wordCount: 52_345 })).toBe('About 52,300 words');
    expect(bookLength({ pageCount: null, wordCount: 640 })).toBe('640 words');
    expect(bookLength({ pageCount: null, wordCount: null })).toBeNull();
  });
});
