// Font files, the per-script fallback chain, and measuring/drawing text in runs
// so that every character is drawn with a face that has its glyph. Each
// document embeds a subset of each face it uses (truetype.ts), as a Type 0
// font with Identity-H encoding and a ToUnicode map, so text extracts as typed.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  ColorTypes,
  PDFHexString,
  PDFName,
  PDFOperator,
  PDFString,
  rgb,
  type Color,
  type PDFContext,
  type PDFDocument,
  type PDFOperatorNames,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';
import type * as HarfBuzzModule from 'harfbuzzjs' with { 'resolution-mode': 'import' };
import { deflate } from './deflate';
import { TrueTypeFont } from './truetype';

const FACE_FILES = {
  serif: ['dejavu-fonts-ttf', 'ttf/DejaVuSerifCondensed.ttf'],
  serifBold: ['dejavu-fonts-ttf', 'ttf/DejaVuSerifCondensed-Bold.ttf'],
  serifItalic: ['dejavu-fonts-ttf', 'ttf/DejaVuSerifCondensed-Italic.ttf'],
  sans: ['dejavu-fonts-ttf', 'ttf/DejaVuSansCondensed.ttf'],
  mono: ['dejavu-fonts-ttf', 'ttf/DejaVuSansMono.ttf'],
  devanagari: ['@expo-google-fonts/noto-sans-devanagari', '400Regular/NotoSansDevanagari_400Regular.ttf'],
  devanagariBold: ['@expo-google-fonts/noto-sans-devanagari', '700Bold/NotoSansDevanagari_700Bold.ttf'],
  bengali: ['@expo-google-fonts/noto-sans-bengali', '400Regular/NotoSansBengali_400Regular.ttf'],
  bengaliBold: ['@expo-google-fonts/noto-sans-bengali', '700Bold/NotoSansBengali_700Bold.ttf'],
  tamil: ['@expo-google-fonts/noto-sans-tamil', '400Regular/NotoSansTamil_400Regular.ttf'],
  tamilBold: ['@expo-google-fonts/noto-sans-tamil', '700Bold/NotoSansTamil_700Bold.ttf'],
  arabic: ['@expo-google-fonts/noto-sans-arabic', '400Regular/NotoSansArabic_400Regular.ttf'],
  arabicBold: ['@expo-google-fonts/noto-sans-arabic', '700Bold/NotoSansArabic_700Bold.ttf'],
} as const satisfies Record<string, readonly [string, string]>;

export type FaceName = keyof typeof FACE_FILES;
export type TextStyle = 'serif' | 'serifBold' | 'serifItalic' | 'sans' | 'mono';

/**
 * First face that has a character's glyph wins; the first face draws anything nobody has. The
 * Indic and Arabic faces come before DejaVu Sans (which has Arabic letters of its own) so each
 * script is set by the face made for it.
 */
const SCRIPT_FACES = ['devanagari', 'bengali', 'tamil', 'arabic'] as const;
const SCRIPT_FACES_BOLD = ['devanagariBold', 'bengaliBold', 'tamilBold', 'arabicBold'] as const;
const FALLBACK_CHAINS: Record<TextStyle, readonly FaceName[]> = {
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

/**
 * Text harfbuzz must shape: the Indic and Arabic scripts (conjuncts, reordered vowel signs,
 * joining forms, right to left) and any combining mark (placed on its base by the font's
 * anchors). The rest, Latin, Greek and Cyrillic without marks, maps one glyph per character from
 * the cmap: the same result, without the cost, for a 300-page book.
 */
const NEEDS_SHAPING = /\p{M}|\p{Script=Arabic}|\p{Script=Devanagari}|\p{Script=Bengali}|\p{Script=Tamil}|\u200c|\u200d/u;
export const needsShaping = (text: string) => NEEDS_SHAPING.test(text);

const faceBytes = new Map<FaceName, Uint8Array>();
const parsed = new Map<FaceName, TrueTypeFont>();

/** The font file, read once per process from the installed package (never a machine font). */
export function loadFaceBytes(face: FaceName): Uint8Array {
  let bytes = faceBytes.get(face);
  if (!bytes) {
    const [pkg, file] = FACE_FILES[face];
    bytes = new Uint8Array(readFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), file)));
    faceBytes.set(face, bytes);
  }
  return bytes;
}

