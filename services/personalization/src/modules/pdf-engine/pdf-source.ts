// Reads an existing PDF the way a viewer does: through its cross-reference
// sections (classic tables, cross-reference streams, or both), parsing only the
// objects asked for. Page content streams, fonts and images are never parsed.
// What its structural streams decode to is counted against a budget (the file
// came from an upload: a stream may say little and inflate to gigabytes).
import { constants as zlibConstants, inflateSync } from 'node:zlib';
import { ascii85Decode, asciiHexDecode, BudgetMeter, DOCUMENT_BUDGET, lzwDecode, overBudget, runLengthDecode } from '@persona/untrusted';
import { PDFArray, PDFContext, PDFDict, PDFName, PDFNumber, PDFObjectParser, PDFRawStream, PDFRef, type PDFObject } from 'pdf-lib';
import { SyntaxError as RawSyntaxError, kindOf, refOf, skipBlank, skipValue, type Span } from './raw-syntax';

/**
 * The file cannot be read through its cross-reference data: no startxref, a
 * section that is not where it is said to be, an object that is not at its
 * offset, a loop. Such a file needs rewriting before anything can be appended.
 */
export class BrokenXrefError extends Error {
  override readonly name = 'BrokenXrefError';
}

export type XrefEntry = { kind: 'free' } | { kind: 'offset'; offset: number; gen: number } | { kind: 'compressed'; stream: number; index: number };

export interface XrefSection {
  /** Where the section starts. */
  offset: number;
  kind: 'table' | 'stream';
  trailer: PDFDict;
  entries: Map<number, XrefEntry>;
}

function isDigit(byte: number): boolean {
  return byte >= 0x30 && byte <= 0x39;
}

function matches(bytes: Uint8Array, at: number, keyword: string): boolean {
  if (at + keyword.length > bytes.length) return false;
  for (let i = 0; i < keyword.length; i += 1) if (bytes[at + i] !== keyword.charCodeAt(i)) return false;
  return true;
}

/** An unsigned integer at `at` (after blanks), or undefined. */
function readInt(bytes: Uint8Array, at: number): { value: number; end: number } | undefined {
  at = skipBlank(bytes, at);
  const start = at;
  let value = 0;
  while (at < bytes.length && isDigit(bytes[at])) value = value * 10 + (bytes[at++] - 0x30);
  return at === start ? undefined : { value, end: at };
}

/** `N G obj` at `at`: the object's number, generation and where its body starts. */
function readObjectHeader(bytes: Uint8Array, at: number): { num: number; gen: number; body: number } | undefined {
  const num = readInt(bytes, at);
  if (!num) return undefined;
  const gen = readInt(bytes, num.end);
  if (!gen) return undefined;
  const keyword = skipBlank(bytes, gen.end);
  if (!matches(bytes, keyword, 'obj')) return undefined;
  return { num: num.value, gen: gen.value, body: keyword + 3 };
}

function numberOf(value: PDFObject | undefined): number | undefined {
  return value instanceof PDFNumber ? value.asNumber() : undefined;
}

interface ByteCursor {
  moveTo(offset: number): void;
  offset(): number;
}

/** pdf-lib's object parser, pointed at arbitrary offsets of one buffer. */
class Cursor {
  private readonly parser: PDFObjectParser;
  private readonly stream: ByteCursor;

  constructor(
    readonly bytes: Uint8Array,
    context: PDFContext,
  ) {
    this.parser = PDFObjectParser.forBytes(bytes, context);
    this.stream = (this.parser as unknown as { bytes: ByteCursor }).bytes;
  }

  /** The object starting at `at`, and the position just after it. */
  parseAt(at: number): { object: PDFObject; end: number } {
    this.stream.moveTo(at);
    let object: PDFObject;
    try {
      object = this.parser.parseObject();
    } catch (error) {
      throw new BrokenXrefError(`cannot parse the object at offset ${at}: ${(error as Error).message}`);
    }
    return { object, end: this.stream.offset() };
  }
}

