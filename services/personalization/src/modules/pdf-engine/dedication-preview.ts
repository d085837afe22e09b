// The live preview of a dedication page (issue 13, point 2; DESIGN §12): the page the Persona
// engine prints for this name and message, laid out by the same code (drawDedicationPage, the same
// fonts, runs and harfbuzz shaping) on an A5 page and drawn onto a canvas. What only a purchase
// makes (the persona id, its QR code) is shown as a placeholder of the same shape; the author's own
// signature, when the book has one, is drawn as the Persona draws it.
import { createHash } from 'node:crypto';
import type * as CanvasModule from '@napi-rs/canvas';
import { LRUCache } from 'lru-cache';
import { PDFDocument } from 'pdf-lib';
import { CanvasFrame } from './canvas-frame';
import { compressContentStreams, deferContentCompression } from './content-streams';
import { grayPng } from './gray-png';
import { preparedImage, registerImage } from './images';
import { PersonaFonts } from '../fonts/persona-fonts';
import { loadShaper } from '../fonts/shaping';
import { A5 } from '../persona-print/a5-page';
import { formatPurchaseDate } from '../persona-print/format-date';
import { copyNumberLine, footerText } from '../persona-print/printed-lines';
import { Frame, drawDedicationPage, footerPlacement, type DedicationText } from './persona-pages';

export interface PreviewInput {
  title: string;
  author: string;
  /** The name printed (the buyer's, or a gift's recipient). */
  name: string;
  /** A gift's message, lines separated by \n; '' for none. */
  message: string;
  /** YYYY-MM-DD: the day it would be bought (the shop's today). */
  purchaseDate: string;
  /** The shop's address: the verify link the QR code would open. */
  publicUrl: string;
  /** The image's width in pixels. */
  widthPx: number;
  /** The author's own signature (PNG), when the book has one. */
  authorSignature?: Uint8Array;
}

/** The persona id a purchase makes, shown as a placeholder of its length. */
export const PREVIEW_PERSONA_ID = 'PRS-XXXX-XXXX-XXXX-XXXX';
/** The preview's copy line: the number is taken when the Persona is bought. */
export const PREVIEW_COPY_LINE = copyNumberLine('…');

const oneLine = (value: string) =>
  value
    .normalize('NFC')
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();

/** What the preview's page prints: the dedication with placeholders, and the footer. */
function pageText(
  input: Omit<PreviewInput, 'widthPx' | 'authorSignature'>,
  authorSignature: { width: number; height: number } | null,
): { dedication: DedicationText; footer: string } {
  const name = oneLine(input.name);
  const dedication: DedicationText = {
    name,
    message: input.message.split('\n').map(oneLine).filter(Boolean),
    formattedDate: formatPurchaseDate(input.purchaseDate),
    author: oneLine(input.author),
    authorSignature,
    personaId: PREVIEW_PERSONA_ID,
    verifyUrl: `${input.publicUrl}/verify/${PREVIEW_PERSONA_ID}`,
    // The copy's number is taken when it is bought: the preview keeps its line's place.
    copyLine: PREVIEW_COPY_LINE,
  };
  return { dedication, footer: footerText(name, PREVIEW_PERSONA_ID) };
}

/** The one-page PDF of the preview's page, as the engine writes every Persona's (the preview image draws the same page). */
export async function dedicationPreviewPdf(input: Omit<PreviewInput, 'widthPx'>): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  deferContentCompression(doc.context);
  const signature = input.authorSignature ? await preparedImage(input.authorSignature) : null;
  const { dedication, footer } = pageText(input, signature && { width: signature.width, height: signature.height });
  const fonts = await PersonaFonts.embed(doc);
  const page = doc.addPage([A5.width, A5.height]);
  drawDedicationPage(new Frame(page, fonts, signature && registerImage(doc.context, signature)), dedication);
  fonts.drawLines(page, [footerPlacement({ x: 0, y: 0, width: A5.width, height: A5.height }, 0, fonts, footer)]);
  fonts.finish(doc);
  compressContentStreams(doc.context);
  return doc.save({ useObjectStreams: false, updateFieldAppearances: false });
}

type Canvas = typeof CanvasModule;
let canvasModule: Promise<Canvas> | null = null;

/**
 * The preview image (PNG, `widthPx` wide) of a dedication page: the same page as
 * dedicationPreviewPdf, laid out by the same code, drawn straight onto a canvas (a few
 * milliseconds, where writing the PDF and rendering it back took ten times as long).
 */
export async function dedicationPreview(input: PreviewInput): Promise<Uint8Array> {
  const [canvas] = await Promise.all([(canvasModule ??= import('@napi-rs/canvas')), loadShaper()]);
  const signature = input.authorSignature ? await signatureImage(canvas, input.authorSignature) : null;
  const { dedication, footer } = pageText(input, signature && { width: signature.width, height: signature.height });
  const scale = input.widthPx / A5.width;
  const surface = canvas.createCanvas(input.widthPx, Math.round(A5.height * scale));
  // Left transparent: grayPng lays it on white.
  const context = surface.getContext('2d');
  const frame = new CanvasFrame(context, scale, (d) => (d === undefined ? new canvas.Path2D() : new canvas.Path2D(d)), signature);
  drawDedicationPage(frame, dedication);
  const placed = footerPlacement({ x: 0, y: 0, width: A5.width, height: A5.height }, 0, frame, footer);
  frame.line(placed.text, placed.x, placed.y, placed.size, placed.style, true);
  return grayPng(surface.data(), surface.width, surface.height);
}

// A book's signature, decoded once per thread and kept while its previews are drawn.
const signatures = new LRUCache<string, CanvasModule.Image>({ max: 50 });

async function signatureImage(canvas: Canvas, bytes: Uint8Array): Promise<CanvasModule.Image> {
  const key = createHash('sha256').update(bytes).digest('hex');
  let image = signatures.get(key);
  if (!image) {
    image = await canvas.loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    signatures.set(key, image);
  }
  return image;
}

/**
 * Makes a thread ready to draw previews before the first buyer asks: the canvas and harfbuzz
 * loaded, every script's faces read, the drawing code compiled (a thread's first preview took
 * 190 ms, its next 30).
 */
export async function warmPreviews(widthPx: number): Promise<void> {
  for (const [name, message] of [
    ['Zoë Ünal', ''],
    ['अनन्या শর্মা தமிழ் مريم', 'With love'],
  ])
    await dedicationPreview({
      title: 'Warm-up',
      author: 'Persona Books',
      name,
      message,
      purchaseDate: '2026-01-01',
      publicUrl: 'https://persona-books.in',
      widthPx,
    });
}
