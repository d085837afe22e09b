// The styles text is set in, and each style's fallback chain: which face draws a character, and how
// far it leans.
import { hasGlyph, loadFace, type FaceName } from './faces';

export type TextStyle = 'serif' | 'serifBold' | 'serifItalic' | 'sans' | 'mono';

/**
 * First face that has a character's glyph wins; the first face draws anything nobody has. The
 * Indic and Arabic faces come before DejaVu Sans (which has Arabic letters of its own) so each
 * script is set by the face made for it.
 */
const SCRIPT_FACES = ['devanagari', 'bengali', 'tamil', 'arabic'] as const;
const SCRIPT_FACES_BOLD = ['devanagariBold', 'bengaliBold', 'tamilBold', 'arabicBold'] as const;
export const FALLBACK_CHAINS: Record<TextStyle, readonly FaceName[]> = {
  serif: ['serif', ...SCRIPT_FACES, 'sans'],
  serifBold: ['serifBold', ...SCRIPT_FACES_BOLD, 'sans'],
  serifItalic: ['serifItalic', 'serif', ...SCRIPT_FACES, 'sans'],
  sans: ['sans', ...SCRIPT_FACES],
  mono: ['mono', 'sans', ...SCRIPT_FACES],
};

/**
 * How far a face leans in a style, as the shear of its glyphs (x += k·y): 0 but in the italic
 * style, where a face with no italic of its own (Devanagari, Bengali, Tamil; DejaVu Serif for a
 * letter the italic lacks) is slanted as much as DejaVu Serif Italic leans, so that the author's
 * name and a gift's message look alike in every script. Arabic stays upright: its writing has no
 * sloped style, and a face leaning right reads as a mistake. The slant is in the outlines of the
 * face's subset (truetype.ts, shearGlyph), not in the text matrix: text readers (pdf.js) take a
 * sheared text matrix for text on another line.
 */
export function slantOf(style: TextStyle, face: FaceName): number {
  if (style !== 'serifItalic' || face === 'serifItalic' || face.startsWith('arabic')) return 0;
  italicSlant ??= Math.tan((-loadFace('serifItalic').metrics.italicAngle * Math.PI) / 180);
  return italicSlant;
}
let italicSlant: number | undefined;

/** A face as a style draws it: its name, or its name and "-slanted" (a font of its own in a document). */
export type FontKey = FaceName | `${FaceName}-slanted`;
export const fontKey = (face: FaceName, style: TextStyle): FontKey => (slantOf(style, face) ? `${face}-slanted` : face);

const ARABIC_LETTER = /\p{Script=Arabic}/u;

const chainCache = new Map<string, FaceName>();

/** The face of a style's fallback chain that draws this code point. */
export function fontFor(codePoint: number, style: TextStyle = 'serif'): FaceName {
  const cacheKey = `${style}:${codePoint}`;
  let face = chainCache.get(cacheKey);
  if (!face) {
    const chain = FALLBACK_CHAINS[style];
    // Arabic letters always take the Arabic face, though DejaVu has some: one design, joined by its own rules.
    const arabic = ARABIC_LETTER.test(String.fromCodePoint(codePoint)) ? chain.find((candidate) => candidate.startsWith('arabic')) : undefined;
    face = arabic ?? chain.find((candidate) => hasGlyph(candidate, codePoint)) ?? chain[0];
    chainCache.set(cacheKey, face);
  }
  return face;
}

const STYLES = Object.keys(FALLBACK_CHAINS) as TextStyle[];

/**
 * Whether every style draws a code point with a face that has its glyph: what the Persona can
 * print in any field (contracts' PRINTABLE_RANGES are these code points, checked against the fonts
 * by printable-coverage.test.ts).
 */
export function printedInEveryStyle(codePoint: number): boolean {
  return STYLES.every((style) => hasGlyph(fontFor(codePoint, style), codePoint));
}
