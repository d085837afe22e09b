import { searchPathFor } from './search-path';

describe('header search', () => {
  it('goes to /books?search=<text> with the text trimmed and encoded', () => {
    expect(searchPathFor('  the hobbit ')).toBe('/books?search=the%20hobbit');
    expect(searchPathFor('a&b=c')).toBe('/books?search=a%26b%3Dc');
  });

  it('ignores empty or blank text', () => {
    expect(searchPathFor('')).toBeNull();
    expect(searchPathFor('   \t\n')).toBeNull();
  });
});
