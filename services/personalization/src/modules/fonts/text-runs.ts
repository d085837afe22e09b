// Text split into runs of one face each, by a style's fallback chain, with spaces, marks and
// right-to-left punctuation kept with the run they belong to.
import { hasGlyph, type FaceName } from './faces';
import { FALLBACK_CHAINS, fontFor, type TextStyle } from './fallback';
import { RIGHT_TO_LEFT } from './shaping';

export interface TextRun {
  face: FaceName;
  text: string;
}

const NEUTRAL_ONLY = /^[\s\p{P}\p{S}]+$/u;
/** Text whose first letter is right to left (UAX #9, P2: a paragraph's direction). */
const FIRST_STRONG_RTL = /^[^\p{L}]*[\u0590-\u08ff]/u;
const LATIN = /^[\x20-\x7e\u00a0-\u017f]*$/;
const STICKY = /[\s\p{M}\u200c\u200d]/u;

/**
 * Splits text into runs of one face each. Spaces, combining marks and joiners
 * stay with the run before them when that face has them, so "for अनन्या" makes
 * two runs rather than three and a mark never leaves its base letter.
 */
export function splitRuns(text: string, style: TextStyle): TextRun[] {
  // Every first face is a DejaVu with all of Latin-1 and Latin Extended-A.
  if (LATIN.test(text)) return text ? [{ face: FALLBACK_CHAINS[style][0], text }] : [];
  const runs: TextRun[] = [];
  for (const char of text) {
    const codePoint = char.codePointAt(0) as number;
    const last = runs[runs.length - 1];
    const face = last && STICKY.test(char) && hasGlyph(last.face, codePoint) ? last.face : fontFor(codePoint, style);
    if (last && last.face === face) last.text += char;
    else runs.push({ face, text: char });
  }
  // Punctuation between two right-to-left runs of one face (an Arabic comma, a full stop), or ending
  // a line whose first letter is right to left, is right to left too (UAX #9, rule N1): set in that
  // face when it has the glyphs, the whole stretch is shaped and drawn right to left as one run.
  const rightToLeftLine = FIRST_STRONG_RTL.test(text);
  for (let i = 1; i < runs.length; i += 1) {
    const [before, between, after] = [runs[i - 1]!, runs[i]!, runs[i + 1]];
    const joins = after ? RIGHT_TO_LEFT.test(after.text) && after.face === before.face : rightToLeftLine;
    if (
      RIGHT_TO_LEFT.test(before.text) &&
      joins &&
      NEUTRAL_ONLY.test(between.text) &&
      [...between.text].every((char) => hasGlyph(before.face, char.codePointAt(0)!))
    ) {
      before.text += between.text + (after?.text ?? '');
      runs.splice(i, after ? 2 : 1);
      i -= 1;
    }
  }
  // A right-to-left run's trailing spaces belong to the text after it: kept, they would be drawn at
  // its left, where extraction reads them before the run.
  for (let i = 0; i + 1 < runs.length; i += 1) {
    const run = runs[i]!;
    const trailing = RIGHT_TO_LEFT.test(run.text) ? /\s+$/u.exec(run.text) : null;
    if (trailing && trailing.index > 0) {
      run.text = run.text.slice(0, trailing.index);
      runs[i + 1]!.text = trailing[0] + runs[i + 1]!.text;
    }
  }
  return runs;
}
