// Measures what reading a PDF someone sent would cost, before any PDF library
// touches it: one pass over the file's syntax (every object, dictionary and
// stream, however the cross-reference data points at them) and every stream
// decoded through its filters while counting the bytes it produces (then let
// go), object streams read for the objects and pages they hold, pictures
// measured in pixels. pdf-lib and pdf.js decode no more than this counts, so a
// file within its budget is safe to hand to them; one over it is refused with
// the limit it passed. Encrypted files are refused: their streams cannot be
// measured without decrypting them.
import { type BudgetMeter, FileRefusedError, unreadable } from './budget';
import { inflateCounted } from './bounded-inflate';
import { jpegSize } from './image-size';
import { ascii85Decode, asciiHexDecode, lzwDecode, runLengthDecode } from './stream-filters';

export interface PdfMeasure {
  /** Page objects found (`/Type /Page`). */
  pages: number;
  /** Objects found, top-level and in object streams. */
  objects: number;
  streams: number;
  images: number;
  /** Bytes all decoded streams produced. */
  producedBytes: number;
}

/** A value as far as the gauge needs it: numbers, names, references, short arrays and dictionaries. */
type Value =
  | { kind: 'number'; value: number }
  | { kind: 'name'; value: string }
  | { kind: 'ref'; num: number }
  | { kind: 'array'; items: Value[] }
  | { kind: 'dict'; entries: Map<string, Value> }
  | { kind: 'other' };

const OTHER: Value = { kind: 'other' };
/** Items of an array kept for the gauge's questions (filter lists, /Index); the rest only counted. */
const ARRAY_ITEMS_KEPT = 64;

interface Frame {
  kind: 'array' | 'dict';
  items: Value[];
  entries: Map<string, Value>;
  key: string | null;
  /** Numbers not yet placed: the start of `n g R` until its `R` (or another token) says what they are. */
  numbers: number[];
}

interface FoundStream {
  dict: Map<string, Value>;
  start: number;
  end: number;
}

