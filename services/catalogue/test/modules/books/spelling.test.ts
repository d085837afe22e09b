import { foldWord, oneLetterAway, TYPO_PREFIX_MIN, typoPrefixes } from '../../../src/modules/books/spelling';

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

describe('the beginnings an unfinished word with a typo stands for', () => {
  it('names the beginnings one letter away ("backwatr" → "backwat", "backwate")', () => {
    expect(typoPrefixes('backwatr')).toEqual(expect.arrayContaining(['backwat', 'backwate', 'backwater']));
    expect(typoPrefixes('kuruvla')).toContain('kuruvila');
  });

  it('never a beginning so short that it begins half the words', () => {
    expect(typoPrefixes('lefg').every((p) => [...p].length >= TYPO_PREFIX_MIN)).toBe(true);
    expect(typoPrefixes('tje')).toEqual(oneLetterAway('tje').filter((p) => p.length >= TYPO_PREFIX_MIN));
    expect(typoPrefixes('tje').every((p) => p.length === 4)).toBe(true);
  });
});
