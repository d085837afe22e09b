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
