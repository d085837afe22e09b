// The pages a Persona adds to a book: title page, dedication/ex-libris page with
// the author's signature block, persona id and QR code; and the footer.
import { fill, popGraphicsState, pushGraphicsState, rectangle, rgb, setFillingRgbColor, type PDFPage } from 'pdf-lib';
import type { PersonaFonts, PlacedText, TextStyle } from './persona-fonts';
import { qrMatrix } from './qr-rectangles';
import { breakLines } from './typeset-text';

/** Layout unit: an A5 page (420 × 595 pt). */
export const A5 = { width: 420, height: 595 } as const;

/** The page's three inks, as RGB fractions (the PDF's colours; the preview's canvas takes the same). */
export const INKS = { ink: [0.1, 0.1, 0.12], grey: [0.38, 0.38, 0.42], rule: [0.6, 0.6, 0.64] } as const;
const INK = rgb(...INKS.ink);
const GREY = rgb(...INKS.grey);
const RULE = rgb(...INKS.rule);

/** What measures text: the document's fonts, or the preview's. */
export interface TextMeasure {
  width(text: string, style: TextStyle, size: number): number;
}

/** The drawing a Persona's own pages need, in A5 points from the bottom-left: the PDF's Frame, or the preview's canvas. */
export interface PageFrame extends TextMeasure {
  centred(text: string, y: number, style: TextStyle, size: number, options?: { leading?: number; maxWidth?: number; grey?: boolean }): number;
  rule(x1: number, x2: number, y: number, thickness?: number): void;
  path(d: string, x: number, y: number, pathScale: number, width: number): void;
  qr(url: string, x: number, top: number, side: number): void;
}

/**
 * What both frames share: text centred on the A5 page and wrapped, measured and drawn by each
 * frame's own means (coordinates are A5 points from the bottom-left).
 */
export abstract class A5Frame implements PageFrame {
  abstract width(text: string, style: TextStyle, size: number): number;
  /** One line, its baseline starting at (x, y). */
  protected abstract text(line: string, x: number, y: number, size: number, style: TextStyle, grey: boolean): void;
  abstract rule(x1: number, x2: number, y: number, thickness?: number): void;
  abstract path(d: string, x: number, y: number, pathScale: number, width: number): void;
  abstract qr(url: string, x: number, top: number, side: number): void;

  /** Centred text, wrapped to maxWidth; returns the baseline under the last line. */
  centred(text: string, y: number, style: TextStyle, size: number, options: { leading?: number; maxWidth?: number; grey?: boolean } = {}): number {
    const leading = options.leading ?? size * 1.3;
    for (const line of breakLines(text, options.maxWidth ?? 320, (t) => this.width(t, style, size))) {
      this.text(line, A5.width / 2 - this.width(line, style, size) / 2, y, size, style, options.grey ?? false);
      y -= leading;
    }
    return y;
  }
}

/**
 * An A5 layout frame centred on a page of any size and scaled to fit it, so the
 * inserted pages of an uploaded PDF match its page size. Coordinates are A5
 * points measured from the frame's bottom-left.
 */
export class Frame extends A5Frame {
  readonly scale: number;
  private readonly originX: number;
  private readonly originY: number;

  constructor(
    readonly page: PDFPage,
    private readonly fonts: PersonaFonts,
  ) {
    super();
    const { width, height } = page.getSize();
    this.scale = Math.min(width / A5.width, height / A5.height);
    this.originX = (width - A5.width * this.scale) / 2;
    this.originY = (height - A5.height * this.scale) / 2;
  }

  private px(x: number) {
    return this.originX + x * this.scale;
  }

  private py(y: number) {
    return this.originY + y * this.scale;
  }

  width(text: string, style: TextStyle, size: number): number {
    return this.fonts.width(text, style, size);
  }

  protected text(line: string, x: number, y: number, size: number, style: TextStyle, grey: boolean): void {
    this.fonts.draw(this.page, line, { x: this.px(x), y: this.py(y), size: size * this.scale, style, color: grey ? GREY : INK });
  }

  rule(x1: number, x2: number, y: number, thickness = 0.5) {
    this.page.drawLine({ start: { x: this.px(x1), y: this.py(y) }, end: { x: this.px(x2), y: this.py(y) }, thickness: thickness * this.scale, color: RULE });
  }

  /** An SVG path (y down) whose origin sits at (x, y). */
  path(d: string, x: number, y: number, pathScale: number, width: number) {
    this.page.drawSvgPath(d, { x: this.px(x), y: this.py(y), scale: pathScale * this.scale, borderColor: INK, borderWidth: width / pathScale });
  }

  /** The QR code of `url`, `side` points wide with its top-left corner at (x, top). */
  qr(url: string, x: number, top: number, side: number) {
    const { size, rects } = qrMatrix(url);
    const module = side / size;
    // One path of rectangles and a single fill: a few hundred `re` operators, not a drawing call per run.
    this.page.pushOperators(
      pushGraphicsState(),
      setFillingRgbColor(0, 0, 0),
      ...rects.map((rect) =>
        rectangle(this.px(x + rect.col * module), this.py(top - (rect.row + 1) * module), rect.length * module * this.scale, module * this.scale),
      ),
      fill(),
      popGraphicsState(),
    );
  }
}

export interface TitlePageText {
  title: string;
  author: string;
}

export function drawTitlePage(frame: PageFrame, { title, author }: TitlePageText) {
  const y = frame.centred(title, 400, 'serifBold', 22, { leading: 28 });
  frame.rule(170, 250, y + 8);
  frame.centred(author, y - 20, 'serifItalic', 14);
  frame.centred('A Persona edition', 120, 'sans', 9, { grey: true });
}

