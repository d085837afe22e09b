// The preflight of every print file the shop makes (issue 27), read back two ways, as a print house
// would: the pdf-lib reader (each page's TrimBox, BleedBox and MediaBox; the spread's spine; every
// font's program embedded, through form XObjects too) and poppler (`pdfinfo -box` for the same
// boxes, `pdffonts` for embedding, `pdfimages -list` for each image's resolution at its printed
// size). A file with a problem is not sent to print: the problems say what and where.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, type PDFNumber, type PDFObject } from 'pdf-lib';
import { BLEED, MIN_PPI, POINTS_PER_INCH, SPINE_TOLERANCE_INCHES, TRIM } from './print-specs';

const run = promisify(execFile);

export type PrintFileKind = 'interior' | 'cover';

export interface PreflightExpectation {
  kind: PrintFileKind;
  /** The cover's spine by the formula (spineInches), in inches. */
  spineInches?: number;
}

export interface PreflightReport {
  kind: PrintFileKind;
  pages: number;
  /** What does not hold, each saying where: empty when the file is ready to print. */
  problems: string[];
  /** The lowest image resolution at its printed size (null: no image). */
  minPpi: number | null;
}

type Box = [number, number, number, number];
const TOLERANCE = 0.01;
const near = (a: number, b: number, tolerance = TOLERANCE) => Math.abs(a - b) <= tolerance;
const sameBox = (a: Box, b: Box, tolerance = TOLERANCE) => a.every((n, i) => near(n, b[i]!, tolerance));
const show = (box: Box) => `[${box.map((n) => +n.toFixed(2)).join(' ')}]`;

/** The trim a file of this kind must have, in points. */
function expectedTrim(expect: PreflightExpectation): { width: number; height: number } {
  if (expect.kind === 'interior') return TRIM;
  return { width: 2 * TRIM.width + (expect.spineInches ?? 0) * POINTS_PER_INCH, height: TRIM.height };
}

function readBox(dict: PDFDict, key: string): Box | null {
  let node: PDFDict | undefined = dict;
  // MediaBox and CropBox are inherited from the page tree; TrimBox and BleedBox are not.
  for (let depth = 0; node && depth < 32; depth += 1) {
    const value = node.lookup(PDFName.of(key));
    if (value instanceof PDFArray && value.size() === 4) {
      const [x1, y1, x2, y2] = value.asArray().map((n) => (node!.context.lookup(n) as PDFNumber).asNumber()) as Box;
      return [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)];
    }
    if (key !== 'MediaBox' && key !== 'CropBox') return null;
    node = node.lookup(PDFName.of('Parent')) as PDFDict | undefined;
  }
  return null;
}

/** Every font dictionary a page's resources name, through form XObjects, each with whether its program is embedded. */
function fontsOf(resources: PDFDict | undefined, seen: Set<PDFObject>, out: Array<{ name: string; embedded: boolean }>): void {
  if (!resources || seen.has(resources)) return;
  seen.add(resources);
  const fonts = resources.lookup(PDFName.of('Font'));
  if (fonts instanceof PDFDict) {
    for (const value of fonts.values()) {
      const font = resources.context.lookup(value);
      if (!(font instanceof PDFDict) || seen.has(font)) continue;
      seen.add(font);
      const name = String(font.lookup(PDFName.of('BaseFont')) ?? 'a font without a name').replace(/^\//, '');
      const subtype = String(font.lookup(PDFName.of('Subtype')));
      if (subtype === '/Type3') continue;
      const descendant = subtype === '/Type0' ? (font.lookup(PDFName.of('DescendantFonts')) as PDFArray | undefined)?.lookup(0) : font;
      const descriptor = descendant instanceof PDFDict ? descendant.lookup(PDFName.of('FontDescriptor')) : undefined;
      const embedded = descriptor instanceof PDFDict && ['FontFile', 'FontFile2', 'FontFile3'].some((k) => descriptor.has(PDFName.of(k)));
      out.push({ name, embedded });
    }
  }
  const xobjects = resources.lookup(PDFName.of('XObject'));
  if (xobjects instanceof PDFDict) {
    for (const value of xobjects.values()) {
      const xobject = resources.context.lookup(value);
      if (xobject instanceof PDFRawStream && String(xobject.dict.lookup(PDFName.of('Subtype'))) === '/Form') {
        fontsOf(xobject.dict.lookup(PDFName.of('Resources')) as PDFDict | undefined, seen, out);
      }
    }
  }
}

/** What the pdf-lib reader finds: the boxes of each page against the trim and bleed, and fonts not embedded. */
async function readWithPdfLib(
  bytes: Uint8Array,
  expect: PreflightExpectation,
  problems: string[],
): Promise<{ pages: number; boxes: Array<Record<string, Box | null>> }> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const trim = expectedTrim(expect);
  const pages = doc.getPages();
  const boxes: Array<Record<string, Box | null>> = [];
  if (expect.kind === 'interior' && pages.length % 2 === 1) problems.push(`the interior has ${pages.length} pages: a printed book's count is even`);
  if (expect.kind === 'cover' && pages.length !== 1) problems.push(`the cover is ${pages.length} pages: it is one spread`);
  const seen = new Set<PDFObject>();
  const fonts: Array<{ name: string; embedded: boolean; page: number }> = [];
  pages.forEach((page, index) => {
    const n = index + 1;
    const read = { MediaBox: readBox(page.node, 'MediaBox'), TrimBox: readBox(page.node, 'TrimBox'), BleedBox: readBox(page.node, 'BleedBox') };
    boxes.push(read);
    if (!read.TrimBox || !read.BleedBox) {
      problems.push(`page ${n} has no ${!read.TrimBox ? 'TrimBox' : 'BleedBox'}`);
      return;
    }
    const [tx1, ty1, tx2, ty2] = read.TrimBox;
    if (!near(tx2 - tx1, trim.width, expect.kind === 'cover' ? SPINE_TOLERANCE_INCHES * POINTS_PER_INCH : TOLERANCE) || !near(ty2 - ty1, trim.height)) {
      problems.push(`page ${n}'s TrimBox ${show(read.TrimBox)} is not ${+trim.width.toFixed(2)} × ${+trim.height.toFixed(2)} pt`);
    }
    const bleed: Box = [tx1 - BLEED, ty1 - BLEED, tx2 + BLEED, ty2 + BLEED];
    if (!sameBox(read.BleedBox, bleed))
      problems.push(`page ${n}'s BleedBox ${show(read.BleedBox)} is not its TrimBox with 0.125 in on every side ${show(bleed)}`);
    const media = read.MediaBox;
    if (!media || media[0] > bleed[0] + TOLERANCE || media[1] > bleed[1] + TOLERANCE || media[2] < bleed[2] - TOLERANCE || media[3] < bleed[3] - TOLERANCE)
      problems.push(`page ${n}'s MediaBox ${media ? show(media) : '(none)'} does not hold its bleed`);
    const found: Array<{ name: string; embedded: boolean }> = [];
    fontsOf(page.node.lookup(PDFName.of('Resources')) as PDFDict | undefined, seen, found);
    for (const font of found) fonts.push({ ...font, page: n });
  });
  if (expect.kind === 'cover' && expect.spineInches !== undefined && boxes[0]?.TrimBox) {
    const spine = (boxes[0].TrimBox[2] - boxes[0].TrimBox[0] - 2 * TRIM.width) / POINTS_PER_INCH;
    if (!near(spine, expect.spineInches, SPINE_TOLERANCE_INCHES))
      problems.push(`the spine is ${spine.toFixed(4)} in, not ${expect.spineInches.toFixed(4)} in (within ${SPINE_TOLERANCE_INCHES} in)`);
  }
  for (const font of fonts) if (!font.embedded) problems.push(`the font ${font.name} (page ${font.page}) is not embedded`);
  return { pages: pages.length, boxes };
}

