// The server's stand-in for pdf-sample.ts (vite.config.ts aliases it in the server build): a
// sample PDF is only ever drawn in the browser, and pdf.js has no business in the page renderer.
export function openSamplePdf(): never {
  throw new Error('A sample PDF is shown in the browser only');
}

export function pageText(): never {
  throw new Error('A sample PDF is shown in the browser only');
}
