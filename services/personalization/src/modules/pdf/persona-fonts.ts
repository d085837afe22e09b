// Font files, the per-script fallback chain, and measuring/drawing text in runs
// so that every character is drawn with a face that has its glyph.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fontkit, { type Font, type Glyph } from '@pdf-lib/fontkit';
import {
  beginText,
  endText,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setFillingColor,
  setFontAndSize,
  setTextMatrix,
  showText,
  type Color,
  type PDFDocument,
  type PDFFont,
  type PDFName,
  type PDFOperator,
  type PDFPage,
} from 'pdf-lib';

const FACE_FILES = {
  serif: ['dejavu-fonts-ttf', 'ttf/DejaVuSerifCondensed.ttf'],
  serifBold: ['dejavu-fonts-ttf', 'ttf/DejaVuSerifCondensed-Bold.ttf'],
  serifItalic: ['dejavu-fonts-ttf', 'ttf/DejaVuSerifCondensed-Italic.ttf'],
  sans: ['dejavu-fonts-ttf', 'ttf/DejaVuSansCondensed.ttf'],
  mono: ['dejavu-fonts-ttf', 'ttf/DejaVuSansMono.ttf'],
  devanagari: ['@expo-google-fonts/noto-sans-devanagari', '400Regular/NotoSansDevanagari_400Regular.ttf'],
  devanagariBold: ['@expo-google-fonts/noto-sans-devanagari', '700Bold/NotoSansDevanagari_700Bold.ttf'],
} as const satisfies Record<string, readonly [string, string]>;

export type FaceName = keyof typeof FACE_FILES;
export type TextStyle = 'serif' | 'serifBold' | 'serifItalic' | 'sans' | 'mono';

/** First face that has a character's glyph wins; the first face draws anything nobody has. */
const FALLBACK_CHAINS: Record<TextStyle, readonly FaceName[]> = {
  serif: ['serif', 'sans', 'devanagari'],
  serifBold: ['serifBold', 'sans', 'devanagariBold'],
  serifItalic: ['serifItalic', 'serif', 'sans', 'devanagari'],
  sans: ['sans', 'devanagari'],
  mono: ['mono', 'sans', 'devanagari'],
};

const faceBytes = new Map<FaceName, Uint8Array>();
const coverage = new Map<FaceName, Font>();

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

function hasGlyph(face: FaceName, codePoint: number): boolean {
  let font = coverage.get(face);
  if (!font) {
    font = fontkit.create(loadFaceBytes(face));
    coverage.set(face, font);
  }
  return font.hasGlyphForCodePoint(codePoint);
}

const chainCache = new Map<string, FaceName>();

/** The face of a style's fallback chain that draws this code point. */
export function fontFor(codePoint: number, style: TextStyle = 'serif'): FaceName {
  const cacheKey = `${style}:${codePoint}`;
  let face = chainCache.get(cacheKey);
  if (!face) {
    const chain = FALLBACK_CHAINS[style];
    face = chain.find((candidate) => hasGlyph(candidate, codePoint)) ?? chain[0];
    chainCache.set(cacheKey, face);
  }
  return face;
}

export interface TextRun {
  face: FaceName;
  text: string;
}

const BLACK = rgb(0, 0, 0);
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
  return runs;
}

/**
 * Handed to pdf-lib's registerFontkit: fontkit, with `layout` reduced to a cached
 * cmap lookup (one glyph per code point, in logical order). pdf-lib only reads
 * the glyph ids and advance widths of a layout and drops GPOS positioning, so
 * full OpenType layout bought nothing but cost most of the build time; and for
 * Indic scripts fontkit's shapers need a global regeneratorRuntime that
 * @pdf-lib/fontkit does not ship and would crash. The price: no ligatures, no
 * Indic conjuncts or matra reordering: Devanagari prints with visible viramas.
 */
