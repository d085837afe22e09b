import { makeBook } from '../../../test-fixtures';
import { HOME_TABS, filterHomeBooks } from './home-filters';

const fiction = makeBook({ title: 'The Lantern Keeper', author: 'Ira Sen', tags: ['Fiction', 'Mystery'] });
const historicalFiction = makeBook({ title: 'Monsoon Empire', author: 'R. Das', tags: ['Historical Fiction'] });
const memoir = makeBook({ title: 'Letters Home', author: 'Maya Kapoor', tags: ['Memoir'] });
const biography = makeBook({ title: 'A Life in Ink', author: 'J. Rao', tags: ['Biography', 'Art'] });
const selfHelp = makeBook({ title: 'Small Steps', author: 'Neha Joshi', tags: ['Self-Help', 'Habits'] });
const lowerFiction = makeBook({ title: 'Quiet Rivers', author: 'Ira Sen', tags: ['fiction', 'self-help'] });
const all = [fiction, historicalFiction, memoir, biography, selfHelp, lowerFiction];

describe('home tabs', () => {
  it('are All Books, Fiction, Non-Fiction and Self-Help, in that order', () => {
    expect(HOME_TABS.map((tab) => tab.label)).toEqual(['All Books', 'Fiction', 'Non-Fiction', 'Self-Help']);
  });

  it('All Books keeps every book in catalogue order', () => {
    expect(filterHomeBooks(all, 'all', '')).toEqual(all);
  });

  it('Fiction keeps only books tagged exactly "Fiction" (not "Historical Fiction", not "fiction")', () => {
    expect(filterHomeBooks(all, 'fiction', '')).toEqual([fiction]);
  });

  it('Non-Fiction keeps books with a tag containing Memoir, Biography or Historical', () => {
    expect(filterHomeBooks(all, 'non-fiction', '')).toEqual([historicalFiction, memoir, biography]);
  });

  it('Self-Help keeps only books tagged exactly "Self-Help"', () => {
    expect(filterHomeBooks(all, 'self-help', '')).toEqual([selfHelp]);
  });
});

describe('home search', () => {
  it('matches a case-insensitive substring of the title', () => {
    expect(filterHomeBooks(all, 'all', 'lantern')).toEqual([fiction]);
  });

  it('matches a case-insensitive substring of the author', () => {
    expect(filterHomeBooks(all, 'all', 'IRA SEN')).toEqual([fiction, lowerFiction]);
  });

  it('combines with the selected tab', () => {
    expect(filterHomeBooks(all, 'fiction', 'ira')).toEqual([fiction]);
    expect(filterHomeBooks(all, 'self-help', 'ira')).toEqual([]);
  });

  it('treats blank text as no search', () => {
    expect(filterHomeBooks(all, 'all', '   ')).toEqual(all);
  });
});