interface ObjectStream {
  data: Uint8Array;
  cursor: Cursor;
  first: number;
  /** Object number → offset from /First. */
  offsets: Map<number, number>;
  numbers: number[];
}

const MAX_SECTIONS = 256;

/**
 * A PDF file opened through its cross-reference sections. Objects are parsed
 * on first use; `resolve` follows references.
 */
export class PdfSource {
  readonly context = PDFContext.create();
  /** Newest section first. */
  readonly sections: XrefSection[];
  /** The newest entry for each object number. */
  readonly entries = new Map<number, XrefEntry>();
  /** Offset of the last cross-reference section (what an update's /Prev points at). */
  readonly startxref: number;
  readonly trailer: { Root?: PDFObject; Info?: PDFObject; Encrypt?: PDFObject; ID?: PDFObject; Size: number };
  private readonly cursor: Cursor;
  private readonly objects = new Map<number, PDFObject | undefined>();
  private readonly spans = new Map<number, Span | undefined>();
  private readonly objectStreams = new Map<number, ObjectStream>();

  constructor(
    readonly bytes: Uint8Array,
    /** Counts what the structural streams decode to; over its budget, a `FileRefusedError`. */
    readonly meter = new BudgetMeter(DOCUMENT_BUDGET, "The book's PDF"),
  ) {
    if (!matchesHeader(bytes)) throw new BrokenXrefError('no %PDF- header at the start of the file');
    this.cursor = new Cursor(bytes, this.context);
    this.startxref = findStartxref(bytes);
    this.sections = this.readSections(this.startxref);
    for (const section of this.sections) {
      for (const [num, entry] of section.entries) if (!this.entries.has(num)) this.entries.set(num, entry);
    }
    const pick = (key: string) => {
      for (const section of this.sections) {
        const value = section.trailer.get(PDFName.of(key));
        if (value !== undefined) return value;
      }
      return undefined;
    };
    let size = 0;
    for (const section of this.sections) size = Math.max(size, numberOf(section.trailer.get(PDFName.of('Size'))) ?? 0);
    this.trailer = { Root: pick('Root'), Info: this.sections[0].trailer.get(PDFName.of('Info')), Encrypt: pick('Encrypt'), ID: pick('ID'), Size: size };
  }

  /** One past the largest object number in use anywhere in the file (and at least its /Size). */
  nextObjectNumber(): number {
    let next = Math.max(1, this.trailer.Size);
    for (const num of this.entries.keys()) if (num >= next) next = num + 1;
    return next;
  }

  /** Checks that every object the newest cross-reference entries place at an offset is really there. */
  validate(): void {
    for (const [num, entry] of this.entries) {
      if (entry.kind === 'offset') {
        const header = readObjectHeader(this.bytes, entry.offset);
        if (!header || header.num !== num) throw new BrokenXrefError(`object ${num} is not at offset ${entry.offset}`);
      } else if (entry.kind === 'compressed') {
        const holder = this.entries.get(entry.stream);
        if (!holder || holder.kind !== 'offset') throw new BrokenXrefError(`object ${num} is in object stream ${entry.stream}, which is not in the file`);
      }
    }
  }

  /** The object a reference points at (undefined for free or missing objects); other values are returned as they are. */
  resolve(value: PDFObject | undefined): PDFObject | undefined {
    return value instanceof PDFRef ? this.object(value.objectNumber) : value;
  }

  resolveDict(value: PDFObject | undefined): PDFDict | undefined {
    const object = this.resolve(value);
    return object instanceof PDFDict ? object : undefined;
  }

  resolveArray(value: PDFObject | undefined): PDFArray | undefined {
    const object = this.resolve(value);
    return object instanceof PDFArray ? object : undefined;
  }

  resolveNumber(value: PDFObject | undefined): number | undefined {
    return numberOf(this.resolve(value));
  }

