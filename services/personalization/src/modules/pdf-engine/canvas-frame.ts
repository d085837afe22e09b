// The A5 frame drawn straight onto a canvas (the dedication page's live preview): the same layout
// (A5Frame, drawDedicationPage), the same runs, fonts and harfbuzz shaping as the PDF, each glyph
// filled from its outline, without writing and reading back a PDF in between. A line's glyphs are
// gathered into one path, filled once, and kept: most lines of the page (the date, the author, the
// signature block, the persona id's placeholder, the link) are the same in every preview of a book,
// and a name is drawn again and again as it is typed. Filling each glyph on its own, five canvas
// calls a glyph, took about half the drawing's 15 ms.
import type { Image as CanvasImage, Path2D as CanvasPath, SKRSContext2D } from '@napi-rs/canvas';
import { LRUCache } from 'lru-cache';
import { unitsPerEm, type FaceName } from '../fonts/faces';
import { slantOf, type TextStyle } from '../fonts/fallback';
import { glyphOutline, runGlyphs } from '../fonts/shaping';
import { splitRuns } from '../fonts/text-runs';
import { A5 } from '../persona-print/a5-page';
import { qrMatrix } from '../persona-print/qr-rectangles';
import { A5Frame, INKS } from './persona-pages';

const css = ([r, g, b]: readonly [number, number, number]) => `rgb(${Math.round(r * 255)}, ${Math.round(g * 255)}, ${Math.round(b * 255)})`;

/** Makes a canvas path: from SVG path data, or empty. */
export type PathMaker = (d?: string) => CanvasPath;

// Per thread, shared by every preview it draws: widths in ems, glyph outlines, whole lines (in pixels at a scale).
const widths = new LRUCache<string, number>({ max: 4000 });
const outlines = new LRUCache<string, CanvasPath>({ max: 4000 });
const lines = new LRUCache<string, CanvasPath>({ max: 1000 });

export class CanvasFrame extends A5Frame {
  /** `scale`: canvas pixels per A5 point. */
  constructor(
    private readonly context: SKRSContext2D,
    private readonly scale: number,
    private readonly makePath: PathMaker,
    /** The author's own signature, when the book has one. */
    private readonly signature: CanvasImage | null = null,
  ) {
    super();
  }

  private x(x: number) {
    return x * this.scale;
  }

  private y(y: number) {
    return (A5.height - y) * this.scale;
  }

  /** Width in points, as the PDF's fonts measure it (the runs' advances). */
  width(text: string, style: TextStyle, size: number): number {
    const key = `${style}:${text}`;
    let em = widths.get(key);
    if (em === undefined) {
      em = 0;
      for (const run of splitRuns(text, style)) em += runGlyphs(run.face, run.text).reduce((sum, g) => sum + g.advance, 0) / unitsPerEm(run.face);
      widths.set(key, em);
    }
    return em * size;
  }

  private outline(face: FaceName, glyph: number): CanvasPath {
    const key = `${face}:${glyph}`;
    let path = outlines.get(key);
    if (!path) {
      path = this.makePath(glyphOutline(face, glyph));
      outlines.set(key, path);
    }
    return path;
  }

  /** A line's glyphs as one path, in canvas pixels from the start of its baseline (y down). */
  private linePath(line: string, size: number, style: TextStyle): CanvasPath {
    const key = `${this.scale}:${style}:${size}:${line}`;
    let path = lines.get(key);
    if (path) return path;
    path = this.makePath();
    const scale = this.scale;
    let pen = 0;
    for (const run of splitRuns(line, style)) {
      const em = size / unitsPerEm(run.face);
      // The PDF's shear (slantOf), in canvas space: y down.
      const k = slantOf(style, run.face);
      for (const g of runGlyphs(run.face, run.text)) {
        path.addPath(this.outline(run.face, g.glyph), {
          a: em * scale,
          b: 0,
          c: k * em * scale,
          d: -em * scale,
          e: (pen + (g.dx + k * g.dy) * em) * scale,
          f: -g.dy * em * scale,
        });
        pen += g.advance * em;
      }
    }
    lines.set(key, path);
    return path;
  }

  /** A line of text, its baseline from (x, y); also the footer's. */
  protected text(line: string, x: number, y: number, size: number, style: TextStyle, grey: boolean): void {
    const { context } = this;
    context.fillStyle = css(grey ? INKS.grey : INKS.ink);
    context.save();
    context.translate(this.x(x), this.y(y));
    context.fill(this.linePath(line, size, style));
    context.restore();
  }

  /** One line where a placement puts it (the footer), upright. */
  line(text: string, x: number, y: number, size: number, style: TextStyle, grey: boolean): void {
    this.text(text, x, y, size, style, grey);
  }

  rule(x1: number, x2: number, y: number, thickness = 0.5): void {
    const { context } = this;
    context.strokeStyle = css(INKS.rule);
    context.lineWidth = thickness * this.scale;
    context.beginPath();
    context.moveTo(this.x(x1), this.y(y));
    context.lineTo(this.x(x2), this.y(y));
    context.stroke();
  }

  authorSignature(x: number, y: number, width: number, height: number): void {
    if (this.signature) this.context.drawImage(this.signature, this.x(x), this.y(y + height), width * this.scale, height * this.scale);
  }

  /** The QR code of `url`, `side` points wide with its top-left corner at (x, top). */
  qr(url: string, x: number, top: number, side: number): void {
    const { size, rects } = qrMatrix(url);
    const module = side / size;
    const { context } = this;
    context.fillStyle = '#000000';
    // One path, one fill: neighbouring modules share their edges, with no seam of anti-aliasing between them.
    context.beginPath();
    for (const rect of rects)
      context.rect(this.x(x + rect.col * module), this.y(top - rect.row * module), rect.length * module * this.scale, module * this.scale);
    context.fill();
  }
}