/** The face, parsed once per process. */
export function loadFace(face: FaceName): TrueTypeFont {
  let font = parsed.get(face);
  if (!font) {
    font = new TrueTypeFont(loadFaceBytes(face));
    parsed.set(face, font);
  }
  return font;
}

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

const RIGHT_TO_LEFT = /[\u0590-\u08ff]/u;
const ARABIC_LETTER = /\p{Script=Arabic}/u;
const NON_SPACING_MARK = /\p{Mn}/u;

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

export const unitsPerEm = (face: FaceName) => loadFace(face).metrics.unitsPerEm;

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

function hasGlyph(face: FaceName, codePoint: number): boolean {
  return loadFace(face).hasGlyph(codePoint);
}

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

export interface TextRun {
  face: FaceName;
  text: string;
}

const BLACK = rgb(0, 0, 0);
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

/** A run laid out: its glyphs (subset CIDs) and where each goes, in thousandths of an em. */
interface LaidRun {
  /** Per glyph: its code (4 hex digits), its advance, its offsets; `plain` when it sits where its font width puts it. */
  /** `silent`: stands for no text, drawn apart from the flow; `carrier`: an empty glyph that stands for marks (it paints nothing). */
  glyphs: Array<{ code: string; advance: number; own: number; dx: number; dy: number; silent?: boolean; carrier?: boolean }>;
  width: number;
  /** True when every glyph advances by its own width with no offset: one Tj draws it. */
  plain: boolean;
  /** Advance before the flow's first glyph (silent glyphs that open the run). */
  leadIn: number;
  /**
   * A shaped run's text as the /ActualText of the span around its flow (its white space at either
   * end left outside, right-to-left text in drawing order after a RIGHT-TO-LEFT MARK), or null when each glyph's own text says
   * it (text without shaping).
   */
  actualText: string | null;
  /** How many glyphs of the flow, at its start and at its end in drawing order, are white space drawn outside the span. */
  edges: [number, number];
  /**
   * A glyph that paints nothing, neither advances nor stands for text, drawn where the span starts
   * and where it ends: poppler takes the span's box from the first and the last glyph drawn in it,
   * and a shaped run's last glyph may sit left of its end (a conjunct's lower part).
   */
  anchor: string | null;
}

/**
 * One face's subset in one document. Characters without complex shaping map one glyph per code
 * point from the cmap; runs that need it (needsShaping) are shaped by harfbuzz, so conjuncts,
 * reordered vowel signs, Arabic joining and mark positions are the font's own. Each glyph drawn
 * gets a CID per text it stands for (a conjunct for its cluster, a reordered sign for nothing), so
 * the ToUnicode map gives copy-and-paste and search the text as typed, in logical order.
 */
export class SubsetFont {
  /** Old glyph ids in subset order: a glyph's subset id is its index. */
  private readonly glyphs: number[] = [0];
  private readonly subsetIds = new Map<number, number>([[0, 0]]);
  /** CID → subset id; CID → the text it stands for. */
  private readonly cidGlyphs: number[] = [0];
  /** CID → its advance in the W array: a shaped glyph's is harfbuzz's, with any silent glyph's after it. */
  private readonly cidWidths: number[] = [0];
  private readonly cidText = new Map<number, string>();
  private readonly cids = new Map<string, number>();
  private readonly laid = new Map<string, LaidRun>();
  /** Text without shaping, per character: its glyph as a run draws it (a book's lines are new strings of the same few letters). */
  private readonly plainGlyphs = new Map<string, LaidRun['glyphs'][number]>();
  private readonly scale: number;

  /** `shear`: the slant of its outlines (slantOf), 0 for the face as drawn. */
  constructor(
    readonly face: FaceName,
    private readonly font: TrueTypeFont,
    readonly ref: PDFRef,
    private readonly shear = 0,
  ) {
    this.scale = 1000 / font.metrics.unitsPerEm;
  }

