// Test helpers: the text of each page of a PDF (test-kit's, as pdfjs-dist extracts it), and where
// pdf.js shows each page's footer.
export { extractPageTexts } from '@persona/test-kit';
import { execFile } from 'node:child_process';
import { join } from 'node:path';

export interface FooterGeometry {
  width: number;
  height: number;
  rotate: number;
  /** The footer's baseline in viewer space (origin top-left, y down), once per footer text item found. */
  footer: Array<{ start: [number, number]; end: [number, number] }>;
}

const GEOMETRY = join(__dirname, '..', '..', 'fixtures', 'footer-geometry.mjs');

/** Where pdf.js shows each page's footer. */
export function footerGeometry(bytes: Uint8Array): Promise<FooterGeometry[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [GEOMETRY],
      { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`pdf footer geometry failed: ${stderr || error.message}`));
        resolve(JSON.parse(stdout) as FooterGeometry[]);
      },
    );
    child.stdin?.end(Buffer.from(bytes));
  });
}