  object(num: number): PDFObject | undefined {
    if (this.objects.has(num)) return this.objects.get(num);
    const entry = this.entries.get(num);
    let object: PDFObject | undefined;
    if (entry?.kind === 'offset') object = this.parseIndirect(num, entry.offset).object;
    else if (entry?.kind === 'compressed') object = this.parseCompressed(num, entry);
    this.objects.set(num, object);
    return object;
  }

  /** Object `num`'s value as written (a stream's dictionary only), or undefined when it is free or missing. */
  raw(num: number): Span | undefined {
    if (this.spans.has(num)) return this.spans.get(num);
    const entry = this.entries.get(num);
    let span: Span | undefined;
    try {
      if (entry?.kind === 'offset') {
        const header = readObjectHeader(this.bytes, entry.offset);
        if (!header || header.num !== num) throw new BrokenXrefError(`object ${num} is not at offset ${entry.offset}`);
        const start = skipBlank(this.bytes, header.body);
        span = { bytes: this.bytes, start, end: skipValue(this.bytes, start) };
      } else if (entry?.kind === 'compressed') {
        const stream = this.objectStream(entry.stream);
        const offset = stream.offsets.get(num);
        if (offset === undefined) throw new BrokenXrefError(`object ${num} is not in object stream ${entry.stream}`);
        const start = skipBlank(stream.data, stream.first + offset);
        span = { bytes: stream.data, start, end: skipValue(stream.data, start) };
      }
    } catch (error) {
      if (error instanceof RawSyntaxError) throw new BrokenXrefError(`object ${num}: ${error.message}`);
      throw error;
    }
    this.spans.set(num, span);
    return span;
  }

  /** The value a reference points at, as written; other values as they are. */
  rawResolve(span: Span | undefined): Span | undefined {
    if (!span) return undefined;
    const ref = refOf(span);
    return ref ? this.raw(ref[0]) : span;
  }

  /** Whether object `num` is an array (a stream is not parsed past its dictionary). */
  isArray(num: number): boolean {
    const span = this.raw(num);
    return Boolean(span && kindOf(span) === 'array');
  }

  /** The top-level object `num` at `offset`: its value, where its body starts and where it ends (before `endobj`). */
  parseIndirect(num: number, offset: number): { object: PDFObject; body: number; end: number } {
    const header = readObjectHeader(this.bytes, offset);
    if (!header || header.num !== num) throw new BrokenXrefError(`object ${num} is not at offset ${offset}`);
    const { object, end } = this.cursor.parseAt(skipBlank(this.bytes, header.body));
    const after = skipBlank(this.bytes, end);
    return { object, body: header.body, end: matches(this.bytes, after, 'endobj') ? after : end };
  }

  /** The object numbers an object stream holds. */
  objectStreamMembers(stream: number): number[] {
    return this.objectStream(stream).numbers;
  }

  private parseCompressed(num: number, entry: { stream: number; index: number }): PDFObject | undefined {
    const stream = this.objectStream(entry.stream);
    const offset = stream.offsets.get(num);
    if (offset === undefined) throw new BrokenXrefError(`object ${num} is not in object stream ${entry.stream}`);
    return stream.cursor.parseAt(stream.first + offset).object;
  }

  private objectStream(num: number): ObjectStream {
    let stream = this.objectStreams.get(num);
    if (stream) return stream;
    const holder = this.entries.get(num);
    if (holder?.kind !== 'offset') throw new BrokenXrefError(`object stream ${num} is not in the file`);
    const raw = this.parseIndirect(num, holder.offset).object;
    if (!(raw instanceof PDFRawStream)) throw new BrokenXrefError(`object ${num} is not an object stream`);
    const data = this.decode(raw);
    const count = this.resolveNumber(raw.dict.get(PDFName.of('N'))) ?? 0;
    const first = this.resolveNumber(raw.dict.get(PDFName.of('First'))) ?? 0;
    const offsets = new Map<number, number>();
    const numbers: number[] = [];
    let at = 0;
    for (let i = 0; i < count; i += 1) {
      const member = readInt(data, at);
      const offset = member && readInt(data, member.end);
      if (!member || !offset) throw new BrokenXrefError(`object stream ${num} has a broken header`);
      if (!offsets.has(member.value)) offsets.set(member.value, offset.value);
      numbers.push(member.value);
      at = offset.end;
    }
    stream = { data, cursor: new Cursor(data, this.context), first, offsets, numbers };
    this.objectStreams.set(num, stream);
    return stream;
  }

