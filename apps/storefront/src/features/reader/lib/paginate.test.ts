import { paginateFlow, wordsOn, type FlowBlock } from './paginate';

const heading = (text: string): FlowBlock => ({ kind: 'heading', text });
const para = (text: string): FlowBlock => ({ kind: 'paragraph', text, continued: false, split: false });
/** A page of `lines` lines of `width` characters: each block starts a line, words wrap. */
function linesFit(lines: number, width: number) {
  return (page: readonly FlowBlock[]) => {
    let used = 0;
    for (const block of page) {
      let line = 0;
      used += 1;
      for (const word of block.text.split(' ')) {
        if (line > 0 && line + 1 + word.length > width) {
          used += 1;
          line = word.length;
        } else line += (line > 0 ? 1 : 0) + word.length;
      }
    }
    return used <= lines;
  };
}
const words = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `w${String(from + i).padStart(2, '0')}`).join(' ');
const text = (pages: FlowBlock[][]) => pages.map((p) => p.map((b) => `${b.kind === 'heading' ? '#' : ''}${b.text}`).join(' | '));

describe('paginateFlow', () => {
  it('puts short paragraphs together on one page while they fit', () => {
    const pages = paginateFlow([heading('One'), para('a b c'), heading('Two'), para('d e f')], linesFit(10, 20));
    expect(text(pages)).toEqual(['#One | a b c | #Two | d e f']);
  });

  it('splits a long paragraph between words, the most that fits on each page, and marks both halves', () => {
    // 10 lines of 8 characters hold 30 words of "wNN" (two per line): 20 words, then the rest.
    const pages = paginateFlow([para(words(30))], linesFit(10, 8));
    expect(pages.map((p) => wordsOn(p))).toEqual([20, 10]);
    expect(pages[0]![0]).toMatchObject({ continued: false, split: true });
    expect(pages[1]![0]).toMatchObject({ continued: true, split: false });
    // Nothing lost, nothing doubled, in order.
    expect(
      pages
        .flat()
        .map((b) => b.text)
        .join(' '),
    ).toBe(words(30));
  });

  it('fills each page before starting the next: only the last page may be short', () => {
    const blocks = Array.from({ length: 12 }, (_, i) => [heading(`Excerpt ${i + 1}`), para(words(15, i * 15))]).flat();
    const fits = linesFit(16, 24);
    const pages = paginateFlow(blocks, fits);
    expect(pages.length).toBeGreaterThan(2);
    for (const page of pages.slice(0, -1)) {
      // The next block's first word would not have fitted.
      expect(fits(page)).toBe(true);
    }
    expect(
      pages
        .flat()
        .filter((b) => b.kind === 'paragraph')
        .map((b) => b.text)
        .join(' ')
        .split(' '),
    ).toHaveLength(12 * 15);
  });

  it('never leaves a heading at the foot of a page without the start of its text', () => {
    // The heading would fit on the first page, but not with a line of its paragraph.
    const pages = paginateFlow([para(words(9)), heading('Chapter Two'), para(words(6, 100))], linesFit(4, 12));
    expect(text(pages)[0]).not.toMatch(/#Chapter Two$/);
    expect(pages[1]![0]).toEqual(heading('Chapter Two'));
  });

  it('still moves on when one word is wider than the page', () => {
    const pages = paginateFlow([para('supercalifragilistic a')], linesFit(1, 5));
    expect(text(pages)).toEqual(['supercalifragilistic', 'a']);
  });

  it('answers no pages for no text', () => {
    expect(paginateFlow([], linesFit(5, 10))).toEqual([]);
  });
});
