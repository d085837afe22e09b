import { AD_PLACEHOLDER_TEXT, buildReaderPages, hasReadableSample, samplePages } from './reader-pages';

/** C for a reading page, A for a source ad page, Ad for an inserted placeholder. */
function shape(sample: Parameters<typeof buildReaderPages>[0]): string {
  return buildReaderPages(sample)
    .map((page) => (page.inserted ? 'Ad' : page.isAd ? 'A' : 'C'))
    .join(' ');
}

const lines = (n: number) => Array.from({ length: n }, (_, i) => `Line ${i + 1}`).join('\n');
const page = (content: string, isAd = false, chapter = 'Chapter') => ({ chapter, content, isAd });

describe('string samples', () => {
  it('make one page per non-empty trimmed line, skipping empty and blank lines', () => {
    const pages = samplePages('  First line  \n\n   \r\nSecond line\n\n');
    expect(pages.map((p) => p.content)).toEqual(['First line', 'Second line']);
    expect(pages.every((p) => !p.isAd && !p.inserted)).toBe(true);
  });

  it('give each page a heading', () => {
    expect(samplePages('a\nb').map((p) => p.chapter)).toEqual(['Excerpt 1', 'Excerpt 2']);
  });
});

describe('list samples', () => {
  it('keep chapter, content and isAd of each entry', () => {
    const pages = samplePages([page('One', false, 'Chapter 1'), page('Buy now', true, 'Sponsored')]);
    expect(pages).toEqual([
      { chapter: 'Chapter 1', content: 'One', isAd: false, inserted: false },
      { chapter: 'Sponsored', content: 'Buy now', isAd: true, inserted: false },
    ]);
  });

  it('skip entries with blank content', () => {
    expect(samplePages([page('  '), page('Real')]).map((p) => p.content)).toEqual(['Real']);
  });
});

describe('ad interleaving: a placeholder follows every 3rd reading page, never at the very end', () => {
  it.each([
    [1, 'C'],
    [2, 'C C'],
    [3, 'C C C'],
    [4, 'C C C Ad C'],
    [6, 'C C C Ad C C C'],
    [7, 'C C C Ad C C C Ad C'],
    [9, 'C C C Ad C C C Ad C C C'],
    [10, 'C C C Ad C C C Ad C C C Ad C'],
  ])('%i content pages → %s', (n, expected) => {
    expect(shape(lines(n))).toBe(expected);
  });

  it('inserts the test ad text as a page flagged isAd', () => {
    const pages = buildReaderPages(lines(4));
    expect(pages[3]).toEqual({ chapter: 'Advertisement', content: AD_PLACEHOLDER_TEXT, isAd: true, inserted: true });
    expect(AD_PLACEHOLDER_TEXT).toBe('This is a test Ad. Replace with real AdSense code after approval.');
  });

  it('works the same on list samples', () => {
    expect(shape([page('1'), page('2'), page('3'), page('4'), page('5')])).toBe('C C C Ad C C');
  });

  it("counts from the book's own ad pages, so two ads never stand together", () => {
    expect(shape([page('1'), page('2'), page('x', true), page('3'), page('4'), page('5'), page('6')])).toBe('C C A C C C Ad C');
    // A source ad right after the 3rd page is the break itself: no placeholder before it.
    expect(shape([page('1'), page('2'), page('3'), page('x', true), page('4')])).toBe('C C C A C');
  });

  it('gives N = n + floor((n - 1) / 3) pages for n plain pages', () => {
    for (let n = 1; n <= 20; n += 1) {
      expect(buildReaderPages(lines(n))).toHaveLength(n + Math.floor((n - 1) / 3));
    }
  });
});

describe('readable samples', () => {
  it('need at least one non-ad page', () => {
    expect(hasReadableSample('')).toBe(false);
    expect(hasReadableSample('\n \n')).toBe(false);
    expect(hasReadableSample([])).toBe(false);
    expect(hasReadableSample([page('only an ad', true)])).toBe(false);
    expect(hasReadableSample(null)).toBe(false);
    expect(hasReadableSample('one line')).toBe(true);
  });
});