  /** Whether any text was drawn with it. */
  get used(): boolean {
    return this.glyphs.length > 1;
  }

  /** The CID (4 hex digits) of a glyph standing for `text` and advancing by `width` (thousandths of an em; its own by default). */
  private code(glyph: number, text: string, width = this.font.advanceWidth(glyph) * this.scale): string {
    const key = `${glyph}:${width}:${text}`;
    let cid = this.cids.get(key);
    if (cid === undefined) {
      let id = this.subsetIds.get(glyph);
      if (id === undefined) {
        id = this.glyphs.length;
        this.glyphs.push(glyph);
        this.subsetIds.set(glyph, id);
      }
      // CIDs are handed out in order: while each glyph stands for one text, every CID is its glyph's subset id.
      cid = this.cidGlyphs.length;
      this.cidGlyphs.push(id);
      this.cidWidths.push(width);
      this.cidText.set(cid, text);
      this.cids.set(key, cid);
    }
    return hex4(cid);
  }

  /**
   * A glyph that paints nothing: the space's, drawn with no width (its CID's width in W is 0). Not
   * the joiner's: the Noto faces draw that one as a visible sign.
   */
  private emptyGlyph(): number {
    return this.font.glyphId(0x20);
  }

  /** A run's glyphs and advances (cached: a book repeats its words). */
  layout(text: string): LaidRun {
    let run = this.laid.get(text);
    if (run) return run;
    const glyphs: LaidRun['glyphs'] = [];
    let plain = true;
    let leadIn = 0;
    if (needsShaping(text)) {
      const carrier = RIGHT_TO_LEFT.test(text) ? null : this.emptyGlyph();
      // A glyph raised or lowered on a slanted face moves along the slant, as a slanted run's would.
      const shaped = shapeRun(this.face, text).map((g) => ({
        ...g,
        advance: g.advance * this.scale,
        dx: (g.dx + this.shear * g.dy) * this.scale,
        dy: g.dy * this.scale,
      }));
      // A glyph standing for no text (a mark, a second part of a vowel sign) is drawn apart from the
      // flow; the glyph before it in the flow advances for both, so the flow's widths stay exact.
      let lead = 0;
      const flowWidth = shaped.map(() => 0);
      let last = -1;
      shaped.forEach((g, i) => {
        if (g.text === '') {
          if (last >= 0) flowWidth[last] += g.advance;
          else lead += g.advance;
        } else {
          flowWidth[i] = g.advance;
          last = i;
        }
      });
      shaped.forEach((g, i) => {
        if (g.text === '') {
          glyphs.push({
            code: this.code(g.glyph, ''),
            advance: g.advance,
            own: this.font.advanceWidth(g.glyph) * this.scale,
            dx: g.dx,
            dy: g.dy,
            silent: true,
          });
          plain = false;
          return;
        }
        // Text extraction (pdf.js) takes a glyph whose text holds a non-spacing mark for a zero-width
        // diacritic and loses its advance: a conjunct's or a ligature's marks ride on an empty
        // zero-width glyph after it instead (the space's), so the glyph itself stands for its letters alone.
        const mark = carrier === null || g.advance === 0 ? -1 : g.text.search(NON_SPACING_MARK);
        const width = flowWidth[i]!;
        glyphs.push({ code: this.code(g.glyph, mark > 0 ? g.text.slice(0, mark) : g.text, width), advance: g.advance, own: width, dx: g.dx, dy: g.dy });
        if (g.dx !== 0 || g.dy !== 0 || width !== this.font.advanceWidth(g.glyph) * this.scale) plain = false;
        if (mark > 0) {
          glyphs.push({ code: this.code(carrier as number, g.text.slice(mark), 0), advance: 0, own: 0, dx: 0, dy: 0, carrier: true });
          plain = false;
        }
      });
      if (lead !== 0) {
        plain = false;
        leadIn = lead;
      }
    } else {
      for (const char of text) {
        let laid = this.plainGlyphs.get(char);
        if (!laid) {
          const glyph = this.font.glyphId(char.codePointAt(0) as number);
          const advance = this.font.advanceWidth(glyph) * this.scale;
          laid = Object.freeze({ code: this.code(glyph, char), advance, own: advance, dx: 0, dy: 0 });
          this.plainGlyphs.set(char, laid);
        }
        glyphs.push(laid);
      }
    }
    run = { glyphs, width: glyphs.reduce((sum, g) => sum + g.advance, 0), plain, leadIn, ...this.span(text, glyphs) };
    this.laid.set(text, run);
    return run;
  }

