// The preview's PNG, written here rather than by the canvas: its pixels laid on white paper as
// 8-bit grey (the page's inks are greys; the ink's faint blue, 0.12 against 0.1, is below what a
// screen shows), each row unfiltered, deflated by zlib as runs (Z_RLE). On the dedication page that
// is about 2 ms and 20 KB where the canvas's own RGBA encoder took 24–32 ms for 55 KB (2026-11-27,
// 2 cores: the preview's largest cost). Unfiltered runs suit it: a page of text is mostly white
// (zlib's default search gave 17 KB in 2 ms more). The canvas is left transparent rather than
// painted white first: filling the whole canvas cost Skia 7–8 ms, about as much as all the text on it.
import { constants, crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * A PNG in 8-bit grey of `rgba` (width × height pixels, 4 bytes each, premultiplied by their alpha:
 * a canvas's own pixels) laid on white.
 */
export function grayPng(rgba: Uint8Array, width: number, height: number): Uint8Array {
  if (rgba.length < width * height * 4) throw new RangeError('fewer pixels than width × height');
  // Whole pixels at once, in the machine's byte order (little-endian everywhere Node runs: red lowest).
  const aligned = rgba.byteOffset % 4 === 0 ? rgba : rgba.slice();
  const pixels = new Uint32Array(aligned.buffer, aligned.byteOffset, width * height);
  // Each row: filter type 0 (none), then its pixels' luma (ITU-R BT.601 weights, in 1/256ths) over
  // white; the paper, untouched by ink (a zero pixel), stays white.
  const rows = new Uint8Array((width + 1) * height).fill(255);
  for (let y = 0; y < height; y += 1) rows[y * (width + 1)] = 0;
  for (let i = 0, row = 0, x = 0; i < pixels.length; i += 1) {
    const p = pixels[i]!;
    // Premultiplied: colour + (1 − alpha) × white.
    if (p !== 0) rows[row + 1 + x] = (((p & 0xff) * 77 + ((p >>> 8) & 0xff) * 150 + ((p >>> 16) & 0xff) * 29 + 128) >> 8) + 255 - (p >>> 24);
    x += 1;
    if (x === width) {
      x = 0;
      row += width + 1;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // colour type: greyscale
  return new Uint8Array(
    Buffer.concat([
      SIGNATURE,
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(rows, { level: 6, strategy: constants.Z_RLE })),
      chunk('IEND', new Uint8Array(0)),
    ]),
  );
}
