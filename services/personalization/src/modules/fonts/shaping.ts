// Shaping: which text harfbuzz must shape, and the glyphs of a run of one face (shaped, or one per
// character from the cmap), with the text each glyph stands for; a glyph's outline for the preview.
import type * as HarfBuzzModule from 'harfbuzzjs' with { 'resolution-mode': 'import' };
import { loadFace, loadFaceBytes, type FaceName } from './faces';

/**
 * Text harfbuzz must shape: the Indic and Arabic scripts (conjuncts, reordered vowel signs,
 * joining forms, right to left) and any combining mark (placed on its base by the font's
 * anchors). The rest, Latin, Greek and Cyrillic without marks, maps one glyph per character from
 * the cmap: the same result, without the cost, for a 300-page book.
 */
const NEEDS_SHAPING = /\p{M}|\p{Script=Arabic}|\p{Script=Devanagari}|\p{Script=Bengali}|\p{Script=Tamil}|\u200c|\u200d/u;
export const needsShaping = (text: string) => NEEDS_SHAPING.test(text);

type HarfBuzz = typeof HarfBuzzModule;
let harfbuzz: Promise<HarfBuzz> | null = null;
let shaper: HarfBuzz | null = null;
const hbFonts = new Map<FaceName, InstanceType<HarfBuzz['Font']>>();

/** harfbuzz (WebAssembly, from the harfbuzzjs package), loaded once per process or worker thread. */
export async function loadShaper(): Promise<void> {
  harfbuzz ??= import('harfbuzzjs');
  shaper = await harfbuzz;
}

/** harfbuzz's font of a face (the shaper must be loaded). */
function hbFont(face: FaceName): InstanceType<HarfBuzz['Font']> {
  if (!shaper) throw new Error('the shaper is not loaded: call loadShaper() first');
  let font = hbFonts.get(face);
  if (!font) {
    font = new shaper.Font(new shaper.Face(new shaper.Blob(loadFaceBytes(face))));
    hbFonts.set(face, font);
  }
  return font;
}

/** One glyph as harfbuzz placed it, in font units, and the text it stands for in text extraction. */
export interface ShapedGlyph {
  glyph: number;
  advance: number;
  dx: number;
  dy: number;
  text: string;
}

/** Letters of the right-to-left scripts (U+0590 to U+08FF: Hebrew, Arabic and their neighbours). */
export const RIGHT_TO_LEFT = /[\u0590-\u08ff]/u;
export const NON_SPACING_MARK = /\p{Mn}/u;

/**
 * What each glyph of a shaped run stands for, so that extraction (which reads glyphs in the order
 * they are drawn, then puts right-to-left text back into logical order) gives the text as typed:
 * each cluster's characters are dealt, in logical order, to its glyphs that advance (a reordered
 * vowel sign gets the consonant, the consonant the sign); a mark, or a glyph left over, stands for
 * nothing. Right-to-left, each glyph's share is written reversed, as extraction reverses it back.
 * Letters are dealt with their non-spacing marks, so no glyph's text begins with a mark.
 */
function glyphTexts(text: string, glyphs: ReadonlyArray<{ cluster: number; xAdvance?: number }>, rtl: boolean): string[] {
  const starts = [...new Set(glyphs.map((g) => g.cluster))].sort((a, b) => a - b);
  const clusterEnd = new Map(starts.map((start, i) => [start, starts[i + 1] ?? text.length]));
  const out: string[] = new Array<string>(glyphs.length).fill('');
  // Glyph indices per cluster, in logical order (drawing order reversed right-to-left).
  const order = glyphs.map((_, i) => i);
  if (rtl) order.reverse();
  const members = new Map<number, number[]>();
  for (const i of order) {
    const list = members.get(glyphs[i]!.cluster) ?? [];
    list.push(i);
    members.set(glyphs[i]!.cluster, list);
  }
  for (const [start, list] of members) {
    // Letters with the non-spacing marks after them, dealt as units: a glyph's text then never opens with a mark.
    const chars = text.slice(start, clusterEnd.get(start)).match(/\P{Mn}\p{Mn}*|\p{Mn}+/gu) ?? [];
    const advancing = list.filter((i) => (glyphs[i]!.xAdvance ?? 0) !== 0);
    const carriers = advancing.length ? advancing : list.slice(0, 1);
    carriers.forEach((i, k) => {
      const share = k === carriers.length - 1 ? chars.slice(k) : chars.slice(k, k + 1);
      out[i] = rtl ? [...share.join('')].reverse().join('') : share.join('');
    });
  }
  return out;
}

/** Shapes a run of one face: glyphs in the order they are drawn (left to right; harfbuzz reverses right-to-left text). */
export function shapeRun(face: FaceName, text: string): ShapedGlyph[] {
  const font = hbFont(face);
  const buffer = new shaper!.Buffer();
  buffer.addText(text);
  buffer.guessSegmentProperties();
  shaper!.shape(font, buffer);
  const glyphs = buffer.getGlyphInfosAndPositions();
  const texts = glyphTexts(text, glyphs, RIGHT_TO_LEFT.test(text));
  return glyphs.map((g, i) => ({ glyph: g.codepoint, advance: g.xAdvance ?? 0, dx: g.xOffset ?? 0, dy: g.yOffset ?? 0, text: texts[i]! }));
}

/** The glyphs of a run of one face, in drawing order and font units: shaped when it needs it, else one per character from the cmap. */
export function runGlyphs(face: FaceName, text: string): ShapedGlyph[] {
  if (needsShaping(text)) return shapeRun(face, text);
  const font = loadFace(face);
  return Array.from(text, (char) => {
    const glyph = font.glyphId(char.codePointAt(0) as number);
    return { glyph, advance: font.advanceWidth(glyph), dx: 0, dy: 0, text: char };
  });
}

const outlines = new Map<string, string>();

/** A glyph's outline as an SVG path in font units, y up (harfbuzz draws it; the shaper must be loaded). */
export function glyphOutline(face: FaceName, glyph: number): string {
  const key = `${face}:${glyph}`;
  let path = outlines.get(key);
  if (path === undefined) {
    path = hbFont(face).glyphToPath(glyph);
    outlines.set(key, path);
  }
  return path;
}
