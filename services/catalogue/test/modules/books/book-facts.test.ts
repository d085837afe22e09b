import { countPdfPages, countWords } from '../../../src/modules/books/book-facts';
import { tinyPdf } from '../../support';

describe('book facts', () => {
  it('counts the words of a full text across paragraphs and any white space; none is null', () => {
    expect(countWords(['It was night.', '  ', 'The  sea,\nthe\tlight — and  Meera.'])).toBe(10);
    expect(countWords([])).toBeNull();
    expect(countWords(['', '   '])).toBeNull();
  });

  it('counts the pages of a PDF, and answers null for one it cannot read', async () => {
    expect(await countPdfPages(tinyPdf('x', 4))).toBe(4);
    expect(await countPdfPages(Buffer.from('%PDF-1.4\n%%EOF\n'))).toBeNull();
  });
});
