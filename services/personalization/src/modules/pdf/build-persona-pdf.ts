// Builds a Persona's PDF from the book's text or its uploaded PDF (DESIGN §5).
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import type { PersonaSignedRecord } from '@persona/contracts';
import { canonicalJson, sha256Hex } from '../signing/persona-signature';
import { formatPurchaseDate, parsePurchaseDate } from './format-date';
import { PersonaFonts, type TextStyle } from './persona-fonts';
import { A5, Frame, drawDedicationPage, drawPageNumber, drawTitlePage, footerText, stampFooter, type DedicationText } from './persona-pages';
import { isChapterHeading, typesetParagraphs } from './typeset-text';

export interface PersonaPdfInput {
  record: PersonaSignedRecord;
  signature: string;
  keyId: string;
  verifyUrl: string;
  source: { kind: 'text'; paragraphs: string[] } | { kind: 'pdf'; bytes: Uint8Array };
}

export interface PersonaPdf {
  bytes: Uint8Array;
  pages: number;
}

/** The source PDF cannot be parsed (or is encrypted, or has no pages), or the text source is empty. */
export class UnreadableSourceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnreadableSourceError';
  }
}

const PRODUCER = 'Persona Books';

/** One line of printable text: control characters and runs of whitespace become one space. */
function oneLine(value: string): string {
  return value.normalize('NFC').replace(/[\s\p{Cc}]+/gu, ' ').trim();
}

export async function buildPersonaPdf(input: PersonaPdfInput): Promise<PersonaPdf> {
  const record = input.record;
  const printed = {
    title: oneLine(record.title),
    author: oneLine(record.author),
    buyerName: oneLine(record.buyerName),
    personaId: oneLine(record.personaId),
  };
  const purchasedAt = parsePurchaseDate(record.purchaseDate);
  const dedication: DedicationText = {
    ...printed,
    formattedDate: formatPurchaseDate(record.purchaseDate),
    signature: oneLine(input.signature),
    keyId: oneLine(input.keyId),
    verifyUrl: oneLine(input.verifyUrl),
  };
  const footer = footerText(printed.buyerName, printed.personaId);
  const frontTexts: Array<readonly [TextStyle, string]> = [
    ['serifBold', printed.title],
    ['serifItalic', printed.author],
    ['serif', `Personalised for ${printed.buyerName}`],
    ['serifItalic', `on ${dedication.formattedDate} Ex libris`],
    ['sans', `${footer} A Persona edition Digitally signed Persona id Scan to verify this copy`],
    ['mono', `${dedication.signature} ${dedication.personaId} ${dedication.verifyUrl} Ed25519 · key ${dedication.keyId} M`],
  ];

  const doc = input.source.kind === 'text' ? await typesetBook(input.source.paragraphs, frontTexts, printed, dedication, footer) : await personaliseSourcePdf(input.source.bytes, frontTexts, dedication, footer);

  doc.setTitle(printed.title);
  doc.setAuthor(printed.author);
  doc.setSubject(`A Persona of ${printed.title} personalised for ${printed.buyerName}`);
  doc.setKeywords([printed.personaId, 'Persona', 'Persona Books']);
  doc.setCreator(PRODUCER);
  doc.setProducer(PRODUCER);
  doc.setCreationDate(purchasedAt);
  doc.setModificationDate(purchasedAt);
  // Found by the verification upload without parsing the page text.
  doc.context.lookup(doc.context.trailerInfo.Info, PDFDict).set(PDFName.of('PersonaId'), PDFString.of(printed.personaId));
  // pdf-lib writes no /ID; a fixed one derived from the record keeps the bytes reproducible.
  const documentId = PDFHexString.of(sha256Hex(Buffer.from(canonicalJson(record), 'utf8')).slice(0, 32));
  doc.context.trailerInfo.ID = doc.context.obj([documentId, documentId]);

  const bytes = await doc.save({ useObjectStreams: true, updateFieldAppearances: false });
  return { bytes, pages: doc.getPageCount() };
}

async function typesetBook(
  paragraphs: readonly string[],
  frontTexts: Array<readonly [TextStyle, string]>,
  printed: { title: string; author: string },
  dedication: DedicationText,
  footer: string,
): Promise<PDFDocument> {
  if (!Array.isArray(paragraphs) || !paragraphs.some((p) => typeof p === 'string' && p.replace(/^#\s+/, '').trim() !== '')) {
    throw new UnreadableSourceError('the book has no text to typeset');
  }
  const doc = await PDFDocument.create({ updateMetadata: false });
  const fonts = await PersonaFonts.embed(doc, [
    ...frontTexts,
    ['serif', '0123456789'],
    ...paragraphs.map((p): readonly [TextStyle, string] => [isChapterHeading(p) ? 'serifBold' : 'serif', p.normalize('NFC')]),
  ]);

  drawTitlePage(new Frame(doc.addPage([A5.width, A5.height]), fonts), printed);
  drawDedicationPage(new Frame(doc.addPage([A5.width, A5.height]), fonts), dedication);

  for (const laid of typesetParagraphs(paragraphs, (text, style, size) => fonts.width(text, style, size))) {
    const page = doc.addPage([A5.width, A5.height]);
    fonts.drawLines(page, laid.lines);
    drawPageNumber(page, fonts, doc.getPageCount());
  }
  for (const page of doc.getPages()) stampFooter(page, fonts, footer);
  return doc;
}

async function loadSource(bytes: Uint8Array): Promise<PDFDocument> {
  let source: PDFDocument;
  try {
    source = await PDFDocument.load(bytes, { ignoreEncryption: false, updateMetadata: false });
  } catch (error) {
    throw new UnreadableSourceError(`the book's PDF cannot be read: ${(error as Error).message}`, { cause: error });
  }
  let count = 0;
  try {
    count = source.getPageCount();
  } catch (error) {
    throw new UnreadableSourceError(`the book's PDF has no readable page tree: ${(error as Error).message}`, { cause: error });
  }
  if (count === 0) throw new UnreadableSourceError("the book's PDF has no pages");
  return source;
}

/**
 * Copies the uploaded book's pages into a fresh document (so none of its
 * metadata, XMP or unreferenced objects come along), puts the dedication page
 * after its own title page and stamps the footer on every page.
 */
async function personaliseSourcePdf(bytes: Uint8Array, frontTexts: Array<readonly [TextStyle, string]>, dedication: DedicationText, footer: string): Promise<PDFDocument> {
  const source = await loadSource(bytes);
  const doc = await PDFDocument.create({ updateMetadata: false });
  let copied;
  try {
    copied = await doc.copyPages(source, source.getPageIndices());
  } catch (error) {
    throw new UnreadableSourceError(`the book's PDF pages cannot be copied: ${(error as Error).message}`, { cause: error });
  }
  const fonts = await PersonaFonts.embed(doc, frontTexts);
  copied.forEach((page, index) => {
    doc.addPage(page);
    if (index === 0) {
      const { width, height } = page.getCropBox();
      const rotation = ((page.getRotation().angle % 360) + 360) % 360;
      const size: [number, number] = rotation === 90 || rotation === 270 ? [height, width] : [width, height];
      drawDedicationPage(new Frame(doc.addPage(size), fonts), dedication);
    }
  });
  for (const page of doc.getPages()) stampFooter(page, fonts, footer);
  return doc;
}
