// The live preview of a dedication page (issue 13, point 2; DESIGN §12): the page the Persona
// engine prints for this name and message, drawn by the same code (drawDedicationPage, the same
// fonts and shaping) on an A5 page, then rendered to an image by pdf.js, as a reader's viewer
// would show it. What only a purchase makes (the persona id, its QR code, the signature) is shown
// as a placeholder of the same shape.
import type * as CanvasModule from '@napi-rs/canvas';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs' with { 'resolution-mode': 'import' };
import { PDFDocument } from 'pdf-lib';
import { compressContentStreams, deferContentCompression } from './content-streams';
import { formatPurchaseDate } from './format-date';
import { PersonaFonts } from './persona-fonts';
import { A5, Frame, drawDedicationPage, footerPlacement, footerText, type DedicationText } from './persona-pages';

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
}

/** The persona id and signature a purchase makes, shown as placeholders of their length. */
export const PREVIEW_PERSONA_ID = 'PRS-XXXX-XXXX-XXXX-XXXX';
const PREVIEW_SIGNATURE = '·'.repeat(88);

const oneLine = (value: string) =>
  value
    .normalize('NFC')
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();

/** The one-page PDF of the dedication page for these inputs: deterministic, as every Persona PDF. */
export async function dedicationPreviewPdf(input: Omit<PreviewInput, 'widthPx'>): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  deferContentCompression(doc.context);
  const name = oneLine(input.name);
  const dedication: DedicationText = {
    name,
    message: input.message.split('\n').map(oneLine).filter(Boolean),
    formattedDate: formatPurchaseDate(input.purchaseDate),
    author: oneLine(input.author),
    signature: PREVIEW_SIGNATURE,
    keyId: 'made when you buy',
    personaId: PREVIEW_PERSONA_ID,
    verifyUrl: `${input.publicUrl}/verify/${PREVIEW_PERSONA_ID}`,
  };
  const footer = footerText(name, PREVIEW_PERSONA_ID);
  const fonts = await PersonaFonts.embed(doc, [
    ['serifItalic', `Ex libris on ${dedication.formattedDate} ${dedication.author} ${dedication.message.join(' ')}`],
    ['serif', `Personalised for ${name}`],
    ['sans', `${footer} Digitally signed Persona id Scan to verify this copy`],
    ['mono', `${dedication.signature} ${dedication.personaId} ${dedication.verifyUrl} Ed25519 · key ${dedication.keyId} M`],
  ]);
  const page = doc.addPage([A5.width, A5.height]);
  drawDedicationPage(new Frame(page, fonts), dedication);
  fonts.drawLines(page, [footerPlacement({ x: 0, y: 0, width: A5.width, height: A5.height }, 0, fonts, footer)]);
  fonts.finish(doc);
  compressContentStreams(doc.context);
  return doc.save({ useObjectStreams: false, updateFieldAppearances: false });
}

type PdfJs = typeof PdfJsModule;
type Canvas = typeof CanvasModule;
let renderer: Promise<{ pdfjs: PdfJs; canvas: Canvas }> | null = null;

/** pdf.js (its legacy build, for Node) and a canvas, loaded once per thread. */
function loadRenderer() {
  renderer ??= Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('@napi-rs/canvas')]).then(([pdfjs, canvas]) => ({ pdfjs, canvas }));
  return renderer;
}

/** The first page of a PDF as a PNG `widthPx` wide, on white. */
export async function renderFirstPage(pdf: Uint8Array, widthPx: number): Promise<Uint8Array> {
  const { pdfjs, canvas } = await loadRenderer();
  const doc = await pdfjs.getDocument({ data: pdf, disableFontFace: true, useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const page = await doc.getPage(1);
    const viewport = page.getViewport({ scale: widthPx / page.getViewport({ scale: 1 }).width });
    const surface = canvas.createCanvas(Math.round(viewport.width), Math.round(viewport.height));
    const context = surface.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, surface.width, surface.height);
    // @napi-rs/canvas implements the 2D context pdf.js draws with (pdf.js's own Node path uses it).
    await page.render({ canvasContext: context as never, canvas: surface as never, viewport }).promise;
    return new Uint8Array(await surface.encode('png'));
  } finally {
    await doc.destroy();
  }
}

/** The preview image (PNG) of a dedication page. */
export async function dedicationPreview(input: PreviewInput): Promise<Uint8Array> {
  return renderFirstPage(await dedicationPreviewPdf(input), input.widthPx);
}