export interface DedicationText {
  /** The name printed: a gift's recipient, else the buyer. */
  name: string;
  /** A gift's message, line by line (none: an empty list). */
  message: readonly string[];
  formattedDate: string;
  author: string;
  signature: string;
  keyId: string;
  personaId: string;
  verifyUrl: string;
}

/** The signature split into lines of equal length, so a 88-character base64 value prints as two tidy rows. */
function splitEvenly(value: string, maxChars: number): string[] {
  const count = Math.max(1, Math.ceil(value.length / maxChars));
  const per = Math.ceil(value.length / count);
  const lines: string[] = [];
  for (let i = 0; i < value.length; i += per) lines.push(value.slice(i, i + per));
  return lines;
}

// A pen stroke under the author's name: one continuous bezier, like a paraph.
const FLOURISH = 'M 0 14 C 18 -6 34 26 52 10 S 84 -4 102 12 S 140 26 168 4 C 176 -2 184 2 186 8';

export function drawDedicationPage(frame: PageFrame, text: DedicationText) {
  frame.centred('Ex libris', 540, 'serifItalic', 11, { grey: true });
  let y = frame.centred(`Personalised for ${text.name}`, 500, 'serif', 16, { leading: 21 });
  y = frame.centred(`on ${text.formattedDate}`, y - 2, 'serifItalic', 12);

  // A gift's message, in the giver's words and lines.
  if (text.message.length) {
    y -= 12;
    for (const line of text.message) y = frame.centred(line, y, 'serifItalic', 10.5, { leading: 14, maxWidth: 300 });
    y -= 2;
  }

  // The author's signature block.
  const nameTop = Math.min(y - 26, 430);
  y = frame.centred(text.author, nameTop, 'serifItalic', 20, { leading: 24 });
  frame.path(FLOURISH, 117, y + 12, 1, 0.9);
  // Below the flourish's lowest point (26 pt under where it starts), clear of it.
  y -= 22;
  y = frame.centred('Digitally signed', y, 'sans', 8, { grey: true });
  const monoSize = 6.2;
  const charWidth = frame.width('M', 'mono', monoSize);
  for (const line of splitEvenly(text.signature, Math.floor(300 / charWidth))) {
    y = frame.centred(line, y - 1, 'mono', monoSize, { leading: 8, maxWidth: 330 });
  }
  y = frame.centred(`Ed25519 · key ${text.keyId}`, y - 1, 'mono', monoSize, { leading: 8, maxWidth: 330, grey: true });

  // The persona id and the QR code that verifies it.
  frame.rule(60, 360, y - 4);
  y = frame.centred('Persona id', y - 22, 'sans', 8, { grey: true });
  y = frame.centred(text.personaId, y - 6, 'mono', 16, { leading: 20 });
  const side = Math.max(70, Math.min(104, y - 90));
  frame.qr(text.verifyUrl, A5.width / 2 - side / 2, y - 4, side);
  y -= side + 16;
  const urlCharWidth = frame.width('M', 'mono', 6);
  for (const line of splitEvenly(text.verifyUrl, Math.floor(320 / urlCharWidth))) {
    y = frame.centred(line, y, 'mono', 6, { leading: 7.5, maxWidth: 340 });
  }
  frame.centred('Scan to verify this copy', y - 2, 'sans', 7, { grey: true });
}

export function footerText(name: string, personaId: string): string {
  return `Personal copy of ${name} · ${personaId}`;
}

const FOOTER = { size: 6.5, minSize: 4, fromBottom: 22, sideMargin: 30 };

/**
 * The footer, centred along the visible bottom edge of a page with this crop
 * box and /Rotate, shrunk to fit a long name; in unrotated page space.
 */
export function footerPlacement(box: { x: number; y: number; width: number; height: number }, rotation: number, fonts: TextMeasure, text: string): PlacedText {
  rotation = ((rotation % 360) + 360) % 360;
  const sideways = rotation === 90 || rotation === 270;
  const visibleWidth = sideways ? box.height : box.width;
  const visibleHeight = sideways ? box.width : box.height;
  const scale = Math.max(0.8, Math.min(1.6, Math.min(visibleWidth / A5.width, visibleHeight / A5.height)));
  const available = visibleWidth - 2 * FOOTER.sideMargin * scale;
  let size = FOOTER.size * scale;
  const widthAt = (s: number) => fonts.width(text, 'sans', s);
  if (widthAt(size) > available) size = Math.max(FOOTER.minSize, (size * available) / widthAt(size));
  const width = widthAt(size);
  const inset = FOOTER.fromBottom * scale;
  // Start of the baseline in unrotated page space, for each way the page is shown.
  const start = {
    0: { x: box.x + (box.width - width) / 2, y: box.y + inset },
    90: { x: box.x + box.width - inset, y: box.y + (box.height - width) / 2 },
    180: { x: box.x + (box.width + width) / 2, y: box.y + box.height - inset },
    270: { x: box.x + inset, y: box.y + (box.height + width) / 2 },
  }[rotation as 0 | 90 | 180 | 270] ?? { x: box.x + (box.width - width) / 2, y: box.y + inset };
  return { text, ...start, size, style: 'sans', color: GREY, rotateDegrees: rotation };
}

export function drawPageNumber(page: PDFPage, fonts: PersonaFonts, pageNumber: number) {
  const { width } = page.getSize();
  fonts.drawCentred(page, String(pageNumber), { centreX: width / 2, y: 44, size: 9, style: 'serif', color: GREY });
}