/** Runs a poppler tool; null when poppler is not installed. */
async function poppler(tool: string, args: string[]): Promise<string | null> {
  try {
    return (await run(tool, args, { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`${tool} could not read the file: ${(err as { stderr?: string }).stderr?.trim() || (err as Error).message}`, { cause: err });
  }
}

/** Checks a print file; answers every problem found (none: it is ready to print). */
export async function preflight(bytes: Uint8Array, expect: PreflightExpectation): Promise<PreflightReport> {
  const problems: string[] = [];
  let read: Awaited<ReturnType<typeof readWithPdfLib>>;
  try {
    read = await readWithPdfLib(bytes, expect, problems);
  } catch (err) {
    return { kind: expect.kind, pages: 0, problems: [`the file cannot be read as a PDF: ${(err as Error).message}`], minPpi: null };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'preflight-'));
  let minPpi: number | null = null;
  try {
    const file = path.join(dir, `${expect.kind}.pdf`);
    await writeFile(file, bytes);
    const [info, fonts, images] = await Promise.all([
      poppler('pdfinfo', ['-box', '-f', '1', '-l', String(read.pages), file]),
      poppler('pdffonts', [file]),
      poppler('pdfimages', ['-list', file]),
    ]);
    if (info === null || fonts === null || images === null) {
      problems.push('poppler-utils (pdfinfo, pdffonts, pdfimages) is not installed: the file could not be checked as a print house reads it');
      return { kind: expect.kind, pages: read.pages, problems, minPpi };
    }
    // pdfinfo's boxes, page by page, the same as the reader's.
    for (const m of info.matchAll(/^Page\s+(\d+)\s+(MediaBox|TrimBox|BleedBox):\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*$/gm)) {
      const n = Number(m[1]);
      const box = [m[3], m[4], m[5], m[6]].map(Number) as Box;
      const ours = read.boxes[n - 1]?.[m[2] as 'MediaBox' | 'TrimBox' | 'BleedBox'];
      if (ours && !sameBox(ours, box, 0.05)) problems.push(`pdfinfo reads page ${n}'s ${m[2]} as ${show(box)}, not ${show(ours)}`);
    }
    // pdffonts: name, type (words), encoding, emb, sub, uni, object, ID: "emb" is the fifth column from the end.
    for (const line of fonts.split('\n').slice(2)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 7) continue;
      const emb = cols[cols.length - 5];
      if (emb !== 'yes') problems.push(`pdffonts: the font ${cols[0]} is not embedded`);
    }
    // pdfimages -list: page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio.
    for (const line of images.split('\n').slice(2)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 14 || cols[2] !== 'image') continue;
      const ppi = Math.min(Number(cols[12]), Number(cols[13]));
      if (!Number.isFinite(ppi)) continue;
      minPpi = minPpi === null ? ppi : Math.min(minPpi, ppi);
      if (ppi < MIN_PPI) problems.push(`an image on page ${cols[0]} (${cols[3]} × ${cols[4]} px) prints at ${ppi} ppi: ${MIN_PPI} are needed`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { kind: expect.kind, pages: read.pages, problems, minPpi };
}
