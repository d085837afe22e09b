// The PDF stream filters that can multiply a stream's size (ISO 32000-1 §7.4),
// decoded while counting what they produce: LZW (up to ~10,000 times its
// input), RunLength (128 times), and the ASCII encodings that feed them. Flate
// is bounded-inflate.ts.
import type { BudgetMeter } from './budget';

export interface Decoded {
  data: Uint8Array;
  produced: number;
}

/** Grows an output buffer while counting every byte against the meter. */
class CountedOutput {
  private buffer: Uint8Array;
  length = 0;

  constructor(
    private readonly meter: BudgetMeter,
    private readonly keep: boolean,
    sizeHint: number,
  ) {
    this.buffer = new Uint8Array(keep ? Math.max(256, Math.min(sizeHint, 1 << 20)) : 0);
  }

  write(byte: number): void {
    this.grow(1);
    if (this.keep) this.buffer[this.length] = byte;
    this.length += 1;
  }

  writeRepeated(byte: number, count: number): void {
    this.grow(count);
    if (this.keep) this.buffer.fill(byte, this.length, this.length + count);
    this.length += count;
  }

  writeBytes(bytes: Uint8Array): void {
    this.grow(bytes.length);
    if (this.keep) this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  private grow(more: number): void {
    this.meter.produced(more, this.length + more);
    if (!this.keep || this.length + more <= this.buffer.length) return;
    const next = new Uint8Array(Math.max(this.buffer.length * 2, this.length + more));
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }

  result(): Decoded {
    return { data: this.keep ? this.buffer.subarray(0, this.length) : new Uint8Array(0), produced: this.length };
  }
}

/** LZWDecode with PDF's code lengths (9 to 12 bits, EarlyChange 1 unless 0). Stops at the end-of-data code or damage. */
export function lzwDecode(input: Uint8Array, meter: BudgetMeter, { keep = false, earlyChange = 1 } = {}): Decoded {
  const out = new CountedOutput(meter, keep, input.length * 4);
  // The dictionary as prefix links: each code is a previous code plus one byte.
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const lengths = new Uint16Array(4096);
  const scratch = new Uint8Array(4096);
  for (let i = 0; i < 256; i += 1) {
    prefix[i] = -1;
    suffix[i] = i;
    lengths[i] = 1;
  }
  let next = 258;
  let bits = 9;
  let previous = -1;
  let buffer = 0;
  let held = 0;
  let at = 0;
  const emit = (code: number): number => {
    const length = lengths[code]!;
    let c = code;
    for (let i = length - 1; i >= 0; i -= 1) {
      scratch[i] = suffix[c]!;
      c = prefix[c]!;
    }
    out.writeBytes(scratch.subarray(0, length));
    return scratch[0]!;
  };
  for (;;) {
    while (held < bits && at < input.length) {
      buffer = ((buffer << 8) | input[at++]!) & 0xffffff;
      held += 8;
    }
    if (held < bits) break;
    const code = (buffer >>> (held - bits)) & ((1 << bits) - 1);
    held -= bits;
    if (code === 256) {
      next = 258;
      bits = 9;
      previous = -1;
      continue;
    }
    if (code === 257) break;
    if (previous < 0) {
      if (code > 255) break; // damaged: the first code after a reset is a byte
      emit(code);
      previous = code;
      continue;
    }
    let first: number;
    if (code < next) {
      first = emit(code);
    } else if (code === next) {
      // The code being defined now: the previous string and its own first byte.
      const head = emit(previous);
      out.write(head);
      first = head;
    } else {
      break; // damaged
    }
    if (next < 4096) {
      prefix[next] = previous;
      suffix[next] = first;
      lengths[next] = lengths[previous]! + 1;
      next += 1;
    }
    previous = code;
    if (next + earlyChange >= 1 << bits && bits < 12) bits += 1;
  }
  return out.result();
}

/** RunLengthDecode: a length byte, then that many + 1 bytes, or one byte repeated 257 − length times; 128 ends. */
export function runLengthDecode(input: Uint8Array, meter: BudgetMeter, { keep = false } = {}): Decoded {
  const out = new CountedOutput(meter, keep, input.length * 2);
  let at = 0;
  while (at < input.length) {
    const length = input[at++]!;
    if (length === 128) break;
    if (length < 128) {
      out.writeBytes(input.subarray(at, at + length + 1));
      at += length + 1;
    } else {
      if (at >= input.length) break;
      out.writeRepeated(input[at++]!, 257 - length);
    }
  }
  return out.result();
}

const hexValue = (byte: number) =>
  byte >= 0x30 && byte <= 0x39 ? byte - 0x30 : byte >= 0x41 && byte <= 0x46 ? byte - 0x37 : byte >= 0x61 && byte <= 0x66 ? byte - 0x57 : -1;

/** ASCIIHexDecode: pairs of hex digits up to `>`, white space ignored. */
export function asciiHexDecode(input: Uint8Array, meter: BudgetMeter): Decoded {
  const out = new CountedOutput(meter, true, input.length / 2);
  let high = -1;
  for (const byte of input) {
    if (byte === 0x3e) break;
    const value = hexValue(byte);
    if (value < 0) continue;
    if (high < 0) high = value;
    else {
      out.write((high << 4) | value);
      high = -1;
    }
  }
  if (high >= 0) out.write(high << 4);
  return out.result();
}

/** ASCII85Decode: groups of five characters to four bytes, `z` for four zeros, up to `~>`. */
export function ascii85Decode(input: Uint8Array, meter: BudgetMeter): Decoded {
  const out = new CountedOutput(meter, true, input.length);
  const group: number[] = [];
  const flush = (count: number) => {
    while (group.length < 5) group.push(84);
    let value = 0;
    for (const digit of group) value = value * 85 + digit;
    for (let i = 0; i < count - 1; i += 1) out.write((value >>> (24 - 8 * i)) & 0xff);
    group.length = 0;
  };
  for (const byte of input) {
    if (byte === 0x7e) break; // ~>
    if (byte === 0x7a && group.length === 0) {
      out.writeRepeated(0, 4);
      continue;
    }
    if (byte < 0x21 || byte > 0x75) continue;
    group.push(byte - 0x21);
    if (group.length === 5) flush(5);
  }
  if (group.length > 1) flush(group.length);
  return out.result();
}
