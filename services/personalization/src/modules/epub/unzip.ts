// Reads the files of a ZIP archive (an EPUB someone else may have written):
// the central directory says where each is; stored and deflated entries are
// read, anything else is skipped. Bounded: an archive may not unpack to more
// than `maxBytes` in all (a small file can inflate to gigabytes).
import { inflateRawSync } from 'node:zlib';

export class UnreadableArchiveError extends Error {
  override readonly name = 'UnreadableArchiveError';
}

export interface UnzippedEntry {
  name: string;
  data: Buffer;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

export function unzip(bytes: Uint8Array, { maxBytes = 256 * 1024 * 1024, want = (_name: string): boolean => true } = {}): UnzippedEntry[] {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-directory record is in the last 22 + 65,535 bytes (its comment at most that long).
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at -= 1) {
    if (zip.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new UnreadableArchiveError('it is not a ZIP archive (no central directory)');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: UnzippedEntry[] = [];
  let total = 0;
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new UnreadableArchiveError('its central directory is broken');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (!want(name) || (method !== 0 && method !== 8)) continue;
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL_HEADER) throw new UnreadableArchiveError(`its entry ${name} is broken`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    if (start + compressed > zip.length) throw new UnreadableArchiveError(`its entry ${name} is cut short`);
    const raw = zip.subarray(start, start + compressed);
    total += size;
    if (total > maxBytes) throw new UnreadableArchiveError('it unpacks to more than an EPUB could hold');
    let data: Buffer;
    try {
      data = method === 0 ? Buffer.from(raw) : inflateRawSync(raw, { maxOutputLength: Math.max(1, maxBytes - (total - size)) });
    } catch {
      throw new UnreadableArchiveError(`its entry ${name} cannot be inflated`);
    }
    entries.push({ name, data });
  }
  return entries;
}