const WHITE = new Uint8Array(256);
for (const byte of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WHITE[byte] = 1;
const DELIMITER = new Uint8Array(256);
for (const char of '()<>[]{}/%') DELIMITER[char.charCodeAt(0)] = 1;
const isRegular = (byte: number) => WHITE[byte] === 0 && DELIMITER[byte] === 0;

const ENDSTREAM = Buffer.from('endstream', 'latin1');

/**
 * The syntax of one run of PDF bytes: the file itself (objects, streams) or the inside of an
 * object stream (`inObjectStream`: values only). Calls back for every dictionary completed and
 * every stream found; counts depth and pages as it goes.
 */
class Scanner {
  private stack: Frame[] = [];
  /** The last value completed outside any container, and numbers waiting at the top level. */
  private top: Value | null = null;
  private topNumbers: number[] = [];
  private objectNumber = -1;
  readonly streams: FoundStream[] = [];
  /** Small top-level objects by number (for a `/Length 12 0 R` or a filter named by reference). */
  readonly objects = new Map<number, Value>();

  constructor(
    private readonly bytes: Uint8Array,
    private readonly meter: BudgetMeter,
    private readonly inObjectStream: boolean,
    private readonly onDict: (entries: Map<string, Value>) => void,
  ) {}

  scan(from: number, to: number): void {
    const b = this.bytes;
    let at = from;
    while (at < to) {
      const byte = b[at]!;
      if (WHITE[byte]) {
        at += 1;
      } else if (byte === 0x25 /* % */) {
        while (at < to && b[at] !== 0x0a && b[at] !== 0x0d) at += 1;
      } else if (byte === 0x2f /* / */) {
        let end = at + 1;
        while (end < to && isRegular(b[end]!)) end += 1;
        this.value({ kind: 'name', value: decodeName(b, at + 1, end) });
        at = end;
      } else if (byte === 0x28 /* ( */) {
        at = skipLiteralString(b, at, to);
        this.value(OTHER);
      } else if (byte === 0x3c /* < */) {
        if (b[at + 1] === 0x3c) {
          this.open('dict');
          at += 2;
        } else {
          while (at < to && b[at] !== 0x3e) at += 1;
          at += 1;
          this.value(OTHER);
        }
      } else if (byte === 0x3e /* > */) {
        if (b[at + 1] === 0x3e) {
          this.close('dict');
          at += 2;
        } else {
          at += 1;
        }
      } else if (byte === 0x5b /* [ */) {
        this.open('array');
        at += 1;
      } else if (byte === 0x5d /* ] */) {
        this.close('array');
        at += 1;
      } else if (byte === 0x7b || byte === 0x7d /* { } */) {
        at += 1;
      } else {
        let end = at;
        while (end < to && isRegular(b[end]!)) end += 1;
        if (end === at) end += 1;
        at = this.word(at, end, to);
      }
    }
    this.flushNumbers();
  }

  /** A keyword or a number at `bytes[start, end)`; answers where scanning goes on. */
  private word(start: number, end: number, to: number): number {
    const b = this.bytes;
    const first = b[start]!;
    if ((first >= 0x30 && first <= 0x39) || first === 0x2b || first === 0x2d || first === 0x2e) {
      const number = Number(Buffer.from(b.buffer, b.byteOffset + start, end - start).toString('latin1'));
      this.pushNumber(Number.isFinite(number) ? number : 0);
      return end;
    }
    const keyword = Buffer.from(b.buffer, b.byteOffset + start, end - start).toString('latin1');
    const numbers = this.stack.length > 0 ? this.stack[this.stack.length - 1]!.numbers : this.topNumbers;
    if (keyword === 'R' && numbers.length >= 2) {
      const num = numbers[numbers.length - 2]!;
      numbers.length -= 2;
      this.flushNumbers();
      this.place({ kind: 'ref', num });
      return end;
    }
    if (!this.inObjectStream && keyword === 'obj' && numbers.length >= 2) {
      // `n g obj` starts an object wherever it appears: whatever an earlier, broken one left open ends here.
      this.objectNumber = numbers[numbers.length - 2]!;
      this.stack = [];
      this.topNumbers = [];
      this.top = null;
      this.meter.count('objects');
      return end;
    }
    if (!this.inObjectStream && keyword === 'endobj') {
      this.flushNumbers();
      // Everything between `obj` and `endobj` is one object: a container left open ends here.
      this.stack = [];
      if (this.objectNumber >= 0 && this.top && isSmall(this.top)) this.objects.set(this.objectNumber, this.top);
      this.objectNumber = -1;
      this.top = null;
      return end;
    }
    if (!this.inObjectStream && keyword === 'stream' && this.stack.length === 0 && this.top?.kind === 'dict') {
      return this.stream(this.top.entries, end, to);
    }
    this.flushNumbers();
    this.place(OTHER);
    return end;
  }

  /** A stream's data starts after the keyword's end of line; its end is where /Length says when `endstream` is there, else the next `endstream`. */
  private stream(dict: Map<string, Value>, keywordEnd: number, to: number): number {
    const b = this.bytes;
    let start = keywordEnd;
    if (b[start] === 0x0d) start += 1;
    if (b[start] === 0x0a) start += 1;
    const declared = dict.get('Length');
    let end = -1;
    if (declared?.kind === 'number' && declared.value >= 0 && start + declared.value <= to) {
      let after = start + declared.value;
      while (after < to && WHITE[b[after]!]) after += 1;
      if (matchesAt(b, after, ENDSTREAM)) end = start + declared.value;
    }
    if (end < 0) {
      const found = Buffer.from(b.buffer, b.byteOffset, to).indexOf(ENDSTREAM, start);
      end = found < 0 ? to : found;
    }
    this.streams.push({ dict, start, end });
    this.top = null;
    const next = Buffer.from(b.buffer, b.byteOffset, to).indexOf(ENDSTREAM, end);
    return next < 0 ? to : next + ENDSTREAM.length;
  }

  private pushNumber(n: number): void {
    const numbers = this.stack.length > 0 ? this.stack[this.stack.length - 1]!.numbers : this.topNumbers;
    numbers.push(n);
    // Only the last two can still become a reference or an object header.
    if (numbers.length > 2) this.place({ kind: 'number', value: numbers.shift()! });
  }

  private flushNumbers(): void {
    const numbers = this.stack.length > 0 ? this.stack[this.stack.length - 1]!.numbers : this.topNumbers;
    while (numbers.length > 0) this.place({ kind: 'number', value: numbers.shift()! });
  }

  private value(value: Value): void {
    this.flushNumbers();
    this.place(value);
  }

  /** Puts a completed value where it belongs: a dictionary's key or value, an array's item, or the top level. */
  private place(value: Value): void {
    const frame = this.stack[this.stack.length - 1];
    if (!frame) {
      this.top = value;
      return;
    }
    if (frame.kind === 'array') {
      if (frame.items.length < ARRAY_ITEMS_KEPT) frame.items.push(value);
      return;
    }
    if (frame.key === null) {
      if (value.kind === 'name') frame.key = value.value;
      return; // a stray value where a key should be: ignored, as readers do
    }
    frame.entries.set(frame.key, value);
    frame.key = null;
  }

  private open(kind: 'array' | 'dict'): void {
    this.flushNumbers();
    this.stack.push({ kind, items: [], entries: new Map(), key: null, numbers: [] });
    this.meter.depth(this.stack.length);
  }

  private close(kind: 'array' | 'dict'): void {
    const frame = this.stack[this.stack.length - 1];
    if (!frame || frame.kind !== kind) return; // unbalanced: ignored, as readers do
    this.flushNumbers();
    this.stack.pop();
    if (kind === 'dict') {
      this.onDict(frame.entries);
      this.place({ kind: 'dict', entries: frame.entries });
    } else {
      this.place({ kind: 'array', items: frame.items });
    }
  }
}

/** What is kept of an object for later references: numbers, names and short arrays or dictionaries (filter lists, decode parameters). */
function isSmall(value: Value): boolean {
  if (value.kind === 'number' || value.kind === 'name') return true;
  if (value.kind === 'array') return value.items.length <= 8 && value.items.every((item) => item.kind === 'number' || item.kind === 'name');
  if (value.kind === 'dict') return value.entries.size <= 8 && [...value.entries.values()].every((item) => item.kind === 'number' || item.kind === 'name');
  return false;
}

function matchesAt(b: Uint8Array, at: number, word: Uint8Array): boolean {
  if (at + word.length > b.length) return false;
  for (let i = 0; i < word.length; i += 1) if (b[at + i] !== word[i]) return false;
  return true;
}

/** A name's text with its `#xx` escapes decoded, as a reader sees it (`/Enc#72ypt` is /Encrypt). */
function decodeName(b: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end; i += 1) {
    const byte = b[i]!;
    if (byte === 0x23 && i + 2 < end) {
      const hex = Number.parseInt(String.fromCharCode(b[i + 1]!, b[i + 2]!), 16);
      if (Number.isFinite(hex)) {
        out += String.fromCharCode(hex);
        i += 2;
        continue;
      }
    }
    out += String.fromCharCode(byte);
  }
  return out;
}

