// Reads the leak mark from a copy found in the wild, whatever program last
// wrote it: a PDF's pages are rendered by pdf.js (the top of each page, where
// the row of dots is) and the dots found by their colour; an EPUB's text is
// read in reading order and the symbols collected (epub-mark.ts). The copy is
// untrusted: it is measured first (a PDF's streams and pictures, an EPUB's
// entries, within the budget), and runs on an untrusted-file thread
// (copy-checks/copy-tasks.ts) with its heap and time limits.
import { createCanvas } from '@napi-rs/canvas';
import { BudgetMeter, DOCUMENT_BUDGET, type FileBudget, gaugePdf, readZip } from '@persona/untrusted';
import { framesInText } from './epub-mark';
import { agreeOnMark, markOfFrame } from './mark-code';
import { type CopyFormat, copyFormat } from './copy-format';
import { MARK_INK, frameOfRow } from './pdf-mark';

export interface MarkReading {
  format: CopyFormat;
  /** The mark the copy carries, or null. */
  mark: number | null;
  /** PDF: pages read and pages whose row of dots gave this mark; EPUB: frames read whole and frames agreeing. */
  read: number;
  agreeing: number;
  /** PDF: pages the copy has (only the first few are read); EPUB: files of text read. */
  total: number;
}

/** Pages rendered at most: every page carries the whole mark, and the first readable ones settle it. */
export const MAX_PAGES_READ = 12;
/** Enough pages agreeing to stop reading. */
const PAGES_AGREEING = 3;
/** Pixels per point: a 0.8 pt dot is then over three pixels wide. */
const RENDER_SCALE = 4;
/** The band at the top of a page that is rendered (the row is 10 pt down at A5, at most 16 pt on a large page). */
const BAND_POINTS = 40;
const MAX_RENDER_WIDTH = 4000;

export async function readMark(bytes: Uint8Array, budget: FileBudget = DOCUMENT_BUDGET): Promise<MarkReading> {
  const format = copyFormat(bytes);
  if (format === 'epub') return readEpubMark(bytes, new BudgetMeter(budget, 'This EPUB'));
  if (format === 'pdf') return readPdfMark(bytes, new BudgetMeter(budget, 'This PDF'));
  throw new TypeError('the copy is neither a PDF nor an EPUB');
}

// ---------------------------------------------------------------- EPUB

function textOfMarkup(markup: string): string {
  return markup
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => safeChar(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => safeChar(parseInt(dec, 10)))
    .replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' })[name]!);
}

const safeChar = (code: number) => (code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ');

/** The text documents of an EPUB in reading order: its package's spine, else the archive's order. */
function readingOrder(files: Map<string, Buffer>): string[] {
  const container = files.get('META-INF/container.xml')?.toString('utf8') ?? '';
  const opfPath = /full-path="([^"]+)"/.exec(container)?.[1];
  const opf = opfPath ? files.get(opfPath)?.toString('utf8') : undefined;
  const texts = [...files.keys()].filter((name) => /\.(x?html?|txt)$/i.test(name));
  if (!opfPath || !opf) return texts;
  const base = opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/') + 1) : '';
  const hrefs = new Map<string, string>();
  for (const [item] of opf.matchAll(/<item\b[^>]*>/g)) {
    const id = /\bid="([^"]+)"/.exec(item)?.[1];
    const href = /\bhref="([^"]+)"/.exec(item)?.[1];
    if (id && href) hrefs.set(id, base + decodeURIComponent(href));
  }
  const spine = [...opf.matchAll(/<itemref\b[^>]*\bidref="([^"]+)"/g)].map(([, id]) => hrefs.get(id!)).filter((p): p is string => Boolean(p && files.has(p)));
  return [...spine, ...texts.filter((name) => !spine.includes(name))];
}

function readEpubMark(bytes: Uint8Array, meter: BudgetMeter): MarkReading {
  const entries = readZip(bytes, meter, { want: (name) => /\.(x?html?|txt|opf)$/i.test(name) || name === 'META-INF/container.xml' });
  const files = new Map(entries.map((e) => [e.name, e.data]));
  const order = readingOrder(files);
  const text = order.map((name) => textOfMarkup(files.get(name)!.toString('utf8'))).join('\n');
  const frames = framesInText(text);
  const agreed = agreeOnMark(frames);
  return { format: 'epub', mark: agreed?.mark ?? null, read: frames.length, agreeing: agreed?.agreeing ?? 0, total: order.length };
}

