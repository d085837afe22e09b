// The text of each page of a PDF, as pdf.js extracts it (with each font's ToUnicode map): what a
// reader's copy-and-paste or a search engine gets. Used by the Persona engine's tests and the
// browser journeys that read a downloaded Persona.
import { execFile } from 'node:child_process';
import { join } from 'node:path';

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
        resolve(
          pages.map((page) =>
            page
              .normalize('NFC')
              .replace(/[\u200e\u200f\u202a-\u202e]/g, '')
              .split('\n')
              .map((line) => line.replace(/\s+/g, ' ').trim())
              .filter(Boolean)
              .join('\n'),
          ),
        );
      },
    );
    child.stdin?.end(Buffer.from(bytes));
  });
}

/** Every reader's text of a PDF's pages: pdf.js's and each of poppler's modes, lines trimmed and blank lines dropped. */
export async function pageTextsByReader(bytes: Uint8Array): Promise<Record<'pdf.js' | `poppler ${PopplerMode}`, string[]>> {
  const tidy = (page: string) =>
    page
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .join('\n');
  const [pdfjs, ...poppler] = await Promise.all([extractPageTexts(bytes), ...POPPLER_MODES.map((mode) => popplerPageTexts(bytes, mode))]);
  return {
    'pdf.js': pdfjs.map(tidy),
    'poppler reading': poppler[0]!,
    'poppler layout': poppler[1]!,
    'poppler raw': poppler[2]!,
  };
}
