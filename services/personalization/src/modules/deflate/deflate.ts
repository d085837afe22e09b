// A small zlib (RFC 1950/1951) compressor for the streams a Persona writes:
// greedy LZ77 over a 32 KiB window with short hash chains, fixed Huffman
// codes. It compresses less tightly than zlib's level 6 but is quick from a
// cold start (pako needs ~50 ms to warm up for a few dozen KiB), and, being
// our own, its output depends only on its input: Node's native zlib may differ
// between versions and CPUs, and Personas must regenerate byte for byte.

const WINDOW = 32768;
const HASH_BITS = 15;
const HASH_SIZE = 1 << HASH_BITS;
const MAX_CHAIN = 8;
const MIN_MATCH = 3;
const MAX_MATCH = 258;

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

/** Length 3..258 → index into LENGTH_BASE. */
const LENGTH_CODE = new Uint8Array(MAX_MATCH + 1);
for (let code = 0; code < LENGTH_BASE.length; code += 1) {
  const end = code + 1 < LENGTH_BASE.length ? LENGTH_BASE[code + 1] : MAX_MATCH + 1;
  for (let length = LENGTH_BASE[code]; length < end; length += 1) LENGTH_CODE[length] = code;
}
LENGTH_CODE[MAX_MATCH] = 28;

/** The fixed literal/length code of a symbol, bit-reversed for LSB-first output, and its length. */
const FIXED_CODE = new Uint16Array(288);
const FIXED_BITS = new Uint8Array(288);
for (let symbol = 0; symbol < 288; symbol += 1) {
  let code: number;
  let bits: number;
  if (symbol < 144) [code, bits] = [0x30 + symbol, 8];
  else if (symbol < 256) [code, bits] = [0x190 + symbol - 144, 9];
  else if (symbol < 280) [code, bits] = [symbol - 256, 7];
  else [code, bits] = [0xc0 + symbol - 280, 8];
  FIXED_CODE[symbol] = reverse(code, bits);
  FIXED_BITS[symbol] = bits;
}
const DIST_CODE = new Uint8Array(30);
for (let symbol = 0; symbol < 30; symbol += 1) DIST_CODE[symbol] = reverse(symbol, 5);

function reverse(code: number, bits: number): number {
  let out = 0;
  for (let i = 0; i < bits; i += 1) {
    out = (out << 1) | (code & 1);
    code >>= 1;
  }
  return out;
}

function distanceSymbol(distance: number): number {
  let low = 0;
  let high = DIST_BASE.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (DIST_BASE[mid] <= distance) low = mid;
    else high = mid - 1;
  }
  return low;
}

