// Embedding: one face's subset in one document, its runs laid out as CIDs (with the text each
// stands for), written as a Type 0 font with Identity-H encoding and a ToUnicode map (truetype.ts
// subsets the file), so text extracts as typed.
import { createHash } from 'node:crypto';
import { PDFHexString, PDFString, type PDFContext, type PDFRef } from 'pdf-lib';
import { deflate } from '../deflate/deflate';
import type { FaceName } from './faces';
import { needsShaping, NON_SPACING_MARK, RIGHT_TO_LEFT, shapeRun } from './shaping';
import type { TrueTypeFont } from './truetype';

/** A run laid out: its glyphs (subset CIDs) and where each goes, in thousandths of an em. */
export interface LaidRun {
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

/** UTF-16BE in hex: what a ToUnicode map's destination holds. */
export function utf16Hex(text: string): string {
  let hex = '';
  for (let i = 0; i < text.length; i += 1) hex += hex4(text.charCodeAt(i));
  return hex;
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
