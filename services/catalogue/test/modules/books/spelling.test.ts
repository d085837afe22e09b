import { foldWord, oneLetterAway } from '../../../src/modules/books/spelling';

describe('words one letter away', () => {
  it.each([
    ['a letter missing', 'tifin', 'tiffin'],
    ['an extra letter', 'tiffinn', 'tiffin'],
    ['two letters swapped', 'bakcwaters', 'backwaters'],
    ['two letters swapped at the start', 'tfifin', 'tiffin'],
    ['a letter changed', 'ledgar', 'ledger'],
    ['a short word with a swap', 'satl', 'salt'],
  ])('corrects %s (%s → %s)', (_label, typo, word) => {
    expect(oneLetterAway(typo)).toContain(word);
  });

  it('never offers the word itself, nor anything two letters away', () => {
    const near = oneLetterAway('salt');
    expect(near).not.toContain('salt');
    expect(near).not.toContain('sail'.replace('i', 'x'));
    expect(near).not.toContain('slat'.split('').reverse().join(''));
  });

  it('corrects within another script', () => {
    // The vowel sign typed twice: one extra letter.
    expect(oneLetterAway('अनन्याा')).toContain('अनन्या');
  });

  it('folds case and accents like the search documents', () => {
    expect(foldWord('ZOË')).toBe('zoe');
    expect(foldWord('Renée')).toBe('renee');
  });
});
