// A printed Persona's cover (issue 27): one spread, back, spine and front side by side with the
// bleed around them, as a print house takes it. The front is the book's cover image, filling its
// panel to the bleed (or, for a book without one, its title and author set on a dark ground); the
// spine, as wide as the interior is thick, carries the title and author when it is wide enough; the
// back carries the title, the author, the blurb, whose copy it is ("Copy No. 37", personalised for
// whom) and the QR code of its verify page: the printed book and its digital twin name the same
// entry in the public log.
import { clip, endPath, PDFDocument, PDFNumber, PDFName, popGraphicsState, pushGraphicsState, rectangle, rgb, type PDFPage } from 'pdf-lib';
import type { TextStyle } from '../fonts/fallback';
import { PersonaFonts } from '../fonts/persona-fonts';
import { drawImage, preparedImage, registerImage } from '../pdf-engine/images';
import { drawQrCode } from '../pdf-engine/persona-pages';
import { breakLines } from '../pdf-engine/typeset-text';
import { copyNumberLine } from '../persona-print/printed-lines';
import { BLEED, coverSize, MIN_SPINE_TEXT_INCHES, POINTS_PER_INCH, TRIM, type PaperName } from './print-specs';

export interface CoverInput {
  title: string;
  author: string;
  /** The book's description, printed on the back. */
  blurb: string;
  /** The name printed in the copy. */
  name: string;
  copyNo: number;
  personaId: string;
  verifyUrl: string;
  /** The book's cover image (PNG or JPEG), when it has one. */
  cover?: Uint8Array;
  /** The interior's page count, and its paper: the spine's width. */
  pages: number;
  paper: PaperName;
}

export interface PrintCover {
  bytes: Uint8Array;
  /** The spread's width and height and the spine's width, in points. */
  width: number;
  height: number;
  spine: number;
}

const PAPER_TONE = rgb(0.97, 0.955, 0.925);
const DARK = rgb(0.11, 0.11, 0.15);
const INK = rgb(0.1, 0.1, 0.12);
const GREY = rgb(0.38, 0.38, 0.42);
const LIGHT = rgb(0.97, 0.96, 0.93);
/** Text keeps this far inside the trim: what a binding may take. */
const SAFE = 0.5 * POINTS_PER_INCH;

const N = (name: string) => PDFName.of(name);

function fillRect(page: PDFPage, x: number, y: number, width: number, height: number, color: ReturnType<typeof rgb>) {
  page.drawRectangle({ x, y, width, height, color, borderWidth: 0 });
}

