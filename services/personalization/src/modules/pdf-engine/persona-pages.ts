// The pages a Persona adds to a book: title page; dedication/ex-libris page with the name, the
// date, a gift's message, the author's signature (their own, or the shop's word that it signs for
// them), persona id and QR code; the colophon at the end with what a machine checks (the signed
// record, its signature, a gift's salts); and the footer.
import { fill, popGraphicsState, pushGraphicsState, rectangle, rgb, setFillingRgbColor, type PDFPage, type PDFRef } from 'pdf-lib';
import { drawImage, fitWithin } from './images';
import type { TextStyle } from '../fonts/fallback';
import type { PersonaFonts, PlacedText } from '../fonts/persona-fonts';
import { A5 } from '../persona-print/a5-page';
import { copyNumberProof, SIGNED_FOR_THE_AUTHOR } from '../persona-print/printed-lines';
import { qrMatrix } from '../persona-print/qr-rectangles';
import { breakLines } from './typeset-text';

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
  qr(url: string, x: number, top: number, side: number): void;
  /** The author's own signature image, into this rectangle (A5 points from the bottom-left); only called when the page has one. */
  authorSignature(x: number, y: number, width: number, height: number): void;
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
  abstract qr(url: string, x: number, top: number, side: number): void;
  abstract authorSignature(x: number, y: number, width: number, height: number): void;

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

  /** `signature`: the author's own signature image, already written into the page's document. */
  constructor(
    readonly page: PDFPage,
    private readonly fonts: PersonaFonts,
    private readonly signature: PDFRef | null = null,
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

  authorSignature(x: number, y: number, width: number, height: number) {
    if (this.signature) drawImage(this.page, this.signature, this.px(x), this.py(y), width * this.scale, height * this.scale);
  }

  /** The QR code of `url`, `side` points wide with its top-left corner at (x, top). */
  qr(url: string, x: number, top: number, side: number) {
    drawQrCode(this.page, url, this.px(x), this.py(top), side * this.scale);
  }
}

/** The QR code of `url` on `page`, `side` points wide with its top-left corner at (x, top) in page points. */
export function drawQrCode(page: PDFPage, url: string, x: number, top: number, side: number) {
  const { size, rects } = qrMatrix(url);
  const module = side / size;
  // One path of rectangles and a single fill: a few hundred `re` operators, not a drawing call per run.
  page.pushOperators(
    pushGraphicsState(),
    setFillingRgbColor(0, 0, 0),
    ...rects.map((rect) => rectangle(x + rect.col * module, top - (rect.row + 1) * module, rect.length * module, module)),
    fill(),
    popGraphicsState(),
  );
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
  /** The proportions of the author's own signature image (the frame draws it), or null: the shop signs for the author. */
  authorSignature: { width: number; height: number } | null;
  personaId: string;
  verifyUrl: string;
  /** The line on its number among its book's Personas (copyNumberLine; a preview's holds a placeholder); null for none. */
  copyLine: string | null;
}

/** A value split into lines of equal length, so a 88-character base64 signature prints as two tidy rows. */
function splitEvenly(value: string, maxChars: number): string[] {
  const count = Math.max(1, Math.ceil(value.length / maxChars));
  const per = Math.ceil(value.length / count);
  const lines: string[] = [];
  for (let i = 0; i < value.length; i += per) lines.push(value.slice(i, i + per));
  return lines;
}

/** The sizes a gift's message may be set at, largest first: the largest it fits at is taken. */
const MESSAGE_SIZES = [15, 14, 13, 12, 11, 10, 9];
const MESSAGE_WIDTH = 300;

/** The lines a message is set in at this size: the giver's own lines, each wrapped to the measure. */
function messageLines(frame: TextMeasure, message: readonly string[], size: number): string[] {
  return message.flatMap((line) => breakLines(line, MESSAGE_WIDTH, (t) => frame.width(t, 'serifItalic', size)));
}

