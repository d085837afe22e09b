// The facts a book's page states that are counted, not typed: the words of its full text and
// the pages of its full PDF.
import { PDFDocument } from 'pdf-lib';

/** Words of the full text (runs of non-space characters); null when it has none. */
export function countWords(paragraphs: readonly string[]): number | null {
  const words = paragraphs.reduce((n, paragraph) => n + (paragraph.match(/\S+/g)?.length ?? 0), 0);
  return words > 0 ? words : null;
}

/**
 * Pages of an uploaded full PDF; null when it cannot be read as one (the upload is still kept:
 * making the Persona from it is what fails then, recorded on the order for the administrator).
 */
export async function countPdfPages(bytes: Uint8Array): Promise<number | null> {
  try {
    const pages = (await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false })).getPageCount();
    return pages > 0 ? pages : null;
  } catch {
    return null;
  }
}
