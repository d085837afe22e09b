// The mark on a Persona's pages: a row of tiny pale-yellow squares along the
// visible top edge of every page (the dedication page's too), a frame of
// mark-code.ts written Manchester-fashion (a bit is a pair of cells, exactly
// one of them inked: 1 = the first, 0 = the second) between two end dots.
//
// Why this and not text: the mark has to survive the removal of the footer
// and the metadata, re-saving by another program (qpdf keeps the content,
// pdftocairo redraws every page) and the loss of any pages. Vector squares
// of one colour are redrawn as they were by every PDF program; every page
// carries the whole frame, so one page is enough; and reading it needs only
// the page as rendered (read-mark.ts), whatever program wrote the file, since
// the row is found by its end dots, not by a fixed place. What it does not
// survive is a copy drawn again as pixels small or lossy enough to lose a
// 0.8 pt square (a photo of a screen, a low-resolution scan, JPEG), or someone
// who knows to look for it and removes it (README, "The leak mark").
import { A5 } from '../persona-print/a5-page';
import { FRAME_BITS, frameBits } from './mark-code';

/** Geometry at A5 (scaled with the page like the footer): points. */
export const MARK_ROW = { dot: 0.8, pitch: 2.4, fromTop: 10 } as const;
/** Cells in a row: an end dot, two per bit, an end dot. */
export const MARK_CELLS = 2 * FRAME_BITS + 2;
/** Pale yellow: invisible on a white page at any reading size, and unlike any ink a book prints in its margin. */
export const MARK_INK = [1, 1, 0.8] as const;

/** The inked cells of a mark's row, in order. */
export function markCells(mark: number): number[] {
  const cells = [0];
  frameBits(mark).forEach((bit, i) => cells.push(1 + 2 * i + (bit ? 0 : 1)));
  cells.push(MARK_CELLS - 1);
  return cells;
}

const num = (n: number) => String(Math.round(n * 1000) / 1000);

/**
 * The content stream that draws a mark on a page with this crop box and
 * /Rotate: the row centred along the edge shown at the top, in unrotated page
 * space; it leaves the graphics state as it found it.
 */
export function markContent(box: { x: number; y: number; width: number; height: number }, rotation: number, mark: number): string {
  rotation = ((rotation % 360) + 360) % 360;
  const sideways = rotation === 90 || rotation === 270;
  const [shownWidth, shownHeight] = sideways ? [box.height, box.width] : [box.width, box.height];
  const scale = Math.max(0.8, Math.min(1.6, Math.min(shownWidth / A5.width, shownHeight / A5.height)));
  const pitch = MARK_ROW.pitch * scale;
  const dot = MARK_ROW.dot * scale;
  const start = (shownWidth - (MARK_CELLS - 1) * pitch) / 2;
  const shownY = shownHeight - MARK_ROW.fromTop * scale;
  // A point as shown (origin at the shown bottom left) → unrotated page space.
  const place = (sx: number, sy: number): [number, number] => {
    const [u, v] =
      rotation === 90 ? [box.width - sy, sx] : rotation === 180 ? [box.width - sx, box.height - sy] : rotation === 270 ? [sy, box.height - sx] : [sx, sy];
    return [box.x + u, box.y + v];
  };
  let content = `q\n${MARK_INK.map(num).join(' ')} rg\n`;
  for (const cell of markCells(mark)) {
    const [x, y] = place(start + cell * pitch, shownY);
    content += `${num(x - dot / 2)} ${num(y - dot / 2)} ${num(dot)} ${num(dot)} re\n`;
  }
  return `${content}f\nQ\n`;
}

/**
 * The frame a row of dots carries, from the centres of its dots along the row
 * (in any unit, in order), or null when they are not a mark's row: the end
 * dots fix the pitch, every dot must sit on a cell, and every bit's pair must
 * have exactly one.
 */
export function frameOfRow(centres: readonly number[]): number[] | null {
  if (centres.length !== FRAME_BITS + 2) return null;
  const first = centres[0]!;
  const pitch = (centres[centres.length - 1]! - first) / (MARK_CELLS - 1);
  if (!(pitch > 0)) return null;
  const inked = new Set<number>();
  for (const x of centres) {
    const at = (x - first) / pitch;
    const cell = Math.round(at);
    if (Math.abs(at - cell) > 0.3 || inked.has(cell)) return null;
    inked.add(cell);
  }
  const bits: number[] = [];
  for (let i = 0; i < FRAME_BITS; i += 1) {
    const [one, zero] = [inked.has(1 + 2 * i), inked.has(2 + 2 * i)];
    if (one === zero) return null;
    bits.push(one ? 1 : 0);
  }
  return bits;
}
