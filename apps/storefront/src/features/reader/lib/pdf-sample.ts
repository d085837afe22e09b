// pdf.js for a book's sample PDF. Loaded only when such a sample is shown (its own chunk; the
// server's bundle has a stand-in, pdf-sample.server.ts), with its worker bundled by Vite beside
// it: nothing is fetched from anywhere but the shop.
import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy, type PDFPageProxy, type RenderTask } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

export type { PDFDocumentProxy, PDFPageProxy, RenderTask };

GlobalWorkerOptions.workerSrc = workerUrl;

/** Opens the sample PDF at `url` (the shop's own file address). */
export function openSamplePdf(url: string): { promise: Promise<PDFDocumentProxy>; destroy: () => Promise<void> } {
  // No eval (the page's CSP forbids it) and no fonts or maps from elsewhere: what the PDF embeds is what it shows.
  const task = getDocument({ url, isEvalSupported: false, disableFontFace: false, useSystemFonts: true, stopAtErrors: false });
  return { promise: task.promise, destroy: () => task.destroy() };
}

/** A page's words, in reading order, for screen readers (the page itself is a picture on a canvas). */
export async function pageText(page: PDFPageProxy): Promise<string> {
  const content = await page.getTextContent();
  return content.items
    .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
    .join('')
    .replace(/[ \t]+/g, ' ')
    .trim();
}
