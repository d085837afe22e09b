// What kind of copy someone sent, by its first bytes (light: the route and the untrusted-file
// threads ask before anything heavy is loaded).
export type CopyFormat = 'pdf' | 'epub';

/** What a copy is, by its first bytes: a PDF (its header within the first kilobyte, as readers allow), an EPUB (a ZIP whose first entry says so). */
export function copyFormat(bytes: Uint8Array): CopyFormat | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  if (head.includes('%PDF-')) return 'pdf';
  if (head.startsWith('PK\x03\x04') && head.slice(30, 100).includes('mimetypeapplication/epub+zip')) return 'epub';
  return null;
}
