import { countWords } from '../../../src/modules/books/book-facts';

describe('book facts', () => {
  it('counts the words of a full text across paragraphs and any white space; none is null', () => {
    expect(countWords(['It was night.', '  ', 'The  sea,\nthe\tlight — and  Meera.'])).toBe(10);
    expect(countWords([])).toBeNull();
    expect(countWords(['', '   '])).toBeNull();
  });
});