/** Past a literal string `( … )`: balanced parentheses, backslash escapes. */
function skipLiteralString(b: Uint8Array, at: number, to: number): number {
  let depth = 0;
  while (at < to) {
    const byte = b[at]!;
    if (byte === 0x5c) at += 2;
    else {
      if (byte === 0x28) depth += 1;
      else if (byte === 0x29) {
        depth -= 1;
        if (depth === 0) return at + 1;
      }
      at += 1;
    }
  }
  return to;
}

/** Measures `bytes` against the meter's budget; throws a `FileRefusedError` naming the limit passed. */
export function gaugePdf(bytes: Uint8Array, meter: BudgetMeter): PdfMeasure {
  if (!Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).includes('%PDF-')) {
    throw unreadable(meter.file, 'it is not a PDF');
  }
  let encrypted = false;
  const onDict = (entries: Map<string, Value>) => {
    if (entries.has('Encrypt')) encrypted = true;
    const type = entries.get('Type');
    if (type?.kind === 'name' && type.value === 'Page') meter.count('pages');
  };
  const file = new Scanner(bytes, meter, false, onDict);
  file.scan(0, bytes.length);
  if (encrypted) {
    throw new FileRefusedError(
      422,
      `${meter.file} is encrypted, so it cannot be checked: save it without encryption (for example with "qpdf --decrypt") and upload it again`,
      'ENCRYPTED_PDF',
    );
  }

  const resolve = (value: Value | undefined): Value | undefined => (value?.kind === 'ref' ? file.objects.get(value.num) : value);
  const nameOf = (value: Value | undefined) => {
    const v = resolve(value);
    return v?.kind === 'name' ? v.value : undefined;
  };
  const numberOf = (value: Value | undefined) => {
    const v = resolve(value);
    return v?.kind === 'number' ? v.value : undefined;
  };

  let images = 0;
  for (const stream of file.streams) {
    const raw = bytes.subarray(stream.start, stream.end);
    const type = nameOf(stream.dict.get('Type'));
    const filterValue = resolve(stream.dict.get('Filter'));
    const filters = (filterValue?.kind === 'array' ? filterValue.items.map(nameOf) : [nameOf(filterValue)]).filter((f) => f !== undefined);
    if (nameOf(stream.dict.get('Subtype')) === 'Image') {
      images += 1;
      const width = numberOf(stream.dict.get('Width')) ?? numberOf(stream.dict.get('W'));
      const height = numberOf(stream.dict.get('Height')) ?? numberOf(stream.dict.get('H'));
      if (width !== undefined && height !== undefined) meter.image(Math.max(0, width), Math.max(0, height));
      // A JPEG's decoder allocates what the JPEG says, whatever the dictionary claims.
      if (filters[filters.length - 1] === 'DCTDecode' || filters[filters.length - 1] === 'DCT') {
        const data = filters.length === 1 ? raw : decodeChain(raw, filters.slice(0, -1), meter, true).data;
        const size = jpegSize(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
        if (size) meter.image(size.width, size.height);
      }
      // Other pictures: their decoders produce what width × height asks for, measured above.
      continue;
    }
    const keep = type === 'ObjStm';
    const decoded = decodeChain(raw, filters, meter, keep);
    // Even a damaged object stream is read as far as it goes: readers parse what came out.
    if (type === 'ObjStm') objectStream(decoded.data, numberOf(stream.dict.get('First')) ?? 0, meter, onDict);
    if (type === 'XRef') {
      const index = resolve(stream.dict.get('Index'));
      let entries = numberOf(stream.dict.get('Size')) ?? 0;
      if (index?.kind === 'array') {
        entries = 0;
        for (let i = 1; i < index.items.length; i += 2) entries += Math.max(0, numberOf(index.items[i]) ?? 0);
      }
      // A reader allocates the entries the stream says it holds: more than the file may have objects is refused.
      if (entries > meter.budget.objects) meter.count('objects', entries);
    }
  }
  return { pages: meter.counted('pages'), objects: meter.counted('objects'), streams: file.streams.length, images, producedBytes: meter.producedBytes };
}

