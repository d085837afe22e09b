// The text of an EPUB as an e-reader shows and searches it: its XHTML documents in the spine's
// order, tags removed, entities decoded, one line per block. For the EPUBs the shop makes (read
// with node's own inflate: a test's file, not a stranger's; the shop reads those with
// @persona/untrusted's budgets).
import { inflateRawSync } from 'node:zlib';

/** The files of a ZIP archive by name, from its central directory. */
export function zipFiles(bytes: Uint8Array): Map<string, Buffer> {
  const buffer = Buffer.from(bytes);
  const end = buffer.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a ZIP archive: no end of central directory');
  const count = buffer.readUInt16LE(end + 10);
  let at = buffer.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i += 1) {
    const method = buffer.readUInt16LE(at + 10);
    const size = buffer.readUInt32LE(at + 20);
    const nameLength = buffer.readUInt16LE(at + 28);
    const extra = buffer.readUInt16LE(at + 30) + buffer.readUInt16LE(at + 32);
    const local = buffer.readUInt32LE(at + 42);
    const name = buffer.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    const stored = buffer.subarray(start, start + size);
    files.set(name, method === 8 ? inflateRawSync(stored) : Buffer.from(stored));
    at += 46 + nameLength + extra;
  }
  return files;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Markup as text: block ends are line breaks, other tags nothing, entities decoded. */
function textOf(markup: string): string {
  return markup
    .replace(/<(head|script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(/<\/(p|h[1-6]|div|li|section|blockquote)>|<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(parseInt(dec, 10)))
    .replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_, name: string) => ENTITIES[name]!);
}

/** Each spine document's text, in reading order: lines trimmed, blank lines dropped. */
export function epubTexts(bytes: Uint8Array): string[] {
  const files = zipFiles(bytes);
  const container = files.get('META-INF/container.xml')?.toString('utf8') ?? '';
  const opfPath = /full-path="([^"]+)"/.exec(container)?.[1];
  const opf = opfPath ? files.get(opfPath)?.toString('utf8') : undefined;
  if (!opfPath || !opf) throw new Error('not an EPUB: no package document');
  const base = opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/') + 1) : '';
  const hrefs = new Map([...opf.matchAll(/<item\b[^>]*>/g)].map(([item]) => [/id="([^"]+)"/.exec(item)?.[1], /href="([^"]+)"/.exec(item)?.[1]]));
  return [...opf.matchAll(/<itemref\b[^>]*idref="([^"]+)"/g)].map(([, id]) =>
    textOf(files.get(`${base}${hrefs.get(id)}`)?.toString('utf8') ?? '')
      .split('\n')
      .map((line) => line.replace(/\s+/g, ' ').trim())
      .filter(Boolean)
      .join('\n'),
  );
}
