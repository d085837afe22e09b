// Builds a Persona's PDF from the book's text or its uploaded PDF (DESIGN §5).
//
// Only the dedication page, the colophon, the footers and the metadata depend on the buyer.
// So the book itself (the uploaded PDF, or the text typeset once with its
// title page and page numbers) is prepared once per source and cached, and
// each Persona is that book's bytes unchanged plus one incremental update
// (stamp-persona.ts): no page is copied, parsed beyond its dictionary, or
// compressed again.
//
// Why our own engine around pdf-lib rather than pdf-lib's load/copy/save: that
// path made a first Persona of the 300-page benchmark book about 6× slower than
// `qpdf --overlay` and saturated paid → ready at about 7 Personas/s; this one is
// 0.6–1.2× qpdf for a first Persona and about 20 ms for the next of the same
// book (`npm run bench`, the `pdf` group; bench/README.md). pdf-lib still builds
// the objects; typesetting, subsetting (fonts/truetype.ts) and deflate (deflate/deflate.ts)
// are ours and deterministic, which the byte-for-byte regeneration test checks.
import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { personaPrintProblem, printableTextProblem, type PersonaDetails, type PersonaSalts } from '@persona/contracts';
import { canonicalJson, sha256Hex, signedRecordOf } from '../signing/persona-signature';
import { BaseCache } from './base-cache';
import { compressContentStreams, deferContentCompression } from './content-streams';
import { UnprintableTextError, UnreadableSourceError } from './errors';
import { PersonaFonts } from '../fonts/persona-fonts';
import { preparedImage } from './images';
import { A5 } from '../persona-print/a5-page';
import { formatPurchaseDate, parsePurchaseDate } from '../persona-print/format-date';
import { copyNumberLine, footerText } from '../persona-print/printed-lines';
import { Frame, drawPageNumber, drawTitlePage, type ColophonText, type DedicationText, type PrivateDetail } from './persona-pages';
import { prepareBase, readBase, type PreparedBase } from './prepare-base';
import { stampPersona } from './stamp-persona';
import { typesetParagraphs } from './typeset-text';

export { UnprintableTextError, UnreadableSourceError } from './errors';

export interface PersonaPdfInput {
  /** What the copy prints: the order's details, a gift's buyer and message included. */
  record: PersonaDetails;
  /** The salts of its private details (signing/persona-signature.ts, personaSalts); none for a Persona bought for oneself. */
  salts?: PersonaSalts;
  /** The signature over the record made of these (signedRecordOf), printed in the colophon. */
  signature: string;
  keyId: string;
  verifyUrl: string;
  source: { kind: 'text'; paragraphs: string[] } | { kind: 'pdf'; bytes: Uint8Array };
  /** The copy's leak mark (leak-mark/mark-code.ts), drawn on every page. */
  mark: number;
  /** The book's cover (PNG or JPEG), printed as page 1. */
  cover?: Uint8Array;
  /** The author's own signature (PNG), drawn on the dedication page instead of the shop's word. */
  authorSignature?: Uint8Array;
  /** Its number among its book's Personas (personas/copy-numbers.ts), on the dedication page and in the colophon. */
  copyNo?: number;
}

export interface PersonaPdf {
  bytes: Uint8Array;
  pages: number;
}

const PRODUCER = 'Persona Books';

/** One line of printable text: control characters and runs of whitespace become one space. */
function oneLine(value: string): string {
  return value
    .normalize('NFC')
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();
}

/** The prepared-book cache's bound unless PERSONA_PDF_CACHE_MB says otherwise. */
export const DEFAULT_PDF_CACHE_BYTES = 64 * 1024 * 1024;

const cache = new BaseCache(DEFAULT_PDF_CACHE_BYTES);

/** Bounds the prepared-book cache (bytes; 0 turns it off). */
export function setPersonaPdfCacheLimit(maxBytes: number) {
  cache.setLimit(maxBytes);
}

export function clearPersonaPdfCache() {
  cache.clear();
}

export function personaPdfCacheStats() {
  return cache.stats();
}