  /**
   * The span a shaped run's flow is drawn in, for readers that take the text from /ActualText
   * (poppler, PDFium) rather than from each glyph: its white space at either end stays outside, as
   * plain glyphs, so a word next to it keeps its own box; right-to-left text is written in drawing
   * order, which is how such readers take the glyphs it replaces before putting the line in
   * logical order.
   */
  private span(text: string, glyphs: LaidRun['glyphs']): Pick<LaidRun, 'actualText' | 'edges' | 'anchor'> {
    if (!needsShaping(text)) return { actualText: null, edges: [0, 0], anchor: null };
    const flow = glyphs.filter((g) => !g.silent && !g.carrier);
    const blank = (g: LaidRun['glyphs'][number]) => /^\s+$/u.test(this.cidText.get(parseInt(g.code, 16)) ?? '');
    let start = 0;
    while (start < flow.length && blank(flow[start]!)) start += 1;
    let end = 0;
    while (end < flow.length - start && blank(flow[flow.length - 1 - end]!)) end += 1;
    const core = text.trim();
    const anchor = this.code(this.emptyGlyph(), '', 0);
    // Drawn right to left, punctuation ending the text comes first: a RIGHT-TO-LEFT MARK before it keeps it in the right-to-left stretch poppler reverses.
    return { actualText: RIGHT_TO_LEFT.test(core) ? `\u200f${[...core].reverse().join('')}` : core, edges: [start, end], anchor };
  }

  /** Text width at `size` points. */
  widthOfTextAtSize(text: string, size: number): number {
    return this.layout(text).width * (size / 1000);
  }

  encodeText(text: string): PDFHexString {
    return PDFHexString.of(
      this.layout(text)
        .glyphs.map((g) => g.code)
        .join(''),
    );
  }

  /** Writes the font's objects (Type 0 font at `ref`, CID font, descriptor, font file, ToUnicode). */
  embed(context: PDFContext): void {
    const { metrics } = this.font;
    const scale = this.scale;
    // A subset's name: six capitals derived from what it holds, '+', the PostScript name (ISO 32000-1 §9.6.4).
    const name = this.shear ? `${metrics.postscriptName}-Slanted` : metrics.postscriptName;
    const digest = createHash('sha256')
      .update(`${name}:${this.glyphs.join(',')}`)
      .digest();
    const tag = Array.from(digest.subarray(0, 6), (byte) => String.fromCharCode(65 + (byte % 26))).join('');
    const baseFont = `${tag}+${name}`;
    const fontFile = context.register(context.stream(deflate(this.font.subset(this.glyphs, this.shear)), { Filter: 'FlateDecode' }));
    const descriptor = context.register(
      context.obj({
        Type: 'FontDescriptor',
        FontName: baseFont,
        // A slanted face is an italic one to a viewer that substitutes fonts (the Italic flag, 64).
        Flags: this.shear ? metrics.flags | 64 : metrics.flags,
        FontBBox: [
          (metrics.bbox.minX + Math.min(0, this.shear * metrics.bbox.minY)) * scale,
          metrics.bbox.minY * scale,
          (metrics.bbox.maxX + Math.max(0, this.shear * metrics.bbox.maxY)) * scale,
          metrics.bbox.maxY * scale,
        ],
        ItalicAngle: this.shear ? -(Math.atan(this.shear) * 180) / Math.PI : metrics.italicAngle,
        Ascent: metrics.ascent * scale,
        Descent: metrics.descent * scale,
        CapHeight: (metrics.capHeight || metrics.ascent) * scale,
        XHeight: (metrics.xHeight || 0) * scale,
        StemV: 0,
        FontFile2: fontFile,
      }),
    );
    // CIDs 1… are consecutive: one run of widths.
    const widths = this.cidWidths.length > 1 ? [1, this.cidWidths.slice(1)] : [];
    // Identity while every CID is its glyph's subset id; else a map from CID to subset id (2 bytes each, big-endian).
    const identity = this.cidGlyphs.every((id, cid) => id === cid);
    const cidToGid = identity
      ? 'Identity'
      : context.register(context.stream(deflate(Uint8Array.from(this.cidGlyphs.flatMap((id) => [id >> 8, id & 0xff]))), { Filter: 'FlateDecode' }));
    const cidFont = context.register(
      context.obj({
        Type: 'Font',
        Subtype: 'CIDFontType2',
        CIDToGIDMap: cidToGid,
        BaseFont: baseFont,
        CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
        FontDescriptor: descriptor,
        W: widths,
      }),
    );
    const toUnicode = context.register(context.stream(deflate(Buffer.from(unicodeCMap(this.cidText), 'latin1')), { Filter: 'FlateDecode' }));
    context.assign(
      this.ref,
      context.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: baseFont, Encoding: 'Identity-H', DescendantFonts: [cidFont], ToUnicode: toUnicode }),
    );
  }
}

