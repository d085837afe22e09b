// The corpus of hostile files the shop must refuse without stalling (issue 21):
// PDFs that inflate to gigabytes (Flate, LZW, RunLength), nest without end,
// loop through their object streams or declare absurd cross-reference tables;
// ZIPs (EPUBs) whose entries overlap, lie about their sizes, number 60,000 or
// nest archives in archives or contain themselves (a quine); pictures that declare 10 billion pixels. Each is
// made here, byte by byte, so every suite (the readers' own, the routes', the
// embedded shop's and the bench's) sends exactly the same bombs.
import { constants, crc32 as zlibCrc32, deflateRawSync, deflateSync } from 'node:zlib';

const MB = 1024 * 1024;

// ------------------------------------------------------------------ deflate bombs, made without the plain text

/** 1 MB of spaces as non-final deflate blocks ending on a byte (a sync flush): any number of copies in a row is a valid stream. */
let spaceBlock: Buffer | undefined;
const spacesBlock = () => (spaceBlock ??= deflateRawSync(Buffer.alloc(MB, 0x20), { level: 9, finishFlush: constants.Z_SYNC_FLUSH }));
/** An empty final block with fixed codes: ends a deflate stream. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** Raw deflate of `prefix` followed by `count` spaces, at deflate's best ratio (~1,030:1), made in milliseconds whatever `count` is. */
export function deflatedSpaces(count: number, prefix: Buffer = Buffer.alloc(0)): Buffer {
  const parts: Buffer[] = [];
  if (prefix.length > 0) parts.push(deflateRawSync(prefix, { finishFlush: constants.Z_SYNC_FLUSH }));
  for (let i = 0; i < Math.floor(count / MB); i += 1) parts.push(spacesBlock());
  if (count % MB > 0) parts.push(deflateRawSync(Buffer.alloc(count % MB, 0x20), { level: 9, finishFlush: constants.Z_SYNC_FLUSH }));
  parts.push(FINAL_BLOCK);
  return Buffer.concat(parts);
}

/** The same, zlib-wrapped (a PDF's FlateDecode), with its Adler-32 over the whole text. */
export function zlibSpaces(count: number, prefix: Buffer = Buffer.alloc(0)): Buffer {
  const MOD = 65521n;
  let a = 1n;
  let b = 0n;
  for (const byte of prefix) {
    a = (a + BigInt(byte)) % MOD;
    b = (b + a) % MOD;
  }
  // n more bytes of value c: a grows by n·c, b by n·a + c·n(n+1)/2.
  const n = BigInt(count);
  const c = 0x20n;
  b = (b + n * a + (c * n * (n + 1n)) / 2n) % MOD;
  a = (a + n * c) % MOD;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(Number((b << 16n) | a));
  return Buffer.concat([Buffer.from([0x78, 0xda]), deflatedSpaces(count, prefix), adler]);
}

/** CRC-32 of `prefix` followed by `count` spaces. */
function crcOfSpaces(count: number, prefix: Buffer = Buffer.alloc(0)): number {
  let crc = zlibCrc32(prefix);
  const block = Buffer.alloc(MB, 0x20);
  for (let i = 0; i < Math.floor(count / MB); i += 1) crc = zlibCrc32(block, crc);
  return zlibCrc32(Buffer.alloc(count % MB, 0x20), crc);
}

// ------------------------------------------------------------------ PDF

export interface PdfObject {
  /** The dictionary (or any value) as PDF text. */
  body: string;
  /** Stream data: the dictionary gets its /Length. */
  stream?: Buffer;
}

/**
 * A PDF of these objects (numbered from 1), with a correct cross-reference table and the
 * trailer `/Root 1 0 R` (plus `trailerExtra`). `raw` objects are written as given, unnumbered.
 */
export function pdfOf(objects: ReadonlyArray<PdfObject | { raw: Buffer }>, trailerExtra = ''): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  const push = (b: Buffer) => {
    parts.push(b);
    length += b.length;
  };
  let num = 0;
  for (const object of objects) {
    if ('raw' in object) {
      push(object.raw);
      continue;
    }
    num += 1;
    offsets.push(length);
    if (object.stream) {
      const dict = object.body.replace(/>>\s*$/, ` /Length ${object.stream.length} >>`);
      push(Buffer.from(`${num} 0 obj\n${dict}\nstream\n`, 'latin1'));
      push(object.stream);
      push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    } else {
      push(Buffer.from(`${num} 0 obj\n${object.body}\nendobj\n`, 'latin1'));
    }
  }
  const xref = length;
  const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  push(
    Buffer.from(
      `xref\n0 ${num + 1}\n0000000000 65535 f \n${rows}trailer\n<< /Size ${num + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`,
      'latin1',
    ),
  );
  return Buffer.concat(parts);
}