export async function printCover(input: CoverInput): Promise<PrintCover> {
  const { width, height, spine } = coverSize(input.pages, input.paper);
  const doc = await PDFDocument.create({ updateMetadata: false });
  const fonts = await PersonaFonts.embed(doc);
  const page = doc.addPage([width, height]);
  const backLeft = BLEED;
  const spineLeft = BLEED + TRIM.width;
  const frontLeft = spineLeft + spine;

  // The grounds, to the bleed.
  fillRect(page, 0, 0, spineLeft, height, PAPER_TONE);
  fillRect(page, spineLeft, 0, spine, height, DARK);
  const image = input.cover ? await preparedImage(input.cover) : null;
  if (image) {
    // The cover image fills the front panel and its bleed, centred, cut to the panel.
    const panel = { x: frontLeft, y: 0, width: width - frontLeft, height };
    const scale = Math.max(panel.width / image.width, panel.height / image.height);
    const w = image.width * scale;
    const h = image.height * scale;
    const ref = registerImage(doc.context, image);
    page.pushOperators(pushGraphicsState(), rectangle(panel.x, panel.y, panel.width, panel.height), clip(), endPath());
    drawImage(page, ref, panel.x + (panel.width - w) / 2, panel.y + (panel.height - h) / 2, w, h);
    page.pushOperators(popGraphicsState());
  } else {
    fillRect(page, frontLeft, 0, width - frontLeft, height, DARK);
    const centre = frontLeft + TRIM.width / 2;
    let y = BLEED + TRIM.height * 0.62;
    for (const line of breakLines(input.title, TRIM.width - 2 * SAFE, (t) => fonts.width(t, 'serifBold', 26))) {
      fonts.drawCentred(page, line, { centreX: centre, y, size: 26, style: 'serifBold', color: LIGHT });
      y -= 32;
    }
    fonts.drawCentred(page, input.author, { centreX: centre, y: y - 12, size: 15, style: 'serifItalic', color: LIGHT });
  }

  // The spine: the title and the author, top to bottom, when there is room for a line.
  if (spine >= MIN_SPINE_TEXT_INCHES * POINTS_PER_INCH) {
    const text = `${input.title}  ·  ${input.author}`;
    const room = TRIM.height - 2 * SAFE;
    let size = Math.min(11, spine * 0.5);
    const style: TextStyle = 'serif';
    if (fonts.width(text, style, size) > room) size = Math.max(5, (size * room) / fonts.width(text, style, size));
    const textWidth = fonts.width(text, style, size);
    fonts.draw(page, text, {
      x: spineLeft + spine / 2 - size * 0.35,
      y: BLEED + TRIM.height / 2 + textWidth / 2,
      size,
      style,
      color: LIGHT,
      rotateDegrees: -90,
    });
  }

  // The back: the book, its blurb, and whose copy this is.
  const centre = backLeft + TRIM.width / 2;
  const measure = TRIM.width - 2 * SAFE - 12;
  let y = BLEED + TRIM.height - SAFE - 14;
  for (const line of breakLines(input.title, measure, (t) => fonts.width(t, 'serifBold', 16))) {
    fonts.drawCentred(page, line, { centreX: centre, y, size: 16, style: 'serifBold', color: INK });
    y -= 20;
  }
  fonts.drawCentred(page, input.author, { centreX: centre, y: y - 2, size: 12, style: 'serifItalic', color: INK });
  y -= 32;
  // The personal block's top: the blurb stops above it, at a sentence's end where it must.
  const personalTop = BLEED + SAFE + 178;
  const blurbLines = blurbFitting(input.blurb, measure, Math.floor((y - personalTop - 12) / 14), (t) => fonts.width(t, 'serif', 10));
  for (const line of blurbLines) {
    fonts.draw(page, line, { x: backLeft + SAFE + 6, y, size: 10, style: 'serif', color: INK });
    y -= 14;
  }

  page.drawLine({ start: { x: centre - 60, y: personalTop }, end: { x: centre + 60, y: personalTop }, thickness: 0.5, color: GREY });
  y = personalTop - 20;
  for (const line of breakLines(`Personalised for ${input.name}`, measure, (t) => fonts.width(t, 'serif', 12))) {
    fonts.drawCentred(page, line, { centreX: centre, y, size: 12, style: 'serif', color: INK });
    y -= 15;
  }
  fonts.drawCentred(page, copyNumberLine(input.copyNo), { centreX: centre, y: y - 1, size: 8.5, style: 'sans', color: GREY });
  const qrSide = 64;
  const qrTop = y - 14;
  drawQrCode(page, input.verifyUrl, centre - qrSide / 2, qrTop, qrSide);
  y = qrTop - qrSide - 11;
  fonts.drawCentred(page, `Scan to verify this copy · ${input.personaId}`, { centreX: centre, y, size: 7, style: 'sans', color: GREY });
  fonts.drawCentred(page, 'Persona Books', { centreX: centre, y: BLEED + SAFE - 6, size: 8, style: 'sans', color: GREY });

  // The boxes a print house reads: the trim of the whole spread, the bleed around it.
  const sheet = doc.context.obj([0, 0, width, height].map((n) => PDFNumber.of(n)));
  page.node.set(N('BleedBox'), sheet);
  page.node.set(N('TrimBox'), doc.context.obj([BLEED, BLEED, width - BLEED, height - BLEED].map((n) => PDFNumber.of(n))));
  fonts.finish(doc);
  doc.setTitle(`${input.title} (cover for print)`);
  return { bytes: await doc.save({ useObjectStreams: false }), width, height, spine };
}

/** The blurb in at most `maxLines` lines: whole, else cut at the last sentence that fits, else the lines that fit with "…". */
export function blurbFitting(blurb: string, measure: number, maxLines: number, width: (text: string) => number): string[] {
  const all = breakLines(blurb.replace(/\s+/g, ' ').trim(), measure, width);
  if (all.length <= maxLines) return all;
  const sentences = blurb.replace(/\s+/g, ' ').match(/[^.!?।]+[.!?।]+["'”’)]*\s*/g) ?? [];
  for (let n = sentences.length - 1; n > 0; n -= 1) {
    const lines = breakLines(sentences.slice(0, n).join('').trim(), measure, width);
    if (lines.length <= maxLines) return lines;
  }
  const lines = all.slice(0, Math.max(1, maxLines));
  const last = lines[lines.length - 1]!;
  // "…" after the last word that leaves room for it.
  lines[lines.length - 1] = width(`${last}…`) <= measure || !/\s/.test(last) ? `${last}…` : `${last.replace(/[\s,;:]*\S*$/, '')}…`;
  return lines;
}
