import { makeBook } from '../../../test-fixtures';
import { ALL_CHIP, chipList, filterExploreBooks, matchesChip } from './explore-filters';

const a = makeBook({ title: 'Paper Moons', author: 'Lena Fox', tags: ['Fiction', 'Romance'] });
const b = makeBook({ title: 'The Long Walk', author: 'Tom Hale', tags: ['Historical Fiction', 'War'] });
const c = makeBook({ title: 'Better Mornings', author: 'Lena Park', tags: ['Self-Help', ' fiction '] });
const books = [a, b, c];

describe('explore chips', () => {
  it('are "all" then every distinct lower-cased tag, sorted', () => {
    expect(chipList(books)).toEqual(['all', 'fiction', 'historical fiction', 'romance', 'self-help', 'war']);
  });

  it('are just "all" for an empty catalogue', () => {
    expect(chipList([])).toEqual([ALL_CHIP]);
  });

  it('keep books having a tag that contains the chip text', () => {
    // "fiction" is contained in "Fiction", "Historical Fiction" and " fiction ".
    expect(filterExploreBooks(books, '', 'fiction')).toEqual([a, b, c]);
    expect(filterExploreBooks(books, '', 'historical fiction')).toEqual([b]);
    expect(filterExploreBooks(books, '', 'war')).toEqual([b]);
  });

  it('"all" keeps everything', () => {
    expect(filterExploreBooks(books, '', ALL_CHIP)).toEqual(books);
    expect(matchesChip(makeBook({ tags: [] }), ALL_CHIP)).toBe(true);
  });

  it('a book without tags only shows under "all"', () => {
    expect(matchesChip(makeBook({ tags: [] }), 'fiction')).toBe(false);
  });
});

describe('explore search', () => {
  it('matches title or author case-insensitively and combines with the chip', () => {
    expect(filterExploreBooks(books, 'lena', ALL_CHIP)).toEqual([a, c]);
    expect(filterExploreBooks(books, 'LENA', 'romance')).toEqual([a]);
    expect(filterExploreBooks(books, 'walk', ALL_CHIP)).toEqual([b]);
    expect(filterExploreBooks(books, 'nothing like this', ALL_CHIP)).toEqual([]);
  });
});
