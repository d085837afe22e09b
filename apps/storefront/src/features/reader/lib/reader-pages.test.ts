import type { Fits } from './paginate';
import { hasReadableSample, readerScreens, samplePages, screenAtWord, wordsBefore } from './reader-pages';

/** A screen that holds one excerpt (its heading and paragraph): the old page-per-excerpt counting. */
const oneExcerpt: Fits = (page) => page.length <= 2;

/** C for a page of text, A for the book's own ad page, Ad for the shop's ad slot, E for the end of the sample. */
function shape(sample: Parameters<typeof readerScreens>[0], fits: Fits = oneExcerpt): string {
  return readerScreens(sample, fits)
    .map((screen) => (screen.kind === 'text' ? 'C' : screen.kind === 'end' ? 'E' : screen.inserted ? 'Ad' : 'A'))
    .join(' ');
}

const lines = (n: number) => Array.from({ length: n }, (_, i) => `Line ${i + 1}`).join('\n');
const page = (content: string, isAd = false, chapter = `Chapter ${content}`) => ({ chapter, content, isAd });

describe('string samples', () => {
  it('make one page per non-empty trimmed line, skipping empty and blank lines', () => {
    const pages = samplePages('  First line  \n\n   \r\nSecond line\n\n');
    expect(pages.map((p) => p.content)).toEqual(['First line', 'Second line']);
    expect(pages.every((p) => !p.isAd)).toBe(true);
  });

  it('give each page a heading', () => {
    expect(samplePages('a\nb').map((p) => p.chapter)).toEqual(['Excerpt 1', 'Excerpt 2']);
  });
});

describe('list samples', () => {
  it('keep chapter, content and isAd of each entry', () => {
    const pages = samplePages([page('One', false, 'Chapter 1'), page('Buy now', true, 'Sponsored')]);
    expect(pages).toEqual([
      { chapter: 'Chapter 1', content: 'One', isAd: false },
      { chapter: 'Sponsored', content: 'Buy now', isAd: true },
    ]);
  });

  it('skip entries with blank content', () => {
    expect(samplePages([page('  '), page('Real')]).map((p) => p.content)).toEqual(['Real']);
  });
});

describe("ad interleaving: the shop's ad slot follows every 3rd page of text, never right before the end", () => {
  it.each([
    [1, 'C E'],
    [2, 'C C E'],
    [3, 'C C C E'],
    [4, 'C C C Ad C E'],
    [6, 'C C C Ad C C C E'],
    [7, 'C C C Ad C C C Ad C E'],
    [9, 'C C C Ad C C C Ad C C C E'],
    [10, 'C C C Ad C C C Ad C C C Ad C E'],
  ])('%i pages of text → %s', (n, expected) => {
    expect(shape(lines(n))).toBe(expected);
  });

  it('works the same on list samples', () => {
    expect(shape([page('1'), page('2'), page('3'), page('4'), page('5')])).toBe('C C C Ad C C E');
  });

  it("counts from the book's own ad pages, so two ads never stand together", () => {
    expect(shape([page('1'), page('2'), page('x', true), page('3'), page('4'), page('5'), page('6')])).toBe('C C A C C C Ad C E');
    // A source ad right after the 3rd page is the break itself: no placeholder before it.
    expect(shape([page('1'), page('2'), page('3'), page('x', true), page('4')])).toBe('C C C A C E');
  });

  it('counts pages of the screen, not excerpts: short excerpts share a page', () => {
    // Every excerpt fits with the others on a screen of 8 blocks (4 excerpts): 10 excerpts make 3 pages.
    expect(shape(lines(10), (p) => p.length <= 8)).toBe('C C C E');
    const screens = readerScreens(lines(10), (p) => p.length <= 8);
    expect(screens[0]).toEqual({
      kind: 'text',
      blocks: [1, 2, 3, 4].flatMap((i) => [
        { kind: 'heading', text: `Excerpt ${i}` },
        { kind: 'paragraph', text: `Line ${i}`, continued: false, split: false },
      ]),
    });
  });

  it('runs the pages of one chapter on under one heading', () => {
    const [screen] = readerScreens([page('One.', false, 'Chapter 1'), page('Two.', false, 'Chapter 1'), page('Three.', false, 'Chapter 2')], () => true);
    expect(screen).toMatchObject({
      kind: 'text',
      blocks: [{ text: 'Chapter 1' }, { text: 'One.' }, { text: 'Two.' }, { text: 'Chapter 2' }, { text: 'Three.' }],
    });
  });

  it('splits an excerpt into paragraphs at blank lines', () => {
    const [screen] = readerScreens([page('First paragraph.\n\nSecond paragraph.', false, 'One')], () => true);
    expect(screen).toEqual({
      kind: 'text',
      blocks: [
        { kind: 'heading', text: 'One' },
        { kind: 'paragraph', text: 'First paragraph.', continued: false, split: false },
        { kind: 'paragraph', text: 'Second paragraph.', continued: false, split: false },
      ],
    });
  });
});

describe('the place in the sample', () => {
  it('outlives a new layout: the page showing the same word', () => {
    const narrow = readerScreens(lines(10), oneExcerpt);
    const wide = readerScreens(lines(10), (p) => p.length <= 8);
    // On the narrow layout the 6th excerpt is on screen 6 (after an ad); on the wide one on page 2 (excerpts 5 to 8).
    const offset = wordsBefore(narrow, 6);
    expect(narrow[6]).toMatchObject({ kind: 'text', blocks: [{ text: 'Excerpt 6' }, { text: 'Line 6' }] });
    expect(screenAtWord(wide, offset)).toBe(1);
    // Back: the wide page 2 starts with the 5th excerpt, screen 5 of the narrow layout.
    expect(screenAtWord(narrow, wordsBefore(wide, 1))).toBe(5);
    expect(screenAtWord(narrow, 0)).toBe(0);
    // The end of the sample stays the end.
    expect(screenAtWord(wide, wordsBefore(narrow, narrow.length - 1))).toBe(wide.length - 1);
    expect(wide.at(-1)).toEqual({ kind: 'end' });
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