  /** A stream's decoded data: Flate (with PNG or TIFF predictors) natively, the other filters by the bounded decoders; every byte counted. */
  decode(stream: PDFRawStream): Uint8Array {
    const filter = this.resolve(stream.dict.get(PDFName.of('Filter')));
    const parms = this.resolve(stream.dict.get(PDFName.of('DecodeParms')));
    const filters = filter === undefined ? [] : filter instanceof PDFArray ? filter.asArray().map((f) => this.resolve(f)) : [filter];
    const parmList = parms instanceof PDFArray ? parms.asArray().map((p) => this.resolveDict(p)) : [parms instanceof PDFDict ? parms : undefined];
    if (filters.every((f) => f === PDFName.of('FlateDecode'))) {
      let data = stream.contents;
      filters.forEach((_, i) => {
        data = unpredict(inflate(data, this.meter), parmList[i], this);
      });
      return data;
    }
    if (parmList.some((p) => p && (this.resolveNumber(p.get(PDFName.of('Predictor'))) ?? 1) > 1)) {
      throw new BrokenXrefError('a structural stream uses a predictor with a filter other than FlateDecode');
    }
    let data = stream.contents;
    for (const f of filters) {
      const name = f instanceof PDFName ? f.decodeText() : '';
      if (name === 'FlateDecode' || name === 'Fl') data = inflate(data, this.meter);
      else if (name === 'LZWDecode' || name === 'LZW') data = lzwDecode(data, this.meter, { keep: true }).data;
      else if (name === 'RunLengthDecode' || name === 'RL') data = runLengthDecode(data, this.meter, { keep: true }).data;
      else if (name === 'ASCIIHexDecode' || name === 'AHx') data = asciiHexDecode(data, this.meter).data;
      else if (name === 'ASCII85Decode' || name === 'A85') data = ascii85Decode(data, this.meter).data;
      else throw new BrokenXrefError(`cannot decode a structural stream: unknown filter ${name || String(f)}`);
    }
    return data;
  }

  private readSections(startxref: number): XrefSection[] {
    const sections: XrefSection[] = [];
    const seen = new Set<number>();
    let offset: number | undefined = startxref;
    while (offset !== undefined) {
      if (seen.has(offset)) throw new BrokenXrefError(`the cross-reference sections loop at offset ${offset}`);
      if (sections.length >= MAX_SECTIONS) throw new BrokenXrefError('too many cross-reference sections');
      seen.add(offset);
      const section = this.readSection(offset);
      sections.push(section);
      offset = numberOf(section.trailer.get(PDFName.of('Prev')));
    }
    return sections;
  }

  private readSection(offset: number): XrefSection {
    if (offset < 0 || offset >= this.bytes.length) throw new BrokenXrefError(`startxref/Prev offset ${offset} is outside the file`);
    const at = skipBlank(this.bytes, offset);
    if (matches(this.bytes, at, 'xref')) {
      const section = this.readTable(offset, at + 4);
      // A hybrid file: the table's entries win, then those of its cross-reference stream.
      const stm = numberOf(section.trailer.get(PDFName.of('XRefStm')));
      if (stm !== undefined) {
        for (const [num, entry] of this.readStreamSection(stm).entries) if (!section.entries.has(num)) section.entries.set(num, entry);
      }
      return section;
    }
    return this.readStreamSection(offset);
  }

