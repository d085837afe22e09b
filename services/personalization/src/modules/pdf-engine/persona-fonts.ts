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
 * One face's subset in one document. Text is mapped one glyph per code point,
 * in logical order (the cmap, no OpenType layout): pdf-lib did the same, since
 * it drops GPOS positioning anyway and fontkit's Indic shapers crash under
 * it. The price: no ligatures, no Indic conjuncts or matra reordering:
 * Devanagari prints with visible viramas.
 */
export class SubsetFont {
  /** Old glyph ids in subset order: the subset id (the CID) of a glyph is its index. */
  private readonly glyphs: number[] = [0];
  private readonly subsetIds = new Map<number, number>([[0, 0]]);
  /** Subset id → the code point it stands for in ToUnicode (the first one drawn with it). */
  private readonly unicode = new Map<number, number>();
  /** Code point → its 4-hex-digit code in this subset. */
  private readonly codes = new Map<number, string>();
  private readonly scale: number;

  constructor(
    readonly face: FaceName,
    private readonly font: TrueTypeFont,
    readonly ref: PDFRef,
  ) {
    this.scale = 1000 / font.metrics.unitsPerEm;
  }

  /** Whether any text was drawn with it. */
  get used(): boolean {
    return this.glyphs.length > 1;
  }

  /** Text width at `size` points, as pdf-lib measured it. */
  widthOfTextAtSize(text: string, size: number): number {
    let total = 0;
    for (const char of text) total += this.font.advanceWidth(this.font.glyphId(char.codePointAt(0) as number)) * this.scale;
    return total * (size / 1000);
  }

  encodeText(text: string): PDFHexString {
    let hex = '';
    for (const char of text) {
      const codePoint = char.codePointAt(0) as number;
      let code = this.codes.get(codePoint);
      if (code === undefined) {
        const glyph = this.font.glyphId(codePoint);
        let id = this.subsetIds.get(glyph);
        if (id === undefined) {
          id = this.glyphs.length;
          this.glyphs.push(glyph);
          this.subsetIds.set(glyph, id);
        }
        if (id !== 0 && !this.unicode.has(id)) this.unicode.set(id, codePoint);
        code = hex4(id);
        this.codes.set(codePoint, code);
      }
      hex += code;
    }
    return PDFHexString.of(hex);
  }