export const personaFontkit = {
  create(buffer: Uint8Array, postscriptName?: string): Font {
    const font = fontkit.create(buffer, postscriptName);
    const glyphs = new Map<number, Glyph>();
    const glyphFor = (codePoint: number): Glyph => {
      let glyph = glyphs.get(codePoint);
      if (!glyph) {
        glyph = font.glyphForCodePoint(codePoint);
        glyphs.set(codePoint, glyph);
      }
      return glyph;
    };
    font.layout = ((text: string) => {
      const run: Glyph[] = [];
      for (const char of text) run.push(glyphFor(char.codePointAt(0) as number));
      return { glyphs: run };
    }) as unknown as Font['layout'];
    return font;
  },
};

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
 * The faces embedded (subset) in one document. Faces are embedded up front for
 * exactly the texts the document will draw, so no unused font is written and
 * drawing stays synchronous.
 */
export class PersonaFonts {
  private readonly widthCache = new Map<FaceName, Map<string, number>>();
  private readonly resourceNames = new WeakMap<PDFPage, Map<FaceName, PDFName>>();

  private constructor(private readonly fonts: Map<FaceName, PDFFont>) {}

  static async embed(doc: PDFDocument, texts: Iterable<readonly [TextStyle, string]>): Promise<PersonaFonts> {
    doc.registerFontkit(personaFontkit);
    const needed = new Set<FaceName>();
    for (const [style, text] of texts) {
      for (const run of splitRuns(text, style)) needed.add(run.face);
    }
    const fonts = new Map<FaceName, PDFFont>();
    // Fixed order, so the seeded font-name suffixes pdf-lib picks are the same every time.
    for (const face of Object.keys(FACE_FILES) as FaceName[]) {
      if (needed.has(face)) fonts.set(face, await doc.embedFont(loadFaceBytes(face), { subset: true }));
    }
    return new PersonaFonts(fonts);
  }

  private font(face: FaceName): PDFFont {
    const font = this.fonts.get(face);
    if (!font) throw new Error(`font ${face} was not embedded for this text`);
    return font;
  }

  private runWidth(face: FaceName, text: string): number {
    let cache = this.widthCache.get(face);
    if (!cache) {
      cache = new Map();
      this.widthCache.set(face, cache);
    }
    let width = cache.get(text);
    if (width === undefined) {
      width = this.font(face).widthOfTextAtSize(text, 1);
      cache.set(text, width);
    }
    return width;
  }

  width(text: string, style: TextStyle, size: number): number {
    let width = 0;
    for (const run of splitRuns(text, style)) width += this.runWidth(run.face, run.text);
    return width * size;
  }

  private resourceName(page: PDFPage, face: FaceName): PDFName {
    let names = this.resourceNames.get(page);
    if (!names) {
      names = new Map();
      this.resourceNames.set(page, names);
    }
    let name = names.get(face);
    if (!name) {
      const font = this.font(face);
      name = page.node.newFontDictionary(font.name, font.ref);
      names.set(face, name);
    }
    return name;
  }

  /**
   * Draws lines (no line breaking) in one text object, run by run. A page of
   * body text costs two operators a line instead of drawText's dozen, which is
   * what keeps a 300-page book fast and small in memory.
   */
  drawLines(page: PDFPage, lines: Iterable<PlacedText>) {
    const ops: PDFOperator[] = [pushGraphicsState(), beginText()];
    let face: FaceName | undefined;
    let size: number | undefined;
    let color: Color | undefined = BLACK;
    for (const line of lines) {
      const radians = ((line.rotateDegrees ?? 0) * Math.PI) / 180;
      const [cos, sin] = [Math.cos(radians), Math.sin(radians)];
      const lineColor = line.color ?? BLACK;
      if (lineColor !== color) {
        ops.push(setFillingColor(lineColor));
        color = lineColor;
      }
      let advance = 0;
      for (const run of splitRuns(line.text, line.style)) {
        if (run.face !== face || line.size !== size) {
          ops.push(setFontAndSize(this.resourceName(page, run.face), line.size));
          face = run.face;
          size = line.size;
        }
        ops.push(
          setTextMatrix(cos, sin, -sin, cos, line.x + advance * cos, line.y + advance * sin),
          showText(this.font(run.face).encodeText(run.text)),
        );
        advance += this.runWidth(run.face, run.text) * line.size;
      }
    }
    ops.push(endText(), popGraphicsState());
    page.pushOperators(...ops);
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