  private readTable(offset: number, at: number): XrefSection {
    const entries = new Map<number, XrefEntry>();
    const bytes = this.bytes;
    for (;;) {
      at = skipBlank(bytes, at);
      if (matches(bytes, at, 'trailer')) break;
      const start = readInt(bytes, at);
      const count = start && readInt(bytes, start.end);
      if (!start || !count) throw new BrokenXrefError(`broken cross-reference table at offset ${offset}`);
      at = count.end;
      for (let i = 0; i < count.value; i += 1) {
        const position = readInt(bytes, at);
        const gen = position && readInt(bytes, position.end);
        if (!position || !gen) throw new BrokenXrefError(`broken cross-reference entry at offset ${at}`);
        at = skipBlank(bytes, gen.end);
        const type = bytes[at];
        if (type !== 0x6e /* n */ && type !== 0x66 /* f */) throw new BrokenXrefError(`broken cross-reference entry at offset ${at}`);
        at += 1;
        const num = start.value + i;
        if (!entries.has(num)) entries.set(num, type === 0x6e ? { kind: 'offset', offset: position.value, gen: gen.value } : { kind: 'free' });
      }
    }
    const { object } = this.cursor.parseAt(skipBlank(bytes, at + 7));
    if (!(object instanceof PDFDict)) throw new BrokenXrefError(`no trailer dictionary after the cross-reference table at offset ${offset}`);
    return { offset, kind: 'table', trailer: object, entries };
  }

  private readStreamSection(offset: number): XrefSection {
    const header = readObjectHeader(this.bytes, offset);
    if (!header) throw new BrokenXrefError(`no cross-reference section at offset ${offset}`);
    const { object } = this.cursor.parseAt(skipBlank(this.bytes, header.body));
    if (!(object instanceof PDFRawStream) || object.dict.get(PDFName.of('Type')) !== PDFName.of('XRef')) {
      throw new BrokenXrefError(`no cross-reference stream at offset ${offset}`);
    }
    const dict = object.dict;
    const widths = (this.resolveArray(dict.get(PDFName.of('W')))?.asArray() ?? []).map((w) => this.resolveNumber(w) ?? -1);
    if (widths.length !== 3 || widths.some((w) => w < 0 || w > 8)) throw new BrokenXrefError(`cross-reference stream at offset ${offset} has a bad /W`);
    const size = this.resolveNumber(dict.get(PDFName.of('Size'))) ?? 0;
    const index = (this.resolveArray(dict.get(PDFName.of('Index')))?.asArray() ?? [PDFNumber.of(0), PDFNumber.of(size)]).map(
      (n) => this.resolveNumber(n) ?? -1,
    );
    if (index.length % 2 !== 0 || index.some((n) => n < 0)) throw new BrokenXrefError(`cross-reference stream at offset ${offset} has a bad /Index`);
    const data = this.decode(object);
    const [w0, w1, w2] = widths;
    const rowLength = w0 + w1 + w2;
    const field = (at: number, width: number) => {
      let value = 0;
      for (let i = 0; i < width; i += 1) value = value * 256 + data[at + i];
      return value;
    };
    const entries = new Map<number, XrefEntry>();
    let at = 0;
    for (let pair = 0; pair < index.length; pair += 2) {
      for (let i = 0; i < index[pair + 1]; i += 1) {
        if (at + rowLength > data.length) throw new BrokenXrefError(`cross-reference stream at offset ${offset} is shorter than its /Index`);
        const type = w0 === 0 ? 1 : field(at, w0);
        const second = field(at + w0, w1);
        const third = field(at + w0 + w1, w2);
        at += rowLength;
        const num = index[pair] + i;
        if (entries.has(num)) continue;
        if (type === 0) entries.set(num, { kind: 'free' });
        else if (type === 1) entries.set(num, { kind: 'offset', offset: second, gen: third });
        else if (type === 2) entries.set(num, { kind: 'compressed', stream: second, index: third });
        // Other types are reserved: readers treat them as null objects.
      }
    }
    return { offset, kind: 'stream', trailer: dict, entries };
  }
}

function matchesHeader(bytes: Uint8Array): boolean {
  return matches(bytes, 0, '%PDF-');
}