  /** Writes the font's objects (Type 0 font at `ref`, CID font, descriptor, font file, ToUnicode). */
  embed(context: PDFContext): void {
    const { metrics } = this.font;
    const scale = this.scale;
    // A subset's name: six capitals derived from what it holds, '+', the PostScript name (ISO 32000-1 §9.6.4).
    const digest = createHash('sha256')
      .update(`${metrics.postscriptName}:${this.glyphs.join(',')}`)
      .digest();
    const tag = Array.from(digest.subarray(0, 6), (byte) => String.fromCharCode(65 + (byte % 26))).join('');
    const baseFont = `${tag}+${metrics.postscriptName}`;
    const fontFile = context.register(context.stream(deflate(this.font.subset(this.glyphs)), { Filter: 'FlateDecode' }));
    const descriptor = context.register(
      context.obj({
        Type: 'FontDescriptor',
        FontName: baseFont,
        Flags: metrics.flags,
        FontBBox: [metrics.bbox.minX * scale, metrics.bbox.minY * scale, metrics.bbox.maxX * scale, metrics.bbox.maxY * scale],
        ItalicAngle: metrics.italicAngle,
        Ascent: metrics.ascent * scale,
        Descent: metrics.descent * scale,
        CapHeight: (metrics.capHeight || metrics.ascent) * scale,
        XHeight: (metrics.xHeight || 0) * scale,
        StemV: 0,
        FontFile2: fontFile,
      }),
    );
    // Subset ids 1… are consecutive: one run of widths.
    const widths = this.glyphs.length > 1 ? [1, this.glyphs.slice(1).map((glyph) => this.font.advanceWidth(glyph) * scale)] : [];
    const cidFont = context.register(
      context.obj({
        Type: 'Font',
        Subtype: 'CIDFontType2',
        CIDToGIDMap: 'Identity',
        BaseFont: baseFont,
        CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
        FontDescriptor: descriptor,
        W: widths,
      }),
    );
    const toUnicode = context.register(context.stream(deflate(Buffer.from(unicodeCMap(this.unicode), 'latin1')), { Filter: 'FlateDecode' }));
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

function utf16Hex(codePoint: number): string {
  if (codePoint < 0x10000) return hex4(codePoint);
  const offset = codePoint - 0x10000;
  return hex4(0xd800 + (offset >> 10)) + hex4(0xdc00 + (offset & 0x3ff));
}

/** The ToUnicode CMap of a subset: each glyph's code point (the same program pdf-lib writes). */
function unicodeCMap(unicode: ReadonlyMap<number, number>): string {
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
    ...entries.map(([id, codePoint]) => `<${hex4(id)}> <${utf16Hex(codePoint)}>`),
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
 * The faces of one document. Which faces it needs is decided up front from
 * the texts it will draw, so drawing stays synchronous; each face's subset
 * holds the glyphs actually drawn, and is written by `finish`.
 */
export class PersonaFonts {
  private readonly widthCache = new Map<FaceName, Map<string, number>>();
  private readonly named = new WeakMap<PDFPage, Set<FaceName>>();

  private constructor(private readonly fonts: Map<FaceName, SubsetFont>) {}

  /** The faces `texts` need, each given its font dictionary's reference in `doc` (written by `finish`). */
  static async embed(doc: PDFDocument, texts: Iterable<readonly [TextStyle, string]>): Promise<PersonaFonts> {
    const needed = new Set<FaceName>();
    for (const [style, text] of texts) {
      for (const run of splitRuns(text, style)) needed.add(run.face);
    }
    const fonts = new Map<FaceName, SubsetFont>();
    for (const face of Object.keys(FACE_FILES) as FaceName[]) {
      if (needed.has(face)) fonts.set(face, new SubsetFont(face, loadFace(face), doc.context.nextRef()));
    }
    return new PersonaFonts(fonts);
  }

  /** Writes every face's subset into the document: after the last text is drawn, before it is saved. */
  finish(doc: PDFDocument): void {
    for (const font of this.fonts.values()) if (font.used) font.embed(doc.context);
  }

  private font(face: FaceName): SubsetFont {
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

  /** The name a page's resources give a face: the face's own (no page of this document holds another font). */
  private resourceName(page: PDFPage, face: FaceName): PDFName {
    const name = PDFName.of(face);
    let faces = this.named.get(page);
    if (!faces) {
      faces = new Set();
      this.named.set(page, faces);
    }
    if (!faces.has(face)) {
      page.node.setFontDictionary(name, this.font(face).ref);
      faces.add(face);
    }
    return name;
  }

  /** The faces embedded, with their fonts. */
  embedded(): Array<[FaceName, SubsetFont]> {
    return [...this.fonts];
  }

  /**
   * Draws lines (no line breaking) in one text object, run by run. A page of
   * body text costs two operators a line instead of drawText's dozen, which is
   * what keeps a 300-page book fast and small in memory.
   */
  drawLines(page: PDFPage, lines: Iterable<PlacedText>) {
    page.pushOperators(...this.textOperators(lines, (face) => this.resourceName(page, face)));
  }

  /**
   * The operators that draw `lines`, naming each face's font resource as
   * `fontName` says: one text object, written as one piece of content (a page
   * of body text would otherwise be hundreds of operator objects).
   */
  textOperators(lines: Iterable<PlacedText>, fontName: (face: FaceName) => PDFName): PDFOperator[] {
    let content = 'q\nBT\n';
    let face: FaceName | undefined;
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
      for (const run of splitRuns(line.text, line.style)) {
        if (run.face !== face || line.size !== size) {
          content += `${fontName(run.face).asString()} ${num(line.size)} Tf\n`;
          face = run.face;
          size = line.size;
        }
        content += `${matrix} ${num(line.x + advance * cos)} ${num(line.y + advance * sin)} Tm\n<${this.font(run.face).encodeText(run.text).asString()}> Tj\n`;
        advance += this.runWidth(run.face, run.text) * line.size;
      }
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