const hex4 = (value: number) => value.toString(16).padStart(4, '0');

/** A number in content: at most 4 decimals, no exponent, no negative zero. */
function num(value: number): string {
  const rounded = Math.round(value * 10_000) / 10_000;
  return rounded === 0 ? '0' : String(rounded);
}

function fillColor(color: Color): string {
  if (color.type === ColorTypes.RGB) return `${num(color.red)} ${num(color.green)} ${num(color.blue)} rg`;
  if (color.type === ColorTypes.Grayscale) return `${num(color.gray)} g`;
  return `${num(color.cyan)} ${num(color.magenta)} ${num(color.yellow)} ${num(color.key)} k`;
}

/** UTF-16BE in hex: what a ToUnicode map's destination holds. */
function utf16Hex(text: string): string {
  let hex = '';
  for (let i = 0; i < text.length; i += 1) hex += hex4(text.charCodeAt(i));
  return hex;
}

/**
 * The operators that draw a shaped run, the text matrix set at its start. The glyphs that stand
 * for text flow in TJ arrays, each placed and advanced as harfbuzz says (TJ adjustments; a vertical
 * offset by text rise), so extraction reads one unbroken run; a glyph standing for no text (a mark,
 * a second part of a vowel sign) is drawn after the flow, where harfbuzz put it.
 *
 * For the readers that take a span's /ActualText (poppler; PDFium, Chromium's viewer) the flow, its
 * white space at either end aside, and those glyphs are one span whose text is the run's
 * (LaidRun.actualText), opened and closed by an empty anchor glyph at the run's start and end so
 * the span has the run's own box. Nothing in it switches the render mode: PDFium takes every text
 * object in a span after one that is not (an invisible one) as a new span, and reads its text again.
 *
 * A right-to-left run with more of the line after it ends its text with a LEFT-TO-RIGHT MARK: poppler
 * reverses as right to left all it reads from a right-to-left letter up to the next left-to-right
 * letter or digit, so without it "فاطمة الزهراء · PRS-…" would read back with " · " before the name.
 */
