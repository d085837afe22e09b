// A deterministic ZIP writer for EPUB containers (OCF): the entries in the order given, each with
// the same fixed date, the first (`mimetype`) stored, the rest deflated by our own deflate (whose
// output depends only on its input), no extra fields, no data descriptors. The same entries give
// the same bytes on every machine.
import { crc32 } from 'node:zlib';
import { deflate } from '../deflate/deflate';

export interface ZipEntry {
  name: string;
  data: Uint8Array;
  /** Stored uncompressed (the EPUB's `mimetype`, which must be). */
  store?: boolean;
}

/** The DOS date and time of a day at midnight (ZIP's own clock: two-second steps, from 1980). */
function dosDateTime(day: Date): { date: number; time: number } {
  const year = Math.max(1980, day.getUTCFullYear());
  return { date: ((year - 1980) << 9) | ((day.getUTCMonth() + 1) << 5) | day.getUTCDate(), time: 0 };
}

/** Raw DEFLATE (RFC 1951): our zlib stream without its 2-byte header and 4-byte Adler-32. */
const rawDeflate = (data: Uint8Array) => deflate(data).subarray(2, -4);

export function zip(entries: readonly ZipEntry[], day: Date): Uint8Array {
  const { date, time } = dosDateTime(day);
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const body = entry.store ? entry.data : rawDeflate(entry.data);
    const method = entry.store ? 0 : 8;
    const crc = crc32(entry.data);
    // The fields a local header and its central directory record share, from "version needed" on.
    const shared = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at); // version needed: 2.0
      header.writeUInt16LE(0x0800, at + 2); // names in UTF-8
      header.writeUInt16LE(method, at + 4);
      header.writeUInt16LE(time, at + 6);
      header.writeUInt16LE(date, at + 8);
      header.writeUInt32LE(crc, at + 10);
      header.writeUInt32LE(body.length, at + 14);
      header.writeUInt32LE(entry.data.length, at + 18);
      header.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    shared(local, 4);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4); // made by: version 2.0, MS-DOS attributes
    shared(record, 6);
    record.writeUInt32LE(offset, 42);
    central.push(record, name);
    parts.push(local, name, body);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...parts, directory, end]));
}