/** The objects of an object stream: its header's `number offset` pairs counted, its values scanned from `first`. */
function objectStream(data: Uint8Array, first: number, meter: BudgetMeter, onDict: (entries: Map<string, Value>) => void): void {
  const headerEnd = Math.max(0, Math.min(first, data.length));
  let integers = 0;
  let inNumber = false;
  for (let i = 0; i < headerEnd; i += 1) {
    const digit = data[i]! >= 0x30 && data[i]! <= 0x39;
    if (digit && !inNumber) integers += 1;
    inNumber = digit;
  }
  meter.count('objects', Math.floor(integers / 2));
  new Scanner(data, meter, true, onDict).scan(headerEnd, data.length);
}

interface ChainResult {
  data: Uint8Array;
  /** False when a filter met damaged data or one the gauge cannot decode (what came out is still counted). */
  complete: boolean;
}

/** Runs a stream through its filters in order, counting what each produces; keeps the result when asked (or when another filter needs it). */
function decodeChain(raw: Uint8Array, filters: readonly string[], meter: BudgetMeter, keep: boolean): ChainResult {
  let data = raw;
  for (let i = 0; i < filters.length; i += 1) {
    const keepThis = keep || i < filters.length - 1;
    switch (filters[i]) {
      case 'FlateDecode':
      case 'Fl': {
        const out = inflateCounted(data, meter, { keep: keepThis });
        if (!out.complete) return { data: out.data, complete: false };
        data = out.data;
        break;
      }
      case 'LZWDecode':
      case 'LZW':
        data = lzwDecode(data, meter, { keep: keepThis }).data;
        break;
      case 'RunLengthDecode':
      case 'RL':
        data = runLengthDecode(data, meter, { keep: keepThis }).data;
        break;
      case 'ASCIIHexDecode':
      case 'AHx':
        data = asciiHexDecode(data, meter).data;
        break;
      case 'ASCII85Decode':
      case 'A85':
        data = ascii85Decode(data, meter).data;
        break;
      default:
        // Picture codecs on a stream that is not a picture, or a name no reader knows: nothing to measure.
        return { data, complete: false };
    }
  }
  return { data, complete: true };
}
