// A Persona's interior as a print house takes it (issue 27): its pages (the cover page apart: the
// cover is a file of its own), each on a sheet the trim size plus the bleed on every side, with its
// TrimBox and BleedBox; a page of another size (an uploaded book's) scaled to fit the trim and
// centred, a rotated one turned upright; a blank page added to make the count even; nothing
// interactive. The pages' own content is kept as it is (its fonts, its leak mark), wrapped in a
// transformation: no page is drawn again.
import { PDFArray, PDFDocument, PDFName, PDFNumber, type PDFPage } from 'pdf-lib';
import { BLEED, TRIM } from './print-specs';

export interface PrintInterior {
  bytes: Uint8Array;
  /** Its pages, the blank one added to make the count even included. */
  pages: number;
}

const N = (name: string) => PDFName.of(name);

/** The matrix that puts a page shown as `box` turned by `rotation` upright in the trim area, scaled to fit and centred. */
export function uprightMatrix(
  box: { x: number; y: number; width: number; height: number },
  rotation: number,
): [number, number, number, number, number, number] {
  const r = ((rotation % 360) + 360) % 360;
  const sideways = r === 90 || r === 270;
  const [w, h] = sideways ? [box.height, box.width] : [box.width, box.height];
  const s = Math.min(TRIM.width / w, TRIM.height / h);
  const tx = BLEED + (TRIM.width - s * w) / 2;
  const ty = BLEED + (TRIM.height - s * h) / 2;
  const { x: x0, y: y0, width: bw, height: bh } = box;
  // Where a point of the page lands, as the viewer shows it turned (PDF /Rotate turns clockwise).
  if (r === 90) return [0, -s, s, 0, tx - s * y0, ty + s * (bw + x0)];
  if (r === 180) return [-s, 0, 0, -s, tx + s * (bw + x0), ty + s * (bh + y0)];
  if (r === 270) return [0, s, -s, 0, tx + s * (bh + y0), ty - s * x0];
  return [s, 0, 0, s, tx - s * x0, ty - s * y0];
}

const box = (x1: number, y1: number, x2: number, y2: number, doc: PDFDocument) => doc.context.obj([x1, y1, x2, y2].map((n) => PDFNumber.of(n)));

/** Puts one page on its print sheet. */
function toSheet(doc: PDFDocument, page: PDFPage): void {
  const shown = page.getCropBox();
  const matrix = uprightMatrix(shown, page.getRotation().angle);
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
  const before = doc.context.flateStream(`q ${matrix.map((n) => +n.toFixed(6)).join(' ')} cm\n`);
  const after = doc.context.flateStream('\nQ\n');
  page.node.set(N('Contents'), doc.context.obj([doc.context.register(before), ...streams, doc.context.register(after)]));
  const sheet = { width: TRIM.width + 2 * BLEED, height: TRIM.height + 2 * BLEED };
  page.node.set(N('MediaBox'), box(0, 0, sheet.width, sheet.height, doc));
  page.node.set(N('BleedBox'), box(0, 0, sheet.width, sheet.height, doc));
  page.node.set(N('TrimBox'), box(BLEED, BLEED, BLEED + TRIM.width, BLEED + TRIM.height, doc));
  // Set, not removed: a page inherits a CropBox or a Rotate its page-tree parent has.
  page.node.set(N('CropBox'), box(0, 0, sheet.width, sheet.height, doc));
  page.node.set(N('Rotate'), PDFNumber.of(0));
  for (const key of ['ArtBox', 'Annots', 'AA']) page.node.delete(N(key));
}

/**
 * The interior of Persona PDF `persona`; `hasCover`: its first page is the book's cover (the
 * engine puts it there when the book has one), left out.
 */
export async function printInterior(persona: Uint8Array, options: { hasCover: boolean; title: string }): Promise<PrintInterior> {
  const doc = await PDFDocument.load(persona, { updateMetadata: false });
  if (options.hasCover) doc.removePage(0);
  for (const page of doc.getPages()) toSheet(doc, page);
  // Sheets are printed both sides: an odd count ends on a blank page.
  if (doc.getPageCount() % 2 === 1) {
    const blank = doc.addPage([TRIM.width + 2 * BLEED, TRIM.height + 2 * BLEED]);
    blank.node.set(N('BleedBox'), box(0, 0, TRIM.width + 2 * BLEED, TRIM.height + 2 * BLEED, doc));
    blank.node.set(N('TrimBox'), box(BLEED, BLEED, BLEED + TRIM.width, BLEED + TRIM.height, doc));
  }
  // Nothing that acts: no outline entries pointing at pages moved, no forms, no scripts.
  for (const key of ['OpenAction', 'AA', 'AcroForm', 'Names', 'Outlines']) doc.catalog.delete(N(key));
  doc.setTitle(`${options.title} (interior for print)`);
  return { bytes: await doc.save({ useObjectStreams: false }), pages: doc.getPageCount() };
}
