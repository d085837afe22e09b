// The size an image's decoder will allocate, read from its headers (PNG's IHDR,
// JPEG's frame header, GIF's screen and every frame, WebP's VP8/VP8L/VP8X
// header), so a picture of 100,000 × 100,000 pixels in a few kilobytes is
// refused before anything decodes it.
import { type BudgetMeter, unreadable } from './budget';

export type ImageKind = 'png' | 'jpeg' | 'gif' | 'webp';

export interface ImageSize {
  width: number;
  height: number;
  /** Frames (GIF) or 1. */
  frames: number;
}

/** Reads the image's size and checks it (and, for a GIF, each frame) against the meter's pixel limits. */
export function measureImage(bytes: Uint8Array, kind: ImageKind, meter: BudgetMeter): ImageSize {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = kind === 'png' ? png(b) : kind === 'jpeg' ? jpeg(b, meter) : kind === 'gif' ? gif(b, meter) : webp(b);
  if (!size || size.width <= 0 || size.height <= 0) throw unreadable(meter.file, `its ${kind.toUpperCase()} header does not give its size`);
  meter.image(size.width, size.height);
  return size;
}

function png(b: Buffer): ImageSize | null {
  if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20), frames: 1 };
}

/** Markers that carry no length (RSTn, SOI, EOI, TEM). */
const STANDALONE = (marker: number) => (marker >= 0xd0 && marker <= 0xd9) || marker === 0x01;

/** The frame header (SOF0–SOF15 but DHT, JPG and DAC) of a JPEG: the largest, as a decoder would allocate it. */
export function jpegSize(b: Buffer): { width: number; height: number } | null {
  let at = 2;
  let found: { width: number; height: number } | null = null;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return found;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (STANDALONE(marker)) {
      at += 2;
      continue;
    }
    const length = b.readUInt16BE(at + 2);
    if (length < 2) return found;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc && at + 9 <= b.length) {
      const size = { height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
      if (!found || size.width * size.height > found.width * found.height) found = size;
    }
    // After the scan header the entropy-coded data begins: a progressive file has more frames' scans, not more frames.
    if (marker === 0xda) return found;
    at += 2 + length;
  }
  return found;
}

function jpeg(b: Buffer, _meter: BudgetMeter): ImageSize | null {
  const size = jpegSize(b);
  return size && { ...size, frames: 1 };
}

function gif(b: Buffer, meter: BudgetMeter): ImageSize | null {
  if (b.length < 13) return null;
  const width = b.readUInt16LE(6);
  const height = b.readUInt16LE(8);
  let at = 13;
  const packed = b[10]!;
  if (packed & 0x80) at += 3 * (1 << ((packed & 0x07) + 1));
  let frames = 0;
  // Every frame is checked on its own: a 10-pixel screen may hold a 65,535 × 65,535 frame.
  while (at < b.length) {
    const block = b[at]!;
    if (block === 0x3b) break; // trailer
    if (block === 0x21) {
      at += 2;
      while (at < b.length && b[at]! > 0) at += b[at]! + 1;
      at += 1;
      continue;
    }
    if (block !== 0x2c || at + 10 > b.length) break;
    const frameWidth = b.readUInt16LE(at + 5);
    const frameHeight = b.readUInt16LE(at + 7);
    meter.image(frameWidth, frameHeight);
    frames += 1;
    const local = b[at + 9]!;
    at += 10;
    if (local & 0x80) at += 3 * (1 << ((local & 0x07) + 1));
    at += 1; // LZW minimum code size
    while (at < b.length && b[at]! > 0) at += b[at]! + 1;
    at += 1;
  }
  return { width, height, frames: Math.max(1, frames) };
}

function webp(b: Buffer): ImageSize | null {
  if (b.length < 30) return null;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3), frames: 1 };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff), frames: 1 };
  }
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff, frames: 1 };
  return null;
}