/** The persona id block's fixed place, above the footer: the rule over it, and the QR code's side. */
const ID_RULE_Y = 200;
const QR_SIDE = 84;

export function drawDedicationPage(frame: PageFrame, text: DedicationText) {
  // From the foot up: the persona id and the QR code that verifies it, in the same place on every copy.
  frame.rule(60, 360, ID_RULE_Y);
  let y = frame.centred('Persona id', ID_RULE_Y - 16, 'sans', 8, { grey: true });
  y = frame.centred(text.personaId, y - 6, 'mono', 14, { leading: 18 });
  frame.qr(text.verifyUrl, A5.width / 2 - QR_SIDE / 2, y + 4, QR_SIDE);
  y -= QR_SIDE + 8;
  const urlCharWidth = frame.width('M', 'mono', 6);
  for (const line of splitEvenly(text.verifyUrl, Math.floor(320 / urlCharWidth))) y = frame.centred(line, y, 'mono', 6, { leading: 7.5, maxWidth: 340 });
  frame.centred('Scan to verify this copy', y - 1, 'sans', 7, { grey: true });

  // Above it, the author's signature: their own image, or the shop's plain word that it signs for them.
  let authorTop: number;
  if (text.authorSignature) {
    const place = fitWithin(text.authorSignature, { x: A5.width / 2 - 90, y: ID_RULE_Y + 44, width: 180, height: 64 });
    frame.authorSignature(place.x, place.y, place.width, place.height);
    frame.centred(text.author, ID_RULE_Y + 26, 'serifItalic', 14, { leading: 17 });
    authorTop = place.y + place.height;
  } else {
    frame.centred(text.author, ID_RULE_Y + 40, 'serifItalic', 18, { leading: 22 });
    frame.centred(SIGNED_FOR_THE_AUTHOR, ID_RULE_Y + 22, 'sans', 8, { grey: true });
    authorTop = ID_RULE_Y + 58;
  }

  // The top of the page, the dedication, set in the room left and centred in it: "Ex libris", the
  // name, the date, and a gift's message at the largest size it fits at.
  const nameLines = breakLines(`Personalised for ${text.name}`, 320, (t) => frame.width(t, 'serif', 18)).length;
  const head = 30 + nameLines * 23 + 16 + (text.copyLine !== null ? 12 : 0);
  const room = 555 - (authorTop + 24);
  let size = MESSAGE_SIZES[MESSAGE_SIZES.length - 1]!;
  let lines: string[] = [];
  if (text.message.length) {
    for (const candidate of MESSAGE_SIZES) {
      lines = messageLines(frame, text.message, candidate);
      size = candidate;
      if (head + 26 + lines.length * candidate * 1.4 <= room) break;
    }
  }
  const leading = size * 1.4;
  const block = head + (lines.length ? 26 + lines.length * leading : 0);
  y = 555 - Math.max(0, (room - block) / 2);
  frame.centred('Ex libris', y, 'serifItalic', 11, { grey: true });
  y = frame.centred(`Personalised for ${text.name}`, y - 30, 'serif', 18, { leading: 23 });
  y = frame.centred(`on ${text.formattedDate}`, y + 4, 'serifItalic', 12);
  if (text.copyLine !== null) y = frame.centred(text.copyLine, y - 2, 'sans', 8, { grey: true });
  if (lines.length) {
    // A gift's message, in the giver's words and lines, under a short rule.
    frame.rule(190, 230, y + 2);
    y -= 14 + size * 0.4;
    for (const line of lines) y = frame.centred(line, y, 'serifItalic', size, { leading, maxWidth: MESSAGE_WIDTH + 40 });
  }
}

/** A gift's private detail, for the colophon: what it is, its salt, and the hash the record signs. */
export interface PrivateDetail {
  label: string;
  salt: string;
  hash: string;
}

