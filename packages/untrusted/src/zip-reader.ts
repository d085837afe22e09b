// Reads the files of a ZIP archive someone else wrote (an EPUB uploaded to be
// checked), within a budget: the central directory says where each entry is;
// every entry is counted, its bytes must lie inside the archive and apart from
// every other entry's (overlapping entries are how a 66 KB archive unpacks to
// gigabytes), and only the entries asked for are unpacked, each counted on the
// bytes it produces and stopped at the size its directory record states.
import { type BudgetMeter, unreadable } from './budget';
import { inflateCounted } from './bounded-inflate';

export interface ZipEntry {
  name: string;
  data: Buffer;
}

export interface ZipReadOptions {
  /** Entries to unpack (others are located and counted, never unpacked). Default: all. */
  want?: (name: string) => boolean;
  /**
   * Leave out an entry that cannot be unpacked or holds less than its record states, instead of
   * refusing the archive (a search through a damaged copy); what it produced is counted all the same.
   * One that holds more is refused all the same: no damage does that.
   */
  skipDamaged?: boolean;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_LOCATOR = 0x07064b50;

interface Located {
  name: string;
  method: number;
  flags: number;
  /** The entry's span in the archive: its local header to the end of its data. */
  from: number;
  dataStart: number;
  to: number;
  size: number;
}

/** The archive's entries (those `want` asks for, unpacked), in directory order. Throws a `FileRefusedError` for a broken or over-budget archive. */
export function readZip(bytes: Uint8Array, meter: BudgetMeter, { want = () => true, skipDamaged = false }: ZipReadOptions = {}): ZipEntry[] {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const broken = (why: string) => unreadable(meter.file, why);
  const end = findEndOfDirectory(zip);
  if (end < 0) throw broken('it is not a ZIP archive (no central directory)');
  if (end >= 20 && zip.readUInt32LE(end - 20) === ZIP64_LOCATOR) throw broken('it is a ZIP64 archive, which no EPUB needs');
  const count = zip.readUInt16LE(end + 10);
  const directorySize = zip.readUInt32LE(end + 12);
  const directoryStart = zip.readUInt32LE(end + 16);
  if (directoryStart + directorySize > end) throw broken('its central directory lies outside the archive');

  const located: Located[] = [];
  let at = directoryStart;
  for (let i = 0; i < count; i += 1) {
    meter.count('entries');
    if (at + 46 > end || zip.readUInt32LE(at) !== DIRECTORY_ENTRY) throw broken('its central directory is broken');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    if (at + 46 + nameLength > end) throw broken('its central directory is broken');
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (compressed === 0xffffffff || size === 0xffffffff || local === 0xffffffff) throw broken('it is a ZIP64 archive, which no EPUB needs');
    if (local + 30 > directoryStart || zip.readUInt32LE(local) !== LOCAL_HEADER)
      throw broken(`its entry ${JSON.stringify(name)} is not where the directory says`);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const to = dataStart + compressed;
    if (to > directoryStart) throw broken(`its entry ${JSON.stringify(name)} runs past the end of the entries`);
    located.push({ name, method, flags, from: local, dataStart, to, size });
  }

  // A well-formed archive's entries follow one another; overlapping ones share bytes (a zip bomb's trick).
  const byStart = [...located].sort((a, b) => a.from - b.from);
  for (let i = 1; i < byStart.length; i += 1) {
    if (byStart[i]!.from < byStart[i - 1]!.to) {
      throw broken(`its entries ${JSON.stringify(byStart[i - 1]!.name)} and ${JSON.stringify(byStart[i]!.name)} overlap, as only a zip bomb's do`);
    }
  }

  const entries: ZipEntry[] = [];
  for (const entry of located) {
    if (!want(entry.name)) continue;
    if (entry.flags & 0x1) throw broken(`its entry ${JSON.stringify(entry.name)} is encrypted`);
    const raw = zip.subarray(entry.dataStart, entry.to);
    let data: Uint8Array;
    if (entry.method === 0) {
      meter.produced(raw.length, raw.length);
      data = raw;
    } else if (entry.method === 8) {
      // One byte past the stated size is enough to know the record lies: nothing more is unpacked.
      const out = inflateCounted(raw, meter, { raw: true, keep: true, enough: entry.size + 1 });
      if (!out.complete) {
        if (skipDamaged) continue;
        throw broken(`its entry ${JSON.stringify(entry.name)} cannot be unpacked`);
      }
      data = out.data;
    } else {
      continue; // another compression method: not something an EPUB reader needs
    }
    // More than it states is a lie no damage makes (a bomb's); less may be damage.
    if (data.length !== entry.size) {
      if (skipDamaged && data.length < entry.size) continue;
      throw broken(`its entry ${JSON.stringify(entry.name)} does not hold the ${entry.size} bytes its directory states`);
    }
    entries.push({ name: entry.name, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength) });
  }
  return entries;
}

/** The end-of-directory record: in the last 22 + 65,535 bytes (its comment at most that long). */
function findEndOfDirectory(zip: Buffer): number {
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at -= 1) {
    if (zip.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  return -1;
}