function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length;) {
    const end = Math.min(data.length, i + 5552);
    for (; i < end; i += 1) {
      a += data[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

const HEAD = new Int32Array(HASH_SIZE);
const PREV = new Int32Array(WINDOW);

/** `data` compressed in the zlib format (what a PDF /FlateDecode stream holds). */
export function deflate(data: Uint8Array): Uint8Array {
  const length = data.length;
  // Fixed codes spend at most 9 bits on a byte: room for the worst case, so the loop never checks.
  const out = new Uint8Array(length + (length >> 3) + 64);
  out[0] = 0x78;
  out[1] = 0x01;
  let pos = 2;
  let bitBuffer = 0b011; // BFINAL 1, BTYPE 01 (fixed Huffman codes)
  let bitCount = 3;

  // Shared tables: a chain only ever reaches positions inserted by this call (head is reset), so prev needs no reset.
  const head = HEAD.fill(-1);
  const prev = PREV;
  let i = 0;
  while (i < length) {
    let bestLength = 0;
    let bestDistance = 0;
    if (i + MIN_MATCH <= length) {
      const hash = ((data[i] << 10) ^ (data[i + 1] << 5) ^ data[i + 2]) & (HASH_SIZE - 1);
      let candidate = head[hash];
      const limit = length - i < MAX_MATCH ? length - i : MAX_MATCH;
      for (let chain = 0; candidate >= 0 && i - candidate <= WINDOW && chain < MAX_CHAIN; chain += 1) {
        if (data[candidate + bestLength] === data[i + bestLength] && data[candidate] === data[i]) {
          let match = 1;
          while (match < limit && data[candidate + match] === data[i + match]) match += 1;
          if (match > bestLength) {
            bestLength = match;
            bestDistance = i - candidate;
            if (match === limit) break;
          }
        }
        const next = prev[candidate & (WINDOW - 1)];
        if (next >= candidate) break;
        candidate = next;
      }
      prev[i & (WINDOW - 1)] = head[hash];
      head[hash] = i;
    }
    if (bestLength >= MIN_MATCH) {
      const lengthCode = LENGTH_CODE[bestLength];
      const symbol = 257 + lengthCode;
      const distCode = distanceSymbol(bestDistance);
      bitBuffer |= FIXED_CODE[symbol] << bitCount;
      bitCount += FIXED_BITS[symbol];
      bitBuffer |= (bestLength - LENGTH_BASE[lengthCode]) << bitCount;
      bitCount += LENGTH_EXTRA[lengthCode];
      while (bitCount >= 8) {
        out[pos++] = bitBuffer & 0xff;
        bitBuffer >>>= 8;
        bitCount -= 8;
      }
      bitBuffer |= DIST_CODE[distCode] << bitCount;
      bitCount += 5;
      bitBuffer |= (bestDistance - DIST_BASE[distCode]) << bitCount;
      bitCount += DIST_EXTRA[distCode];
      const end = i + bestLength;
      for (i += 1; i < end; i += 1) {
        if (i + MIN_MATCH <= length) {
          const hash = ((data[i] << 10) ^ (data[i + 1] << 5) ^ data[i + 2]) & (HASH_SIZE - 1);
          prev[i & (WINDOW - 1)] = head[hash];
          head[hash] = i;
        }
      }
    } else {
      const byte = data[i];
      bitBuffer |= FIXED_CODE[byte] << bitCount;
      bitCount += FIXED_BITS[byte];
      i += 1;
    }
    while (bitCount >= 8) {
      out[pos++] = bitBuffer & 0xff;
      bitBuffer >>>= 8;
      bitCount -= 8;
    }
  }
  bitBuffer |= FIXED_CODE[256] << bitCount;
  bitCount += FIXED_BITS[256];
  while (bitCount > 0) {
    out[pos++] = bitBuffer & 0xff;
    bitBuffer >>>= 8;
    bitCount -= 8;
  }
  // Data that does not compress (already compressed, or random) goes in stored blocks instead.
  if (pos - 6 > length) return stored(data);
  return withChecksum(out, pos, data);
}

function withChecksum(out: Uint8Array, pos: number, data: Uint8Array): Uint8Array {
  const checksum = adler32(data);
  const result = new Uint8Array(pos + 4);
  result.set(out.subarray(0, pos));
  result[pos] = checksum >>> 24;
  result[pos + 1] = (checksum >>> 16) & 0xff;
  result[pos + 2] = (checksum >>> 8) & 0xff;
  result[pos + 3] = checksum & 0xff;
  return result;
}

/** Uncompressed (BTYPE 00) blocks of at most 65535 bytes. */
function stored(data: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(data.length / 65535));
  const out = new Uint8Array(2 + data.length + blocks * 5);
  out[0] = 0x78;
  out[1] = 0x01;
  let pos = 2;
  for (let block = 0; block < blocks; block += 1) {
    const start = block * 65535;
    const size = Math.min(65535, data.length - start);
    out[pos++] = block === blocks - 1 ? 1 : 0;
    out[pos++] = size & 0xff;
    out[pos++] = size >>> 8;
    out[pos++] = ~size & 0xff;
    out[pos++] = (~size >>> 8) & 0xff;
    out.set(data.subarray(start, start + size), pos);
    pos += size;
  }
  return withChecksum(out, pos, data);
}