// ---------------------------------------------------------------- PDF

interface Blob {
  x: number;
  y: number;
}

/** Connected patches of mark-coloured pixels (the dots; anti-aliased edges count while the yellow is clear). */
export function findDots(rgba: Uint8ClampedArray, width: number, height: number): Blob[] {
  const [r0, g0, b0] = MARK_INK.map((c) => Math.round(c * 255)) as [number, number, number];
  const ink = new Uint8Array(width * height);
  for (let i = 0, p = 0; p < ink.length; i += 4, p += 1) {
    const [r, g, b] = [rgba[i]!, rgba[i + 1]!, rgba[i + 2]!];
    // At least 40% of the dot's yellow over white, and nothing darker than the ink itself.
    if (r >= r0 - 12 && g >= g0 - 12 && r - b >= 0.4 * (r0 - b0) && b >= b0 - 24) ink[p] = 1;
  }
  const blobs: Blob[] = [];
  const stack: number[] = [];
  for (let start = 0; start < ink.length; start += 1) {
    if (!ink[start]) continue;
    ink[start] = 0;
    stack.push(start);
    let [sx, sy, n] = [0, 0, 0];
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % width;
      const y = (p - x) / width;
      sx += x;
      sy += y;
      n += 1;
      for (const q of [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, y > 0 ? p - width : -1, y < height - 1 ? p + width : -1]) {
        if (q >= 0 && ink[q]) {
          ink[q] = 0;
          stack.push(q);
        }
      }
    }
    if (n >= 2 && n <= 400) blobs.push({ x: sx / n + 0.5, y: sy / n + 0.5 });
  }
  return blobs;
}

/** The frames carried by the rows of dots among these: dots on one line, left to right. */
export function framesOfDots(dots: readonly Blob[]): number[][] {
  const byY = [...dots].sort((a, b) => a.y - b.y);
  const frames: number[][] = [];
  let row: Blob[] = [];
  const flush = () => {
    const frame = frameOfRow(row.map((d) => d.x).sort((a, b) => a - b));
    if (frame) frames.push(frame);
  };
  for (const dot of byY) {
    if (row.length && dot.y - row[0]!.y > 1.5) {
      flush();
      row = [];
    }
    row.push(dot);
  }
  if (row.length) flush();
  return frames;
}

async function readPdfMark(bytes: Uint8Array, meter: BudgetMeter): Promise<MarkReading> {
  // pdf.js decodes no more than this counts (and draws no picture over the pixel budget: maxImageSize).
  gaugePdf(bytes, meter);
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // pdf.js takes the buffer it is given; a copy leaves the caller's alone.
  const doc = await pdfjs.getDocument({
    data: new Uint8Array(bytes),
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    stopAtErrors: false,
    maxImageSize: meter.budget.imagePixels,
    verbosity: 0,
  }).promise;
  try {
    const frames: number[][] = [];
    const counts = new Map<number, number>();
    let read = 0;
    for (let n = 1; n <= Math.min(doc.numPages, MAX_PAGES_READ); n += 1) {
      const page = await doc.getPage(n);
      const natural = page.getViewport({ scale: 1 });
      const scale = Math.min(RENDER_SCALE, MAX_RENDER_WIDTH / natural.width);
      const viewport = page.getViewport({ scale });
      const width = Math.ceil(viewport.width);
      const height = Math.min(Math.ceil(viewport.height), Math.ceil(BAND_POINTS * scale));
      const canvas = createCanvas(width, height);
      const context = canvas.getContext('2d');
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, width, height);
      try {
        await page.render({ canvasContext: context as never, canvas: canvas as never, viewport }).promise;
      } catch {
        continue; // a page pdf.js cannot draw says nothing either way
      } finally {
        page.cleanup();
      }
      read += 1;
      for (const frame of framesOfDots(findDots(context.getImageData(0, 0, width, height).data, width, height))) {
        frames.push(frame);
        const mark = markOfFrame(frame);
        if (mark !== null) counts.set(mark, (counts.get(mark) ?? 0) + 1);
      }
      if ([...counts.values()].some((c) => c >= PAGES_AGREEING)) break;
    }
    const agreed = agreeOnMark(frames);
    return { format: 'pdf', mark: agreed?.mark ?? null, read, agreeing: agreed?.agreeing ?? 0, total: doc.numPages };
  } finally {
    await doc.destroy();
  }
}