/** Catalog, page tree and one A5 page whose contents are object 4 (give it as the fourth object). */
const PAGE_OBJECTS: PdfObject[] = [
  { body: '<< /Type /Catalog /Pages 2 0 R >>' },
  { body: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
  { body: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 595] /Contents 4 0 R /Resources << /XObject << /Im1 5 0 R >> >> >>' },
];

/** An ordinary one-page PDF (the baseline every bomb differs from). */
export function plainPdf(): Buffer {
  return pdfOf([...PAGE_OBJECTS, { body: '<< >>', stream: Buffer.from('0 0 1 rg 10 10 100 100 re f\n') }, { body: 'null' }]);
}

/** Finding 2: an object stream whose Flate data inflates to `inflated` bytes of spaces (50 MB: a 51 KB file). */
export function objectStreamBombPdf(inflated = 50 * MB): Buffer {
  return pdfOf([
    ...PAGE_OBJECTS,
    { body: '<< >>', stream: Buffer.from('0 0 1 rg 10 10 100 100 re f\n') },
    { body: '<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode >>', stream: zlibSpaces(inflated, Buffer.from('6 0\n<< /Type /Bomb >>')) },
  ]);
}

/**
 * Flate bombs up to `fileBytes` (the upload limit): as many 1,030:1 content streams as fit,
 * each inflating to `perStream` bytes. 10 MB of it unpacks to about 10 GB.
 */
export function flateBombPdf(fileBytes: number, perStream = 50 * MB): Buffer {
  const stream = zlibSpaces(perStream);
  const count = Math.max(1, Math.floor((fileBytes - 2048) / (stream.length + 120)));
  const streams: PdfObject[] = Array.from({ length: count }, () => ({ body: '<< /Filter /FlateDecode >>', stream }));
  return pdfOf([...PAGE_OBJECTS, ...streams]);
}

/** A content stream that inflates to `inflated` bytes (pdf.js decodes it to draw the page). */
export function contentStreamBombPdf(inflated = 300 * MB): Buffer {
  return pdfOf([...PAGE_OBJECTS, { body: '<< /Filter /FlateDecode >>', stream: zlibSpaces(inflated) }, { body: 'null' }]);
}

/** PDF's LZW (9–12-bit codes, EarlyChange 1) for `bytes` zeros: each code one zero longer than the last, then the longest again and again. */
export function lzwZeros(bytes: number): Buffer {
  const codes: number[] = [];
  // The code of a run of `n` zeros once defined: 0 for one, 258 + n - 2 for more.
  const codeOf = (n: number) => (n === 1 ? 0 : 258 + n - 2);
  // 0, 258, 259, …: each new code is the previous string plus a zero (the decoder's KwKwK case).
  codes.push(0);
  let produced = 1;
  let length = 1;
  while (produced + length + 1 <= bytes && codeOf(length + 1) < 4096) {
    length += 1;
    codes.push(codeOf(length));
    produced += length;
  }
  while (produced + length <= bytes) {
    codes.push(codeOf(length));
    produced += length;
  }
  if (produced < bytes) codes.push(codeOf(bytes - produced));
  codes.push(257);
  // The same code widths the decoder reads with.
  const out: number[] = [];
  let buffer = 0;
  let held = 0;
  let defined = 258;
  let bits = 9;
  codes.forEach((code, i) => {
    buffer = (buffer << bits) | code;
    held += bits;
    while (held >= 8) {
      out.push((buffer >>> (held - 8)) & 0xff);
      held -= 8;
    }
    buffer &= (1 << held) - 1;
    if (i > 0 && defined < 4096) defined += 1;
    if (defined + 1 >= 1 << bits && bits < 12) bits += 1;
  });
  if (held > 0) out.push((buffer << (8 - held)) & 0xff);
  return Buffer.from(out);
}

/** A content stream of LZW data that decodes to `inflated` zeros (~2,700:1). */
export function lzwBombPdf(inflated = 300 * MB): Buffer {
  return pdfOf([...PAGE_OBJECTS, { body: '<< /Filter /LZWDecode >>', stream: lzwZeros(inflated) }, { body: 'null' }]);
}

/** RunLength data of `inflated` zeros (each two bytes say 128 zeros). */
export function runLengthBombPdf(inflated = 300 * MB): Buffer {
  const pairs = Math.ceil(inflated / 128);
  const data = Buffer.alloc(pairs * 2 + 1);
  for (let i = 0; i < pairs; i += 1) data[i * 2] = 129;
  data[pairs * 2] = 128;
  return pdfOf([...PAGE_OBJECTS, { body: '<< /Filter /RunLengthDecode >>', stream: data }, { body: 'null' }]);
}

/** Arrays nested `depth` deep (recursive parsers overflow their stack). */
export function deepNestingPdf(depth = 100_000): Buffer {
  return pdfOf([...PAGE_OBJECTS, { body: '<< >>', stream: Buffer.from('') }, { body: `${'['.repeat(depth)}${']'.repeat(depth)}` }]);
}

/** Object streams that extend each other in a loop and hold the objects that describe them. */
export function cyclicObjectStreamsPdf(): Buffer {
  const inner = (self: number, other: number) => deflateSync(Buffer.from(`${self + 2} 0\n<< /Type /ObjStm /Extends ${other} 0 R /Self ${self} 0 R >>`));
  return pdfOf(
    [
      ...PAGE_OBJECTS,
      { body: '<< >>', stream: Buffer.from('') },
      { body: '<< /Type /ObjStm /N 1 /First 4 /Extends 6 0 R /Filter /FlateDecode >>', stream: inner(5, 6) },
      { body: '<< /Type /ObjStm /N 1 /First 4 /Extends 5 0 R /Filter /FlateDecode >>', stream: inner(6, 5) },
    ],
    '/Prev 0',
  );
}

/** A cross-reference table that claims two billion objects, and a cross-reference stream that claims a billion. */
export function hugeXrefPdf(): Buffer {
  const body = pdfOf([...PAGE_OBJECTS, { body: '<< >>', stream: Buffer.from('') }]);
  const table = body.toString('latin1').replace(/xref\n0 (\d+)\n/, 'xref\n0 2000000000\n');
  const xrefStream = `6 0 obj\n<< /Type /XRef /Size 1000000000 /W [1 4 2] /Index [0 1000000000] /Root 1 0 R /Length 7 >>\nstream\n\x01\x00\x00\x00\x0f\x00\x00\nendstream\nendobj\n`;
  return Buffer.from(table.replace('xref\n', `${xrefStream}xref\n`), 'latin1');
}

/** 50,000 page objects packed into object streams (a few hundred KB). */
export function manyPagesPdf(pages = 50_000): Buffer {
  const header = Array.from({ length: pages }, (_, i) => `${i + 10} ${i * 40}`).join(' ');
  const objects = Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R >>'.padEnd(40)).join('');
  const data = Buffer.from(`${header}\n${objects}`);
  return pdfOf([
    ...PAGE_OBJECTS,
    { body: '<< >>', stream: Buffer.from('') },
    { body: `<< /Type /ObjStm /N ${pages} /First ${header.length + 1} /Filter /FlateDecode >>`, stream: deflateSync(data, { level: 9 }) },
  ]);
}

/** `count` small dictionaries packed into object streams: within the budgets, heavy on a parser's heap (each becomes objects). */
export function manyObjectsPdf(count = 200_000): Buffer {
  const perStream = 10_000;
  const streams: PdfObject[] = [];
  for (let first = 0; first < count; first += perStream) {
    const n = Math.min(perStream, count - first);
    const body = Array.from({ length: n }, (_, i) => `<< /N ${first + i} /A [1 2 3] /B (text) >>`);
    const offsets: number[] = [];
    let at = 0;
    for (const object of body) {
      offsets.push(at);
      at += object.length + 1;
    }
    const header = offsets.map((offset, i) => `${first + i + 100} ${offset}`).join(' ');
    streams.push({
      body: `<< /Type /ObjStm /N ${n} /First ${header.length + 1} /Filter /FlateDecode >>`,
      stream: deflateSync(`${header}\n${body.join('\n')}\n`, { level: 9 }),
    });
  }
  return pdfOf([...PAGE_OBJECTS, { body: '<< >>', stream: Buffer.from('') }, ...streams]);
}

/** A picture XObject that declares `width` × `height` pixels over a few bytes of data. */
export function giantImagePdf(width = 100_000, height = 100_000): Buffer {
  return pdfOf([
    ...PAGE_OBJECTS,
    { body: '<< >>', stream: Buffer.from('q 100 0 0 100 0 0 cm /Im1 Do Q\n') },
    {
      body: `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /BitsPerComponent 8 /ColorSpace /DeviceRGB /Filter /FlateDecode >>`,
      stream: deflateSync(Buffer.alloc(1024)),
    },
  ]);
}

/** A JPEG picture whose dictionary says 10 × 10 and whose own header says 65,000 × 65,000 (the decoder believes the JPEG). */
export function lyingJpegPdf(): Buffer {
  return pdfOf([
    ...PAGE_OBJECTS,
    { body: '<< >>', stream: Buffer.from('q 100 0 0 100 0 0 cm /Im1 Do Q\n') },
    {
      body: '<< /Type /XObject /Subtype /Image /Width 10 /Height 10 /BitsPerComponent 8 /ColorSpace /DeviceRGB /Filter /DCTDecode >>',
      stream: giantJpeg(65_000, 65_000),
    },
  ]);
}

/** An encrypted PDF (its streams cannot be measured without decrypting them). */
export function encryptedPdf(): Buffer {
  return pdfOf(
    [...PAGE_OBJECTS, { body: '<< >>', stream: Buffer.from('garbled') }, { body: '<< /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>' }],
    '/Enc#72ypt 5 0 R /ID [<01> <01>]',
  );
}

// ------------------------------------------------------------------ ZIP / EPUB

export interface ZipItem {
  name: string;
  /** The entry's content, or `spaces` of them made straight into deflate data. */
  data: Buffer;
  spaces?: number;
  /** 0 stored, 8 deflated (default). */
  method?: 0 | 8;
  /** The size the records state (default: the real one). */
  declaredSize?: number;
}

const crc32 = (data: Buffer) => zlibCrc32(data);

function localHeader(name: Buffer, method: number, crc: number, compressed: number, size: number): Buffer {
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(method, 8);
  h.writeUInt32LE(crc, 14);
  h.writeUInt32LE(compressed, 18);
  h.writeUInt32LE(size, 22);
  h.writeUInt16LE(name.length, 26);
  return Buffer.concat([h, name]);
}

function directoryRecord(name: Buffer, method: number, crc: number, compressed: number, size: number, offset: number): Buffer {
  const h = Buffer.alloc(46);
  h.writeUInt32LE(0x02014b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(20, 6);
  h.writeUInt16LE(method, 10);
  h.writeUInt32LE(crc, 16);
  h.writeUInt32LE(compressed, 20);
  h.writeUInt32LE(size, 24);
  h.writeUInt16LE(name.length, 28);
  h.writeUInt32LE(offset, 42);
  return Buffer.concat([h, name]);
}

function endOfDirectory(count: number, size: number, offset: number): Buffer {
  const e = Buffer.alloc(22);
  e.writeUInt32LE(0x06054b50, 0);
  e.writeUInt16LE(count, 8);
  e.writeUInt16LE(count, 10);
  e.writeUInt32LE(size, 12);
  e.writeUInt32LE(offset, 16);
  return e;
}

/** A ZIP of these items, in order (an EPUB when the first is its stored `mimetype`). */
export function zipOf(items: readonly ZipItem[]): Buffer {
  const locals: Buffer[] = [];
  const records: Buffer[] = [];
  let offset = 0;
  for (const item of items) {
    const name = Buffer.from(item.name, 'utf8');
    const method = item.method ?? 8;
    const data = item.spaces !== undefined ? deflatedSpaces(item.spaces, item.data) : method === 8 ? deflateRawSync(item.data, { level: 9 }) : item.data;
    const size = item.declaredSize ?? item.data.length + (item.spaces ?? 0);
    const crc = item.spaces !== undefined ? crcOfSpaces(item.spaces, item.data) : crc32(item.data);
    const local = localHeader(name, method, crc, data.length, size);
    locals.push(local, data);
    records.push(directoryRecord(name, method, crc, data.length, size, offset));
    offset += local.length + data.length;
  }
  const directory = Buffer.concat(records);
  return Buffer.concat([...locals, directory, endOfDirectory(items.length, directory.length, offset)]);
}

const MIMETYPE: ZipItem = { name: 'mimetype', data: Buffer.from('application/epub+zip'), method: 0 };
const CONTAINER: ZipItem = {
  name: 'META-INF/container.xml',
  data: Buffer.from(
    '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
  ),
};

/** A small, ordinary EPUB (the baseline). */
export function plainEpub(): Buffer {
  return zipOf([
    MIMETYPE,
    CONTAINER,
    {
      name: 'OEBPS/content.opf',
      data: Buffer.from('<package><manifest><item id="c1" href="c1.xhtml"/></manifest><spine><itemref idref="c1"/></spine></package>'),
    },
    { name: 'OEBPS/c1.xhtml', data: Buffer.from('<html><body><p>Hello, reader.</p></body></html>') },
  ]);
}

/**
 * Finding 3: one deflated stream of `inflated` bytes, and `count` directory records that all
 * point at it, each declaring size 0 (a 66 KB EPUB that unpacks to 8 × 64 MB).
 */
export function overlappingEntriesEpub(count = 8, inflated = 64 * MB): Buffer {
  const name = Buffer.from('OEBPS/chapter.xhtml');
  const data = deflatedSpaces(inflated - 15, Buffer.from('<html><body><p>'));
  const mimetypeLocal = localHeader(Buffer.from('mimetype'), 0, crc32(MIMETYPE.data), MIMETYPE.data.length, MIMETYPE.data.length);
  const bombAt = mimetypeLocal.length + MIMETYPE.data.length;
  const bombLocal = localHeader(name, 8, 0, data.length, 0);
  const records = [directoryRecord(Buffer.from('mimetype'), 0, crc32(MIMETYPE.data), MIMETYPE.data.length, MIMETYPE.data.length, 0)];
  for (let i = 0; i < count; i += 1) records.push(directoryRecord(Buffer.from(`OEBPS/chapter-${i + 1}.xhtml`), 8, 0, data.length, 0, bombAt));
  const directory = Buffer.concat(records);
  const directoryAt = bombAt + bombLocal.length + data.length;
  return Buffer.concat([mimetypeLocal, MIMETYPE.data, bombLocal, data, directory, endOfDirectory(records.length, directory.length, directoryAt)]);
}

/** An entry that states 0 bytes and unpacks to `inflated` (entries apart: only the stated size betrays it). */
export function lyingSizeEpub(inflated = 200 * MB): Buffer {
  return zipOf([MIMETYPE, CONTAINER, { name: 'OEBPS/c1.xhtml', data: Buffer.alloc(0), spaces: inflated, declaredSize: 0 }]);
}

/** An honest entry that unpacks to `inflated` bytes at deflate's highest ratio (~1,030:1). */
export function highRatioEpub(inflated: number): Buffer {
  return zipOf([MIMETYPE, CONTAINER, { name: 'OEBPS/c1.xhtml', data: Buffer.alloc(0), spaces: inflated }]);
}

/** `count` empty entries (60,000: more files than any book has). */
export function manyEntriesEpub(count = 60_000): Buffer {
  return zipOf([MIMETYPE, ...Array.from({ length: count - 1 }, (_, i): ZipItem => ({ name: `OEBPS/${i}.xhtml`, data: Buffer.alloc(0), method: 0 }))]);
}

/** Archives nested `depth` deep, a Flate bomb at the bottom (42.zip's idea): a reader that opens archives inside archives unpacks them all. */
export function nestedArchivesEpub(depth = 6): Buffer {
  let inner = zipOf([{ name: 'bomb.txt', data: Buffer.alloc(0), spaces: 16 * MB }]);
  for (let level = 0; level < depth; level += 1) inner = zipOf(Array.from({ length: 4 }, (_, i): ZipItem => ({ name: `${level}-${i}.zip`, data: inner })));
  return zipOf([MIMETYPE, CONTAINER, { name: 'OEBPS/archive.zip', data: inner, method: 0 }]);
}

/** An entry whose stated place is the archive's own central directory (an archive that "contains itself"). */
export function selfContainingEpub(): Buffer {
  const zip = zipOf([MIMETYPE, { name: 'OEBPS/self.zip', data: Buffer.alloc(64), method: 0 }]);
  const end = zip.length - 22;
  const directoryAt = zip.readUInt32LE(end + 16);
  // The second record's local header offset and sizes now cover the directory and its end record.
  const second = directoryAt + 46 + 'mimetype'.length;
  zip.writeUInt32LE(zip.length, second + 20);
  zip.writeUInt32LE(zip.length, second + 24);
  zip.writeUInt32LE(0, second + 42);
  return zip;
}

// ------------------------------------------------------------------ a ZIP quine

// An EPUB whose one book file, unpacked, is the whole archive again (Russ Cox's "Zip Files All
// The Way Down", research.swtch.com/zip): a reader that opened archives inside archives would
// never stop. Its deflate data is a program of two instructions, "print the next n bytes" (a
// stored block) and "repeat the last n bytes" (a copy in a fixed-code block), which prints the
// archive's head P, itself and its tail S. Every instruction takes the same number of bytes
// (OPCODE_BYTES: stored blocks widened by empty fixed blocks before them, copies brought to a
// byte by an empty stored block after them); the CRC-32 the archive states of itself is solved
// as a linear system over GF(2).

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DISTANCE_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DISTANCE_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
/** Every instruction's size: the one size (found by a search) that the three copies this archive needs can all take. */
const OPCODE_BYTES = 10;
const codeIndex = (bases: readonly number[], value: number) => bases.findLastIndex((base) => base <= value);

/** Deflate's bits, least significant first; Huffman codes most significant first (RFC 1951 §3.1.1). */
class BitWriter {
  readonly bytes: number[] = [];
  private byte = 0;
  private used = 0;
  bits(value: number, count: number): void {
    for (let i = 0; i < count; i += 1) {
      this.byte |= ((value >> i) & 1) << this.used;
      this.used += 1;
      if (this.used === 8) this.flush();
    }
  }
  code(value: number, count: number): void {
    for (let i = count - 1; i >= 0; i -= 1) this.bits((value >> i) & 1, 1);
  }
  /** On to the next byte (what a stored block's header does). */
  align(): void {
    if (this.used > 0) this.flush();
  }
  private flush(): void {
    this.bytes.push(this.byte);
    this.byte = 0;
    this.used = 0;
  }
}

function emptyFixedBlock(w: BitWriter): void {
  w.bits(0, 1);
  w.bits(1, 2);
  w.code(0, 7); // end of block
}

function storedHeader(w: BitWriter, n: number, final: boolean): void {
  w.bits(final ? 1 : 0, 1);
  w.bits(0, 2);
  w.align();
  w.bits(n, 16);
  w.bits(~n & 0xffff, 16);
}

/** "Print the next n bytes": four empty fixed blocks to widen it to OPCODE_BYTES, then a stored block's header. */
function printOpcode(n: number): Buffer {
  const w = new BitWriter();
  for (let i = 0; i < 4; i += 1) emptyFixedBlock(w);
  storedHeader(w, n, false);
  return Buffer.from(w.bytes);
}

/** "Repeat the last n bytes": a copy of n at distance n, an empty fixed block, and an empty stored block to end on a byte. */
function repeatOpcode(n: number, final: boolean): Buffer {
  const w = new BitWriter();
  w.bits(0, 1);
  w.bits(1, 2);
  const lc = codeIndex(LENGTH_BASE, n);
  const symbol = 257 + lc;
  if (symbol < 280) w.code(symbol - 256, 7);
  else w.code(0xc0 + symbol - 280, 8);
  w.bits(n - LENGTH_BASE[lc]!, LENGTH_EXTRA[lc]!);
  const dc = codeIndex(DISTANCE_BASE, n);
  w.code(dc, 5);
  w.bits(n - DISTANCE_BASE[dc]!, DISTANCE_EXTRA[dc]!);
  w.code(0, 7);
  emptyFixedBlock(w);
  storedHeader(w, 0, final);
  if (w.bytes.length !== OPCODE_BYTES) throw new Error(`a copy of ${n} bytes does not take ${OPCODE_BYTES} bytes`);
  return Buffer.from(w.bytes);
}

type QuineLabel = 'p' | 's' | '0' | '1' | '4';
type QuineOp = { kind: 'print' | 'repeat'; label: QuineLabel } | { kind: 'data'; bytes: Buffer };

/** The deflate data that prints P, itself and S, in Cox's order of instructions. */
function quineProgram(P: Buffer, S: Buffer): Buffer {
  const print = (label: QuineLabel): QuineOp => ({ kind: 'print', label });
  const repeat = (label: QuineLabel): QuineOp => ({ kind: 'repeat', label });
  const data = (bytes: Buffer): QuineOp => ({ kind: 'data', bytes });
  const program: QuineOp[] = [
    ...[print('p'), data(P), print('p'), repeat('p'), print('1'), repeat('p'), print('1'), print('1'), print('4'), repeat('p')],
    ...[print('1'), print('1'), print('4'), repeat('4'), print('4'), repeat('4'), print('4'), repeat('4'), print('4'), repeat('4')],
    ...[print('4'), repeat('4'), print('0'), print('0'), print('s'), repeat('4'), print('0'), print('0'), print('s'), repeat('s')],
    ...[data(S), repeat('s')],
  ];
  // How many instructions or data runs each prints or repeats: "p" is P and the instruction after it.
  const UNITS: Record<QuineLabel, number> = { p: 2, s: 2, '0': 0, '1': 1, '4': 4 };
  const size = (op: QuineOp) => (op.kind === 'data' ? op.bytes.length : OPCODE_BYTES);
  // Each instruction's byte count: the program run on whole instructions, as the inflater will run it on bytes.
  const counts = new Map<string, number>();
  const output: QuineOp[] = [];
  for (let i = 0; i < program.length;) {
    const op = program[i]!;
    if (op.kind === 'data') throw new Error('the quine runs into its data');
    const units = UNITS[op.label];
    const part = op.kind === 'print' ? program.slice(i + 1, i + 1 + units) : output.slice(output.length - units);
    counts.set(
      `${op.kind}${op.label}`,
      part.reduce((n, p) => n + size(p), 0),
    );
    output.push(...part);
    i += op.kind === 'print' ? 1 + units : 1;
  }
  // The last instruction ends the stream; the other "repeat s" is only ever printed, so it is written the same.
  return Buffer.concat(
    program.map((op) =>
      op.kind === 'data'
        ? op.bytes
        : op.kind === 'print'
          ? printOpcode(counts.get(`print${op.label}`)!)
          : repeatOpcode(counts.get(`repeat${op.label}`)!, op.label === 's'),
    ),
  );
}

/** Solves x = f(x) for an f affine over GF(2) on 32 bits (a file stating its own CRC-32): (M ⊕ I)·x = f(0). */
function fixedPoint(f: (x: number) => number): number {
  const c = f(0);
  const columns = Array.from({ length: 32 }, (_, i) => (f(2 ** i) ^ c) >>> 0);
  const rows = Array.from({ length: 32 }, (_, r) => {
    let row = 0;
    for (let i = 0; i < 32; i += 1) if ((((columns[i]! >>> r) & 1) ^ (i === r ? 1 : 0)) === 1) row = (row | (1 << i)) >>> 0;
    return { row, rhs: (c >>> r) & 1 };
  });
  const pivots: number[] = [];
  let rank = 0;
  for (let bit = 0; bit < 32; bit += 1) {
    const found = rows.findIndex((r, i) => i >= rank && (r.row >>> bit) & 1);
    if (found < 0) continue;
    [rows[rank], rows[found]] = [rows[found]!, rows[rank]!];
    for (let i = 0; i < 32; i += 1) {
      if (i !== rank && (rows[i]!.row >>> bit) & 1) rows[i] = { row: (rows[i]!.row ^ rows[rank]!.row) >>> 0, rhs: rows[i]!.rhs ^ rows[rank]!.rhs };
    }
    pivots[rank] = bit;
    rank += 1;
  }
  if (rows.slice(rank).some((r) => r.rhs === 1)) throw new Error('no CRC-32 can state itself in this archive');
  let x = 0;
  for (let i = 0; i < rank; i += 1) if (rows[i]!.rhs) x = (x | (1 << pivots[i]!)) >>> 0;
  return x;
}

/** An EPUB whose `OEBPS/quine.zip`, unpacked, is this very EPUB, CRC-32 and all. */
export function quineEpub(): Buffer {
  const name = Buffer.from('OEBPS/quine.zip');
  const mimetypeName = Buffer.from('mimetype');
  const mimetype = MIMETYPE.data;
  const mimetypeCrc = crc32(mimetype);
  const headAndTail = (crc: number, compressed: number, total: number) => {
    const P = Buffer.concat([
      localHeader(mimetypeName, 0, mimetypeCrc, mimetype.length, mimetype.length),
      mimetype,
      localHeader(name, 8, crc, compressed, total),
    ]);
    const directory = Buffer.concat([
      directoryRecord(mimetypeName, 0, mimetypeCrc, mimetype.length, mimetype.length, 0),
      directoryRecord(name, 8, crc, compressed, total, 30 + mimetypeName.length + mimetype.length),
    ]);
    return { P, S: Buffer.concat([directory, endOfDirectory(2, directory.length, P.length + compressed)]) };
  };
  // The head and tail have fixed widths: the program's length is known before the sizes in them are.
  const draft = headAndTail(0, 0, 0);
  const compressed = quineProgram(draft.P, draft.S).length;
  const total = draft.P.length + compressed + draft.S.length;
  const archive = (crc: number) => {
    const { P, S } = headAndTail(crc, compressed, total);
    return Buffer.concat([P, quineProgram(P, S), S]);
  };
  return archive(fixedPoint((crc) => crc32(archive(crc))));
}

// ------------------------------------------------------------------ pictures

/** A PNG whose header declares `width` × `height` (10 billion pixels by default) over a few bytes. */
export function giantPng(width = 100_000, height = 100_000): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])));
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG whose frame header declares `width` × `height`. */
export function giantJpeg(width = 65_000, height = 65_000): Buffer {
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    sof,
    Buffer.from([0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00]),
    Buffer.alloc(64),
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** A GIF with a 10 × 10 screen and one 65,535 × 65,535 frame. */
export function giantFrameGif(): Buffer {
  const header = Buffer.from('GIF89a', 'latin1');
  const screen = Buffer.from([10, 0, 10, 0, 0, 0, 0]);
  const frame = Buffer.from([0x2c, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 2, 2, 0x4c, 0x01, 0]);
  return Buffer.concat([header, screen, frame, Buffer.from([0x3b])]);
}

/** A WebP (VP8X) whose canvas is 16,384 × 16,384. */
export function giantWebp(): Buffer {
  const vp8x = Buffer.alloc(18);
  vp8x.write('VP8X', 0, 'latin1');
  vp8x.writeUInt32LE(10, 4);
  vp8x.writeUIntLE(16_383, 12, 3);
  vp8x.writeUIntLE(16_383, 15, 3);
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), vp8x]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