function shapedOperators(laid: LaidRun, em: number, at: (along: number, up: number) => string, start: number, followed: boolean): string {
  const adjust = (value: number) => (Math.abs(value) > 1e-9 ? ` ${num(value)} ` : '');
  const spanned = laid.actualText !== null;
  const actualText = `${laid.actualText ?? ''}${followed && RIGHT_TO_LEFT.test(laid.actualText ?? '') ? '\u200e' : ''}`;
  const [lead, trail] = laid.edges;
  const flowCount = laid.glyphs.filter((g) => !g.silent && !g.carrier).length;
  let pen = start;
  let coreEnd = start;
  let flow = adjust(-laid.leadIn);
  let trailing = '';
  let flowIndex = 0;
  const silent: string[] = [];
  const open = spanned ? `] TJ\n/Span <</ActualText <FEFF${utf16Hex(actualText)}>>> BDC\n[<${laid.anchor}>` : '';
  if (lead === 0) flow += open;
  for (const g of laid.glyphs) {
    const inFlow = !g.silent && !g.carrier;
    if (inFlow && flowIndex === lead && lead > 0) flow += open;
    // The white space after the core is drawn after the span, from where the core ends.
    const core = flowCount - trail;
    const after = inFlow ? flowIndex >= core : flowIndex > core;
    if (inFlow) flowIndex += 1;
    let drawn: string;
    if (g.silent) {
      silent.push(`${at(pen + g.dx * em, g.dy * em)}<${g.code}> Tj\n`);
      drawn = '';
    } else if (g.dy !== 0) {
      drawn = `] TJ\n${num(g.dy * em)} Ts\n[${adjust(-g.dx)}<${g.code}>${adjust(g.dx)}] TJ\n0 Ts\n[`;
    } else {
      drawn = `${adjust(-g.dx)}<${g.code}>${adjust(g.dx)}`;
    }
    if (after && spanned) trailing += drawn;
    else flow += drawn;
    pen += g.advance * em;
    if (!after) coreEnd = pen;
  }
  if (!spanned) return `[${flow}] TJ\n${silent.join('')}`.replace(/\[\] TJ\n/g, '');
  // The end anchor where the core ends: the span's box is the run's, whatever the last glyph drawn.
  const close = `${at(coreEnd, 0)}<${laid.anchor}> Tj\nEMC\n`;
  return `[${flow}] TJ\n${silent.join('')}${close}${trailing ? `[${trailing}] TJ\n` : ''}`.replace(/\[\] TJ\n/g, '');
}

/** The ToUnicode CMap of a subset: the text each CID stands for (a glyph standing for none maps to U+200D, which extraction drops). */
function unicodeCMap(unicode: ReadonlyMap<number, string>): string {
  const entries = [...unicode].sort((a, b) => a[0] - b[0]);
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo <<',
    '  /Registry (Adobe)',
    '  /Ordering (UCS)',
    '  /Supplement 0',
    '>> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000><ffff>',
    'endcodespacerange',
    `${entries.length} beginbfchar`,
    ...entries.map(([id, text]) => `<${hex4(id)}> <${utf16Hex(text || '\u200d')}>`),
    'endbfchar',
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n');
}

export interface DrawOptions {
  x: number;
  y: number;
  size: number;
  style: TextStyle;
  color?: Color;
  rotateDegrees?: number;
}

export interface PlacedText extends DrawOptions {
  text: string;
}

/**
 * The faces of one document. A face is embedded when the first text that needs it is measured or
 * drawn, so whatever text a style can set, its faces are there (no list of texts decided up front
 * to get wrong); each face's subset holds the glyphs actually drawn, and is written by `finish`.
 */
export class PersonaFonts {
  private readonly fonts = new Map<FontKey, SubsetFont>();
  private readonly widthCache = new Map<FontKey, Map<string, number>>();
  private readonly named = new WeakMap<PDFPage, Set<FontKey>>();

  private constructor(private readonly context: PDFContext) {}

  /** The fonts of `doc` (the shaper loaded, so that drawing stays synchronous). */
  static async embed(doc: PDFDocument): Promise<PersonaFonts> {
    await loadShaper();
    return new PersonaFonts(doc.context);
  }

  /** Writes every face's subset into the document: after the last text is drawn, before it is saved. */
  finish(doc: PDFDocument): void {
    for (const font of this.fonts.values()) if (font.used) font.embed(doc.context);
  }

  /** A face's subset in this document, as a style draws it (slanted or not). */
  private font(face: FaceName, style: TextStyle): SubsetFont {
    const key = fontKey(face, style);
    let font = this.fonts.get(key);
    if (!font) {
      font = new SubsetFont(face, loadFace(face), this.context.nextRef(), slantOf(style, face));
      this.fonts.set(key, font);
    }
    return font;
  }

  /** The reference of the font dictionary of a face as a style draws it (written by `finish`). */
  ref(face: FaceName, style: TextStyle): PDFRef {
    return this.font(face, style).ref;
  }

