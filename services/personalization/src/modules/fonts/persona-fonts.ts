// The faces of one document as its pages draw text: each run measured and drawn with the face of
// its style's fallback chain, in one text object per call, and every face's subset written at the end.
import {
  ColorTypes,
  PDFName,
  PDFOperator,
  rgb,
  type Color,
  type PDFContext,
  type PDFDocument,
  type PDFOperatorNames,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';
import { loadFace, type FaceName } from './faces';
import { fontKey, slantOf, type FontKey, type TextStyle } from './fallback';
import { loadShaper, RIGHT_TO_LEFT } from './shaping';
import { SubsetFont, utf16Hex, type LaidRun } from './subset-font';
import { splitRuns } from './text-runs';

const BLACK = rgb(0, 0, 0);

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
