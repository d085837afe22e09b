// PDF syntax at the byte level (ISO 32000-1 §7.2–7.3): enough to find where a
// value ends and to read dictionaries entry by entry without building objects,
// so the update can copy what it does not change exactly as it was written.

/** A value as written: `bytes[start, end)`. */
export interface Span {
  bytes: Uint8Array;
  start: number;
  end: number;
}

export interface RawEntry {
  /** The key without its slash, as written (`#xx` escapes left alone). */
  key: string;
  /** Where the key's slash is: `bytes[keyStart, value.end)` is the whole entry. */
  keyStart: number;
  value: Span;
}

export class SyntaxError extends Error {
  override readonly name = 'PdfSyntaxError';
}

const WHITE = new Uint8Array(256);
for (const byte of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WHITE[byte] = 1;
const DELIMITER = new Uint8Array(256);
for (const char of '()<>[]{}/%') DELIMITER[char.charCodeAt(0)] = 1;

export const isWhite = (byte: number) => WHITE[byte] === 1;
const isRegular = (byte: number) => WHITE[byte] === 0 && DELIMITER[byte] === 0;
const isDigit = (byte: number) => byte >= 0x30 && byte <= 0x39;

/** Past whitespace and comments. */
export function skipBlank(bytes: Uint8Array, at: number): number {
  const length = bytes.length;
  for (;;) {
    while (at < length && WHITE[bytes[at]] === 1) at += 1;
    if (at >= length || bytes[at] !== 0x25 /* % */) return at;
    while (at < length && bytes[at] !== 0x0a && bytes[at] !== 0x0d) at += 1;
  }
}

function tokenEnd(bytes: Uint8Array, at: number): number {
  while (at < bytes.length && isRegular(bytes[at])) at += 1;
  return at;
}

function isInteger(bytes: Uint8Array, start: number, end: number): boolean {
  if (start >= end) return false;
  for (let i = start; i < end; i += 1) if (!isDigit(bytes[i])) return false;
  return true;
}

const MAX_DEPTH = 200;

/** Where the value starting at (or after blanks from) `at` ends. A reference `n g R` is one value. */
export function skipValue(bytes: Uint8Array, at: number, depth = 0): number {
  if (depth > MAX_DEPTH) throw new SyntaxError('objects nested too deep');
  at = skipBlank(bytes, at);
  const length = bytes.length;
  if (at >= length) throw new SyntaxError('value expected at the end of the data');
  const byte = bytes[at];
  if (byte === 0x3c /* < */) {
    if (bytes[at + 1] === 0x3c) {
      at += 2;
      for (;;) {
        at = skipBlank(bytes, at);
        if (at >= length) throw new SyntaxError('unterminated dictionary');
        if (bytes[at] === 0x3e && bytes[at + 1] === 0x3e) return at + 2;
        at = skipValue(bytes, at, depth + 1);
      }
    }
    const close = bytes.indexOf(0x3e, at + 1);
    if (close < 0) throw new SyntaxError('unterminated hex string');
    return close + 1;
  }
  if (byte === 0x5b /* [ */) {
    at += 1;
    for (;;) {
      at = skipBlank(bytes, at);
      if (at >= length) throw new SyntaxError('unterminated array');
      if (bytes[at] === 0x5d) return at + 1;
      at = skipValue(bytes, at, depth + 1);
    }
  }
  if (byte === 0x28 /* ( */) {
    let nesting = 0;
    for (at += 1; at < length; at += 1) {
      const c = bytes[at];
      if (c === 0x5c /* \ */) at += 1;
      else if (c === 0x28) nesting += 1;
      else if (c === 0x29) {
        if (nesting === 0) return at + 1;
        nesting -= 1;
      }
    }
    throw new SyntaxError('unterminated string');
  }
  if (byte === 0x2f /* / */) return tokenEnd(bytes, at + 1);
  if (!isRegular(byte)) throw new SyntaxError(`unexpected ${String.fromCharCode(byte)} at offset ${at}`);
  const end = tokenEnd(bytes, at);
  if (isInteger(bytes, at, end)) {
    // `n g R`?
    const genStart = skipBlank(bytes, end);
    const genEnd = tokenEnd(bytes, genStart);
    if (genEnd > genStart && isInteger(bytes, genStart, genEnd)) {
      const r = skipBlank(bytes, genEnd);
      if (bytes[r] === 0x52 /* R */ && (r + 1 >= length || !isRegular(bytes[r + 1]))) return r + 1;
    }
  }
  return end;
}

/** The entries of the dictionary at `at` (after blanks), and where it ends. */
export function scanDict(bytes: Uint8Array, at: number): { entries: RawEntry[]; end: number } {
  at = skipBlank(bytes, at);
  if (bytes[at] !== 0x3c || bytes[at + 1] !== 0x3c) throw new SyntaxError(`dictionary expected at offset ${at}`);
  at += 2;
  const entries: RawEntry[] = [];
  for (;;) {
    at = skipBlank(bytes, at);
    if (at >= bytes.length) throw new SyntaxError('unterminated dictionary');
    if (bytes[at] === 0x3e && bytes[at + 1] === 0x3e) return { entries, end: at + 2 };
    if (bytes[at] !== 0x2f) throw new SyntaxError(`dictionary key expected at offset ${at}`);
    const keyStart = at;
    const keyEnd = tokenEnd(bytes, at + 1);
    const start = skipBlank(bytes, keyEnd);
    const end = skipValue(bytes, start);
    const key = latin1(bytes, keyStart + 1, keyEnd);
    entries.push({ key: key.includes('#') ? decodeName(key) : key, keyStart, value: { bytes, start, end } });
    at = end;
  }
}

/** The items of the array at `span`. */
export function arrayItems(span: Span): Span[] {
  const { bytes } = span;
  let at = skipBlank(bytes, span.start);
  if (bytes[at] !== 0x5b) throw new SyntaxError(`array expected at offset ${at}`);
  at += 1;
  const items: Span[] = [];
  for (;;) {
    at = skipBlank(bytes, at);
    if (at >= span.end) throw new SyntaxError('unterminated array');
    if (bytes[at] === 0x5d) return items;
    const end = skipValue(bytes, at);
    items.push({ bytes, start: at, end });
    at = end;
  }
}

export function latin1(bytes: Uint8Array, start: number, end: number): string {
  let text = '';
  for (let i = start; i < end; i += 1) text += String.fromCharCode(bytes[i]);
  return text;
}

export function spanText(span: Span): string {
  return latin1(span.bytes, span.start, span.end);
}

export type ValueKind = 'dict' | 'array' | 'string' | 'name' | 'ref' | 'number' | 'other';

export function kindOf(span: Span): ValueKind {
  const { bytes, start, end } = span;
  const byte = bytes[start];
  if (byte === 0x3c) return bytes[start + 1] === 0x3c ? 'dict' : 'string';
  if (byte === 0x5b) return 'array';
  if (byte === 0x28) return 'string';
  if (byte === 0x2f) return 'name';
  if (bytes[end - 1] === 0x52 && end - start >= 5) return 'ref';
  if (end - start > 40) return 'other';
  return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(spanText(span)) ? 'number' : 'other';
}

/** `n g R` → [n, g]. */
export function refOf(span: Span): [number, number] | undefined {
  if (span.bytes[span.end - 1] !== 0x52 || !isDigit(span.bytes[span.start]) || span.end - span.start > 40) return undefined;
  const match = /^(\d+)\s+(\d+)\s+R$/.exec(spanText(span));
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

export function numberOf(span: Span | undefined): number | undefined {
  if (!span) return undefined;
  return kindOf(span) === 'number' ? Number(spanText(span)) : undefined;
}

/** A name's value without its slash, `#xx` escapes decoded. */
export function nameOf(span: Span | undefined): string | undefined {
  if (!span || kindOf(span) !== 'name') return undefined;
  return decodeName(latin1(span.bytes, span.start + 1, span.end));
}

function decodeName(name: string): string {
  return name.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