function findStartxref(bytes: Uint8Array): number {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = view.lastIndexOf('startxref');
  if (at < 0) throw new BrokenXrefError('no startxref');
  const offset = readInt(bytes, at + 9);
  if (!offset) throw new BrokenXrefError('no offset after startxref');
  return offset.value;
}

/** Inflates a structural stream natively (the fast path for the books' own files), stopped one byte past what the budget leaves. */
function inflate(data: Uint8Array, meter: BudgetMeter): Uint8Array {
  const { streamBytes, totalBytes } = meter.budget;
  const maxOutputLength = Math.max(1, Math.min(streamBytes, totalBytes - meter.producedBytes) + 1);
  const attempt = (finishFlush?: number) => {
    try {
      return inflateSync(data, { maxOutputLength, ...(finishFlush === undefined ? {} : { finishFlush }) });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw overBudget(meter.producedBytes + maxOutputLength > totalBytes ? 'totalBytes' : 'streamBytes', meter.budget, meter.file);
      }
      throw error;
    }
  };
  let out: Uint8Array;
  try {
    out = attempt();
  } catch (error) {
    if ((error as Error).name === 'FileRefusedError') throw error;
    try {
      // Tolerates a truncated stream or a bad checksum, as viewers do.
      out = attempt(zlibConstants.Z_SYNC_FLUSH);
    } catch (again) {
      if ((again as Error).name === 'FileRefusedError') throw again;
      throw new BrokenXrefError(`cannot inflate a structural stream: ${(again as Error).message}`);
    }
  }
  meter.produced(out.length, out.length);
  return out;
}

/** Undoes a PNG (10–15) or TIFF (2) predictor on 8-bit data. */
function unpredict(data: Uint8Array, parms: PDFDict | undefined, source: PdfSource): Uint8Array {
  const get = (key: string, fallback: number) => (parms ? (source.resolveNumber(parms.get(PDFName.of(key))) ?? fallback) : fallback);
  const predictor = get('Predictor', 1);
  if (predictor <= 1) return data;
  const colors = get('Colors', 1);
  const bits = get('BitsPerComponent', 8);
  const columns = get('Columns', 1);
  if (bits !== 8) throw new BrokenXrefError(`unsupported predictor bit depth ${bits}`);
  const bpp = colors;
  const rowLength = columns * colors;
  if (predictor === 2) {
    const out = new Uint8Array(data);
    for (let row = 0; row + rowLength <= out.length; row += rowLength) {
      for (let i = bpp; i < rowLength; i += 1) out[row + i] = (out[row + i] + out[row + i - bpp]) & 0xff;
    }
    return out;
  }
  const rows = Math.floor(data.length / (rowLength + 1));
  const out = new Uint8Array(rows * rowLength);
  for (let r = 0; r < rows; r += 1) {
    const type = data[r * (rowLength + 1)];
    const src = r * (rowLength + 1) + 1;
    const dst = r * rowLength;
    const prev = dst - rowLength;
    for (let i = 0; i < rowLength; i += 1) {
      const raw = data[src + i];
      const left = i >= bpp ? out[dst + i - bpp] : 0;
      const up = r > 0 ? out[prev + i] : 0;
      const upLeft = r > 0 && i >= bpp ? out[prev + i - bpp] : 0;
      let value: number;
      switch (type) {
        case 0:
          value = raw;
          break;
        case 1:
          value = raw + left;
          break;
        case 2:
          value = raw + up;
          break;
        case 3:
          value = raw + ((left + up) >> 1);
          break;
        case 4: {
          const p = left + up - upLeft;
          const pa = Math.abs(p - left);
          const pb = Math.abs(p - up);
          const pc = Math.abs(p - upLeft);
          value = raw + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
          break;
        }
        default:
          throw new BrokenXrefError(`unknown PNG predictor row type ${type}`);
      }
      out[dst + i] = value & 0xff;
    }
  }
  return out;
}
