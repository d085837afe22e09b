import { makeBook } from '../../../test-fixtures';
import { bookHead, pickRelatedBooks, sampleQuote } from './book-detail';

describe('sample quote', () => {
  it('is the first non-empty line of a string sample', () => {
    expect(sampleQuote('\n  It was a bright cold day.  \nSecond')).toBe('It was a bright cold day.');
  });

  it("is the first reading page's content of a list sample", () => {
    expect(sampleQuote([{ chapter: 'Ad', content: 'Buy', isAd: true }, { chapter: 'One', content: 'Once upon a time', isAd: false }])).toBe('Once upon a time');
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

describe('You Might Also Like', () => {
  const cat = { _id: '11111111-1111-4111-8111-111111111111', name: 'Novels' };
  const book = makeBook({ tags: ['Fiction'], category: cat });
  const others = [makeBook(), makeBook({ tags: ['fiction'] }), makeBook({ category: cat }), makeBook(), makeBook(), makeBook()];

  it('never includes the book itself and keeps at most 4', () => {
    const related = pickRelatedBooks(book, [book, ...others]);
    expect(related).toHaveLength(4);
    expect(related.map((b) => b._id)).not.toContain(book._id);
  });

  it('prefers the same category, then shared tags, then catalogue order', () => {
    expect(pickRelatedBooks(book, others).map((b) => b._id)).toEqual([others[2]!._id, others[1]!._id, others[0]!._id, others[3]!._id]);
  });

  it('is empty when there is no other book', () => {
    expect(pickRelatedBooks(book, [book])).toEqual([]);
  });
});

describe('book head tags', () => {
  it('cut the meta description at 150 characters and point canonical at /book/:id', () => {
    const book = makeBook({ title: 'T', author: 'A', description: 'word '.repeat(100), coverImage: { url: '/api/files/cover.jpg' } });
    const head = bookHead(book);
    expect(head.description.length).toBeLessThanOrEqual(150);
    expect(head.path).toBe(`/book/${book._id}`);
    expect(head.image).toBe('/api/files/cover.jpg');
    expect(head.title).toBe('T by A | Persona Books');
  });
});
