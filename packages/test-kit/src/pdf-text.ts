// The text of each page of a PDF, as pdf.js extracts it (with each font's ToUnicode map): what a
// reader's copy-and-paste or a search engine gets. Used by the Persona engine's tests and the
// browser journeys that read a downloaded Persona.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** pdfjs-dist is ESM-only: it runs in a child process, whatever module mode the test runs in. */
const SCRIPT = join(__dirname, '..', 'pdf-text.mjs');

/** One string per page, NFC-normalised, runs of blanks within a line collapsed to one space. */
export function extractPageTexts(bytes: Uint8Array): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [SCRIPT], { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NODE_OPTIONS: '' } }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`pdf text extraction failed: ${stderr || error.message}`));
      const pages = JSON.parse(stdout) as string[];
      resolve(pages.map((text) => text.normalize('NFC').replace(/[^\S\n]+/g, ' ')));
    });
    child.stdin?.end(Buffer.from(bytes));
  });
}

/** pdftotext's ways of reading a page: its default reading order, -layout (the page's columns kept) and -raw (content-stream order). */
export const POPPLER_MODES = ['reading', 'layout', 'raw'] as const;
export type PopplerMode = (typeof POPPLER_MODES)[number];

/**
 * The text of each page as poppler's pdftotext reads it (a second reader beside pdf.js: evince,
 * okular and most search indexers read PDFs with poppler; it takes /ActualText spans, pdf.js does
 * not). Lines are trimmed, runs of blanks collapsed, blank lines dropped, and poppler's own bidi
 * controls (the embeddings it wraps around right-to-left text, and a left-to-right mark) removed:
 * what is left is the text as typed, line by line.
 */
export function popplerPageTexts(bytes: Uint8Array, mode: PopplerMode): Promise<string[]> {
  const flags = { reading: [], layout: ['-layout'], raw: ['-raw'] }[mode];
  return new Promise((resolve, reject) => {
    const child = execFile(
      '/usr/bin/pdftotext',
      [...flags, '-enc', 'UTF-8', '-', '-'],
      { maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`pdftotext failed: ${stderr || error.message}`));
        const pages = stdout.split('\f');
        if (pages[pages.length - 1] === '') pages.pop();
        resolve(pages.map(tidyLines));
      },
    );
    child.stdin?.end(Buffer.from(bytes));
  });
}

/** PDFium's functions the reader calls (a WebAssembly build from npm: @embedpdf/pdfium). */
interface Pdfium {
  FPDF_InitLibrary(): void;
  FPDF_LoadMemDocument(pointer: number, size: number, password: string): number;
  FPDF_GetPageCount(doc: number): number;
  FPDF_LoadPage(doc: number, index: number): number;
  FPDF_ClosePage(page: number): void;
  FPDF_CloseDocument(doc: number): void;
  FPDFText_LoadPage(page: number): number;
  FPDFText_ClosePage(text: number): void;
  FPDFText_CountChars(text: number): number;
  FPDFText_GetText(text: number, start: number, count: number, buffer: number): number;
  pdfium: { HEAPU8: Uint8Array; wasmExports: { malloc(size: number): number; free(pointer: number): void }; UTF16ToString(pointer: number): string };
}

let pdfium: Promise<Pdfium> | null = null;

function loadPdfium(): Promise<Pdfium> {
  pdfium ??= (async () => {
    const { init } = (await import('@embedpdf/pdfium')) as unknown as { init(options: { wasmBinary: Uint8Array }): Promise<Pdfium> };
    const wasm = join(dirname(require.resolve('@embedpdf/pdfium')), 'pdfium.wasm');
    const module = await init({ wasmBinary: new Uint8Array(readFileSync(wasm)) });
    module.FPDF_InitLibrary();
    return module;
  })();
  return pdfium;
}

/**
 * The text of each page as PDFium reads it: the engine of Chromium's PDF viewer, whose copy and
 * search take the text this way (it takes /ActualText spans, and reorders a line with right-to-left
 * text in it by its own bidi rules). Lines tidied as popplerPageTexts tidies them.
 */
export async function pdfiumPageTexts(bytes: Uint8Array): Promise<string[]> {
  const lib = await loadPdfium();
  const memory = lib.pdfium.wasmExports;
  const pointer = memory.malloc(bytes.length);
  lib.pdfium.HEAPU8.set(bytes, pointer);
  const doc = lib.FPDF_LoadMemDocument(pointer, bytes.length, '');
  if (!doc) throw new Error('PDFium could not open the PDF');
  const pages: string[] = [];
  try {
    for (let index = 0; index < lib.FPDF_GetPageCount(doc); index += 1) {
      const page = lib.FPDF_LoadPage(doc, index);
      const text = lib.FPDFText_LoadPage(page);
      const count = lib.FPDFText_CountChars(text);
      const buffer = memory.malloc((count + 1) * 2);
      lib.FPDFText_GetText(text, 0, count, buffer);
      pages.push(tidyLines(lib.pdfium.UTF16ToString(buffer)));
      memory.free(buffer);
      lib.FPDFText_ClosePage(text);
      lib.FPDF_ClosePage(page);
    }
  } finally {
    lib.FPDF_CloseDocument(doc);
    memory.free(pointer);
  }
  return pages;
}

/** Lines trimmed, runs of blanks collapsed, blank lines and bidi controls dropped. */
function tidyLines(page: string): string {
  return page
    .normalize('NFC')
    .replace(/[\u200e\u200f\u202a-\u202e]/g, '')
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

/** Every reader's text of a PDF's pages: pdf.js's, PDFium's and each of poppler's modes, lines trimmed and blank lines dropped. */
export async function pageTextsByReader(bytes: Uint8Array): Promise<Record<'pdf.js' | 'pdfium' | `poppler ${PopplerMode}`, string[]>> {
  const tidy = (page: string) =>
    page
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .join('\n');
  const [pdfjs, viewer, ...poppler] = await Promise.all([
    extractPageTexts(bytes),
    pdfiumPageTexts(bytes),
    ...POPPLER_MODES.map((mode) => popplerPageTexts(bytes, mode)),
  ]);
  return {
    'pdf.js': pdfjs.map(tidy),
    pdfium: viewer as string[],
    'poppler reading': poppler[0]!,
    'poppler layout': poppler[1]!,
    'poppler raw': poppler[2]!,
  };
}