// ------------------------------------------------------------------ the corpus

export type HostileKind = 'pdf' | 'epub' | 'image';

export interface HostileFile {
  name: string;
  kind: HostileKind;
  /** What the bomb is, in a few words (test names). */
  what: string;
  make(): Buffer;
  /** The refusal's code a reader must answer with, or null when the file is harmless to a bounded reader and may be read. */
  refusal: string | null;
}

/** Every known bomb, with the refusal it must get from the readers at their default budgets. */
export const HOSTILE_FILES: readonly HostileFile[] = [
  {
    name: 'object-stream-bomb.pdf',
    kind: 'pdf',
    what: 'an object stream inflating to 300 MB',
    make: () => objectStreamBombPdf(300 * MB),
    refusal: 'UNPACKS_TOO_LARGE',
  },
  { name: 'flate-bomb.pdf', kind: 'pdf', what: '1 MB of Flate bombs (1 GB inflated)', make: () => flateBombPdf(MB), refusal: 'UNPACKS_TOO_LARGE' },
  { name: 'content-bomb.pdf', kind: 'pdf', what: 'a content stream inflating to 300 MB', make: () => contentStreamBombPdf(), refusal: 'UNPACKS_TOO_LARGE' },
  { name: 'lzw-bomb.pdf', kind: 'pdf', what: 'an LZW stream decoding to 300 MB', make: () => lzwBombPdf(), refusal: 'UNPACKS_TOO_LARGE' },
  { name: 'run-length-bomb.pdf', kind: 'pdf', what: 'a RunLength stream decoding to 300 MB', make: () => runLengthBombPdf(), refusal: 'UNPACKS_TOO_LARGE' },
  { name: 'deep-nesting.pdf', kind: 'pdf', what: 'arrays nested 100,000 deep', make: () => deepNestingPdf(), refusal: 'NESTED_TOO_DEEP' },
  {
    name: 'cyclic-object-streams.pdf',
    kind: 'pdf',
    what: 'object streams extending each other in a loop',
    make: () => cyclicObjectStreamsPdf(),
    refusal: null,
  },
  { name: 'huge-xref.pdf', kind: 'pdf', what: 'cross-reference sections claiming billions of objects', make: () => hugeXrefPdf(), refusal: 'TOO_MANY_OBJECTS' },
  { name: 'many-pages.pdf', kind: 'pdf', what: '50,000 pages in object streams', make: () => manyPagesPdf(), refusal: 'TOO_MANY_PAGES' },
  { name: 'giant-image.pdf', kind: 'pdf', what: 'a picture declaring 10 billion pixels', make: () => giantImagePdf(), refusal: 'IMAGE_TOO_LARGE' },
  { name: 'lying-jpeg.pdf', kind: 'pdf', what: 'a 10 × 10 picture whose JPEG is 65,000 × 65,000', make: () => lyingJpegPdf(), refusal: 'IMAGE_TOO_LARGE' },
  { name: 'encrypted.pdf', kind: 'pdf', what: 'an encrypted PDF (its /Encrypt name escaped)', make: () => encryptedPdf(), refusal: 'ENCRYPTED_PDF' },
  {
    name: 'overlapping-entries.epub',
    kind: 'epub',
    what: 'eight entries sharing one 64 MB stream, each stating 0 bytes',
    make: () => overlappingEntriesEpub(),
    refusal: 'UNREADABLE_FILE',
  },
  { name: 'lying-size.epub', kind: 'epub', what: 'an entry stating 0 bytes that unpacks to 200 MB', make: () => lyingSizeEpub(), refusal: 'UNREADABLE_FILE' },
  {
    name: 'high-ratio.epub',
    kind: 'epub',
    what: 'an honest entry unpacking to 300 MB at 1,030:1',
    make: () => highRatioEpub(300 * MB),
    refusal: 'UNPACKS_TOO_LARGE',
  },
  { name: 'many-entries.epub', kind: 'epub', what: '60,000 entries', make: () => manyEntriesEpub(), refusal: 'TOO_MANY_ENTRIES' },
  { name: 'nested-archives.epub', kind: 'epub', what: 'archives nested six deep over a bomb (never opened)', make: () => nestedArchivesEpub(), refusal: null },
  { name: 'quine.epub', kind: 'epub', what: 'an EPUB whose book file unpacks to the EPUB itself (a ZIP quine)', make: () => quineEpub(), refusal: null },
  {
    name: 'self-containing.epub',
    kind: 'epub',
    what: 'an entry placed over its own central directory',
    make: () => selfContainingEpub(),
    refusal: 'UNREADABLE_FILE',
  },
  { name: 'giant.png', kind: 'image', what: 'a PNG declaring 100,000 × 100,000 pixels', make: () => giantPng(), refusal: 'IMAGE_TOO_LARGE' },
  { name: 'giant.jpg', kind: 'image', what: 'a JPEG declaring 65,000 × 65,000 pixels', make: () => giantJpeg(), refusal: 'IMAGE_TOO_LARGE' },
  { name: 'giant-frame.gif', kind: 'image', what: 'a 10 × 10 GIF with a 65,535 × 65,535 frame', make: () => giantFrameGif(), refusal: 'IMAGE_TOO_LARGE' },
  { name: 'giant.webp', kind: 'image', what: 'a WebP canvas of 16,384 × 16,384', make: () => giantWebp(), refusal: 'IMAGE_TOO_LARGE' },
];