export interface ColophonText {
  title: string;
  author: string;
  name: string;
  formattedDate: string;
  /** Whether the dedication page carries the author's own signature. */
  authorSigned: boolean;
  /** The signed record, as canonical JSON. */
  record: string;
  signature: string;
  keyId: string;
  /** A gift's buyer and message, as salt and hash (none for a Persona bought for oneself). */
  privateDetails: readonly PrivateDetail[];
  personaId: string;
  verifyUrl: string;
  copyNo: number | null;
}

/**
 * The last page: how the copy was made and what proves it — the signed record, its Ed25519
 * signature and key, and a gift's salts, with which its holder can check the giver's name and the
 * message against the hashes the public record signs.
 */
export function drawColophonPage(frame: PageFrame, text: ColophonText) {
  let y = frame.centred('Colophon', 540, 'serifItalic', 14, { grey: true });
  const made =
    `This Persona of ${text.title} by ${text.author} was made by Persona Books for ${text.name} on ${text.formattedDate}. ` +
    (text.authorSigned
      ? "The signature on its dedication page is the author's own, given to the shop for this edition."
      : 'The author did not sign it by hand: Persona Books signs every Persona for the author.');
  y = frame.centred(made, y - 8, 'serif', 9.5, { leading: 13, maxWidth: 310 });
  if (text.copyNo !== null) y = frame.centred(copyNumberProof(text.copyNo), y - 6, 'serif', 9.5, { leading: 13, maxWidth: 310 });
  y = frame.centred(
    'Persona Books signs a record of every copy with its Ed25519 key. Anyone can check the record and its signature at the link below; the shop can tell whether this very file is the one it made.',
    y - 6,
    'serif',
    9.5,
    { leading: 13, maxWidth: 310 },
  );
  frame.rule(60, 360, y - 2);

  const monoSize = 6.2;
  const perLine = Math.floor(320 / frame.width('M', 'mono', monoSize));
  y = frame.centred('The signed record', y - 18, 'sans', 8, { grey: true });
  for (const line of splitEvenly(text.record, perLine)) y = frame.centred(line, y - 1, 'mono', monoSize, { leading: 8, maxWidth: 340 });
  y = frame.centred(`Its signature · Ed25519 · key ${text.keyId}`, y - 8, 'sans', 8, { grey: true });
  for (const line of splitEvenly(text.signature, perLine)) y = frame.centred(line, y - 1, 'mono', monoSize, { leading: 8, maxWidth: 340 });

  if (text.privateDetails.length) {
    y = frame.centred('What stays private', y - 10, 'sans', 8, { grey: true });
    y = frame.centred(
      `${text.privateDetails.length > 1 ? 'Who gave this copy, and their message, are' : 'Who gave this copy is'} not in the public record: only a hash is, made with a secret salt printed here for you. To check, take the SHA-256 of the salt followed by the text (a message's lines joined by line breaks), and compare it with the hash.`,
      y - 2,
      'serif',
      8.5,
      { leading: 11.5, maxWidth: 310 },
    );
    for (const detail of text.privateDetails) {
      y = frame.centred(detail.label, y - 6, 'sans', 7.5, { grey: true });
      y = frame.centred(`salt ${detail.salt}`, y - 1, 'mono', monoSize, { leading: 8, maxWidth: 340 });
      for (const line of splitEvenly(`hash ${detail.hash}`, perLine)) y = frame.centred(line, y, 'mono', monoSize, { leading: 8, maxWidth: 340 });
    }
  }

  const urlCharWidth = frame.width('M', 'mono', 6);
  y = Math.min(y - 12, 80);
  y = frame.centred(`Persona ${text.personaId}`, y, 'sans', 8, { grey: true });
  for (const line of splitEvenly(text.verifyUrl, Math.floor(320 / urlCharWidth))) y = frame.centred(line, y, 'mono', 6, { leading: 7.5, maxWidth: 340 });
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