export async function buildPersonaPdf(input: PersonaPdfInput): Promise<PersonaPdf> {
  const record = input.record;
  const printed = {
    title: oneLine(record.title),
    author: oneLine(record.author),
    // A gift prints its recipient's name wherever the buyer's would be (DESIGN §12).
    name: oneLine(record.recipientName ?? record.buyerName),
    personaId: oneLine(record.personaId),
  };
  const purchasedAt = parsePurchaseDate(record.purchaseDate);
  // The images first: decoded once per book and kept (images.ts), as the book itself is.
  const [cover, authorSignature] = await Promise.all([
    input.cover ? preparedImage(input.cover) : null,
    input.authorSignature ? preparedImage(input.authorSignature) : null,
  ]);
  const dedication: DedicationText = {
    ...printed,
    message: (record.message ?? '').split('\n').map(oneLine).filter(Boolean),
    formattedDate: formatPurchaseDate(record.purchaseDate),
    authorSignature: authorSignature && { width: authorSignature.width, height: authorSignature.height },
    verifyUrl: oneLine(input.verifyUrl),
    copyLine: input.copyNo === undefined ? null : copyNumberLine(input.copyNo),
  };
  const salts = input.salts ?? {};
  // What the signature covers, printed whole: the holder can check it without asking the shop.
  const signed = signedRecordOf(record, salts);
  const privateDetails: PrivateDetail[] = [
    ...(signed.buyerNameHash ? [{ label: "The giver's name", salt: salts.buyerName as string, hash: signed.buyerNameHash }] : []),
    ...(signed.messageHash ? [{ label: 'The message', salt: salts.message as string, hash: signed.messageHash }] : []),
  ];
  const colophon: ColophonText = {
    title: printed.title,
    author: printed.author,
    name: printed.name,
    formattedDate: dedication.formattedDate,
    authorSigned: authorSignature !== null,
    record: canonicalJson(signed),
    signature: oneLine(input.signature),
    keyId: oneLine(input.keyId),
    privateDetails,
    personaId: printed.personaId,
    verifyUrl: dedication.verifyUrl,
    copyNo: input.copyNo ?? null,
  };

  const problem = personaPrintProblem({ ...printed, message: record.message });
  if (problem) throw new UnprintableTextError(problem);

  const base = input.source.kind === 'text' ? await textBase(input.source.paragraphs, printed) : await pdfBase(input.source.bytes);

  return stampPersona(base, {
    dedication,
    colophon,
    cover,
    authorSignature,
    footer: footerText(printed.name, printed.personaId),
    metadata: {
      title: printed.title,
      author: printed.author,
      subject: `A Persona of ${printed.title} personalised for ${printed.name}`,
      keywords: [printed.personaId, 'Persona', 'Persona Books'],
      creator: PRODUCER,
      producer: PRODUCER,
      date: purchasedAt,
      personaId: printed.personaId,
    },
    // pdf-lib writes no /ID; a fixed one derived from the record keeps the bytes reproducible.
    documentId: sha256Hex(Buffer.from(canonicalJson(record), 'utf8')).slice(0, 32),
    mark: input.mark,
  });
}

function pdfBase(bytes: Uint8Array): Promise<PreparedBase> {
  if (!(bytes instanceof Uint8Array)) return Promise.reject(new UnreadableSourceError("the book's PDF is missing"));
  const key = `pdf:${createHash('sha256').update(bytes).digest('hex')}`;
  return cache.get(key, () => prepareBase(bytes));
}

function textBase(paragraphs: readonly string[], printed: { title: string; author: string }): Promise<PreparedBase> {
  if (!Array.isArray(paragraphs) || !paragraphs.some((p) => typeof p === 'string' && p.replace(/^#\s+/, '').trim() !== '')) {
    return Promise.reject(new UnreadableSourceError('the book has no text to typeset'));
  }
  const key = `text:${createHash('sha256')
    .update(JSON.stringify([1, printed.title, printed.author, paragraphs]))
    .digest('hex')}`;
  return cache.get(key, async () => {
    // The catalogue refuses such a text; one stored before that rule is not printed as empty boxes.
    for (const [index, paragraph] of paragraphs.entries()) {
      const problem = printableTextProblem(paragraph, `Paragraph ${index + 1} of the book's text`);
      if (problem) throw new UnprintableTextError(problem);
    }
    return readBase(await typesetBook(paragraphs, printed));
  });
}

/**
 * The book as typeset from its text, with nothing of the buyer: the title page,
 * then the body, numbered as it will be once the dedication page follows the
 * title page.
 */
async function typesetBook(paragraphs: readonly string[], printed: { title: string; author: string }): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  deferContentCompression(doc.context);
  const fonts = await PersonaFonts.embed(doc);
  drawTitlePage(new Frame(doc.addPage([A5.width, A5.height]), fonts), printed);
  for (const laid of typesetParagraphs(paragraphs, (text, style, size) => fonts.width(text, style, size))) {
    const page = doc.addPage([A5.width, A5.height]);
    fonts.drawLines(page, laid.lines);
    drawPageNumber(page, fonts, doc.getPageCount() + 1);
  }
  fonts.finish(doc);
  compressContentStreams(doc.context);
  return doc.save({ useObjectStreams: false, objectsPerTick: Infinity, updateFieldAppearances: false });
}
