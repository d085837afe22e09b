// Turns a QR code's module matrix into the few rectangles that draw it.
import QRCode from 'qrcode';

export interface ModuleRect {
  /** Column of the first module, counted from the left. */
  col: number;
  /** Row, counted from the top. */
  row: number;
  /** Number of dark modules in this horizontal run. */
  length: number;
}

export interface QrMatrix {
  size: number;
  rects: ModuleRect[];
}

/** One rectangle per horizontal run of dark modules: a handful of path operators per row, not one per module. */
export function matrixToRects(size: number, isDark: (row: number, col: number) => boolean): ModuleRect[] {
  const rects: ModuleRect[] = [];
  for (let row = 0; row < size; row += 1) {
    let col = 0;
    while (col < size) {
      if (!isDark(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < size && isDark(row, col)) col += 1;
      rects.push({ col: start, row, length: col - start });
    }
  }
  return rects;
}

/**
 * The last codes made, by URL: a Persona's PDF and EPUB print the same one, and every preview the
 * same placeholder (making one, its eight masks tried, is about a millisecond). Read-only once made.
 */
const recent = new Map<string, QrMatrix>();
const RECENT_MAX = 32;

/** The QR code (error correction M, as DESIGN §5 prints it) for a URL, as rectangles. */
export function qrMatrix(url: string): QrMatrix {
  const known = recent.get(url);
  if (known) return known;
  const { modules } = QRCode.create(url, { errorCorrectionLevel: 'M' });
  const made: QrMatrix = Object.freeze({
    size: modules.size,
    rects: Object.freeze(matrixToRects(modules.size, (row, col) => Boolean(modules.get(row, col)))) as ModuleRect[],
  });
  if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value!);
  recent.set(url, made);
  return made;
}