  private runWidth(face: FaceName, style: TextStyle, text: string): number {
    const key = fontKey(face, style);
    let cache = this.widthCache.get(key);
    if (!cache) {
      cache = new Map();
      this.widthCache.set(key, cache);
    }
    let width = cache.get(text);
    if (width === undefined) {
      width = this.font(face, style).widthOfTextAtSize(text, 1);
      cache.set(text, width);
    }
    return width;
  }

  width(text: string, style: TextStyle, size: number): number {
    let width = 0;
    for (const run of splitRuns(text, style)) width += this.runWidth(run.face, style, run.text);
    return width * size;
  }

  /** The name a page's resources give a face as a style draws it: its key (no page of this document holds another font). */
  private resourceName(page: PDFPage, face: FaceName, style: TextStyle): PDFName {
    const key = fontKey(face, style);
    const name = PDFName.of(key);
    let keys = this.named.get(page);
    if (!keys) {
      keys = new Set();
      this.named.set(page, keys);
    }
    if (!keys.has(key)) {
      page.node.setFontDictionary(name, this.font(face, style).ref);
      keys.add(key);
    }
    return name;
  }

  /**
   * Draws lines (no line breaking) in one text object, run by run. A page of
   * body text costs two operators a line instead of drawText's dozen, which is
   * what keeps a 300-page book fast and small in memory.
   */
  drawLines(page: PDFPage, lines: Iterable<PlacedText>) {
    page.pushOperators(...this.textOperators(lines, (face, style) => this.resourceName(page, face, style)));
  }

  /**
   * The operators that draw `lines`, naming the font resource of each face, as
   * each style draws it, as `fontName` says: one text object, written as one
   * piece of content (a page of body text would otherwise be hundreds of
   * operator objects).
   */
  textOperators(lines: Iterable<PlacedText>, fontName: (face: FaceName, style: TextStyle) => PDFName): PDFOperator[] {
    let content = 'q\nBT\n';
    let face: FontKey | undefined;
    let size: number | undefined;
    let color: Color | undefined = BLACK;
    for (const line of lines) {
      const radians = ((line.rotateDegrees ?? 0) * Math.PI) / 180;
      const [cos, sin] = [Math.cos(radians), Math.sin(radians)];
      const matrix = `${num(cos)} ${num(sin)} ${num(-sin)} ${num(cos)}`;
      const lineColor = line.color ?? BLACK;
      if (lineColor !== color) {
        content += `${fillColor(lineColor)}\n`;
        color = lineColor;
      }
      let advance = 0;
      const runs = splitRuns(line.text, line.style);
      runs.forEach((run, index) => {
        const key = fontKey(run.face, line.style);
        if (key !== face || line.size !== size) {
          content += `${fontName(run.face, line.style).asString()} ${num(line.size)} Tf\n`;
          face = key;
          size = line.size;
        }
        const laid = this.font(run.face, line.style).layout(run.text);
        // Where a point `along` the baseline and `up` from it is, on this line's (possibly rotated) baseline.
        const at = (along: number, up: number) => `${matrix} ${num(line.x + along * cos - up * sin)} ${num(line.y + along * sin + up * cos)} Tm\n`;
        if (laid.plain && laid.actualText === null) {
          content += `${at(advance, 0)}<${laid.glyphs.map((g) => g.code).join('')}> Tj\n`;
        } else {
          content += at(advance, 0) + shapedOperators(laid, line.size / 1000, at, advance, index + 1 < runs.length);
        }
        advance += (laid.width * line.size) / 1000;
      });
    }
    content += 'ET\nQ';
    return [PDFOperator.of(content as PDFOperatorNames)];
  }

  /** Draws one line; returns its width. */
  draw(page: PDFPage, text: string, options: DrawOptions): number {
    this.drawLines(page, [{ ...options, text }]);
    return this.width(text, options.style, options.size);
  }

  drawCentred(page: PDFPage, text: string, options: Omit<DrawOptions, 'rotateDegrees' | 'x'> & { centreX: number }): number {
    const width = this.width(text, options.style, options.size);
    this.draw(page, text, { ...options, x: options.centreX - width / 2 });
    return width;
  }
}
