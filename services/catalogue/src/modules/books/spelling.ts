// Words one letter away from a word (Damerau–Levenshtein distance 1): a letter missing, one
// extra, two side by side swapped, or one changed. The letters tried for a missing or changed
// one are the Latin alphabet, the digits and the word's own letters (so a word in another
// script is corrected within it).
const LATIN = 'abcdefghijklmnopqrstuvwxyz0123456789';

export function oneLetterAway(word: string): string[] {
  const letters = [...word];
  const alphabet = [...new Set([...LATIN, ...letters])];
  const out = new Set<string>();
  for (let i = 0; i <= letters.length; i += 1) {
    const head = letters.slice(0, i).join('');
    const tail = letters.slice(i);
    if (tail.length > 0) out.add(head + tail.slice(1).join('')); // one extra letter typed
    if (tail.length > 1) out.add(head + tail[1] + tail[0] + tail.slice(2).join('')); // two swapped
    for (const c of alphabet) {
      out.add(head + c + tail.join('')); // a letter missing
      if (tail.length > 0 && c !== tail[0]) out.add(head + c + tail.slice(1).join('')); // a letter changed
    }
  }
  out.delete(word);
  return [...out];
}

/** A word as the search documents fold it (lower case, accents removed), close enough to match their words. */
export function foldWord(word: string): string {
  return word
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/**
 * Shortest beginning of a word that a typo in an unfinished word is matched against
 * ("backwatr" → words beginning "backwat" or "backwate"): three letters begin too many words.
 */
export const TYPO_PREFIX_MIN = 4;

/** The beginnings a word typed with a typo before it was finished may stand for: its one-letter neighbours of TYPO_PREFIX_MIN letters or more. */
export function typoPrefixes(typed: string): string[] {
  return oneLetterAway(typed).filter((p) => [...p].length >= TYPO_PREFIX_MIN);
}
