import { breakLines, typesetParagraphs, A5_BOOK } from '../../../src/modules/pdf-engine/typeset-text';

// Every character 1 unit wide: line widths become character counts.
const charCount = (text: string) => [...text].length;

describe('breakLines', () => {
  it('fills each line greedily without exceeding the measure', () => {
    const lines = breakLines('the quick brown fox jumps over the lazy dog', 15, charCount);
    expect(lines).toEqual(['the quick brown', 'fox jumps over', 'the lazy dog']);
    lines.forEach((line) => expect(charCount(line)).toBeLessThanOrEqual(15));
  });

  it('leaves room for the first-line indent', () => {
    expect(breakLines('aaaa bbbb cccc', 10, charCount, 2)).toEqual(['aaaa', 'bbbb cccc']);
  });

  it('cuts a word longer than the line, keeping every character', () => {
    const lines = breakLines('a abcdefghijklmnopqrstuvwxyz z', 10, charCount);
    expect(lines).toEqual(['a', 'abcdefghij', 'klmnopqrst', 'uvwxyz z']);
  });

  it('never cuts inside a grapheme cluster', () => {
    const word = 'e\u0301'.repeat(6);
    const lines = breakLines(word, 3, (t) => t.length);
    expect(lines.join('')).toBe(word);
    lines.forEach((line) => expect(line.startsWith('\u0301')).toBe(false));
  });
});

describe('typesetParagraphs', () => {
  const measure = (text: string, _style: string, size: number) => charCount(text) * size * 0.5;

  it('starts each chapter on a new page with its heading first', () => {
    const pages = typesetParagraphs(['Intro.', '# One', 'Text one.', '# Two', 'Text two.'], measure);
    expect(pages.map((p) => p.chapterHeading)).toEqual([undefined, 'One', 'Two']);
    expect(pages[1].lines[0].text).toBe('One');
    expect(pages[1].lines[0].size).toBeGreaterThan(pages[1].lines[1].size);
  });

  it('keeps body lines inside the margins and above the footer area', () => {
    const long = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} ${'word '.repeat(80)}`);
    const pages = typesetParagraphs(long, measure);
    expect(pages.length).toBeGreaterThan(3);
    for (const page of pages) {
      for (const line of page.lines) {
        expect(line.y).toBeGreaterThanOrEqual(A5_BOOK.bottomBaseline - 15);
        expect(line.x + measure(line.text, line.style, line.size)).toBeLessThanOrEqual(A5_BOOK.width - A5_BOOK.marginRight + 0.001);
      }
    }
  });
});
