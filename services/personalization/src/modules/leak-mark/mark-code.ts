// The per-copy mark every Persona carries (issue 13, point 7): 48 bits that
// name the copy, derived from its persona id with a key only the shop holds,
// so the marks of copies no one has seen cannot be made up. The mark travels
// as a 56-bit frame: the 48 bits, then a CRC-8 over them, so a frame read
// wrongly (a smudge, a stray dot, a piece of another text) is refused rather
// than taken for another copy's mark. pdf-mark.ts draws frames on every page
// of a PDF; epub-mark.ts writes them into an EPUB's text.
import { createHash, createHmac, type KeyObject } from 'node:crypto';

export const MARK_BITS = 48;
export const FRAME_BITS = MARK_BITS + 8;

/** Each key's secret, made once (exporting the key on every Persona was a measurable part of its cost). */
const secrets = new WeakMap<KeyObject, Buffer>();

/** The secret marks are made with: a hash of the shop's signing key, never the key itself. */
export function markSecret(privateKey: KeyObject): Buffer {
  let secret = secrets.get(privateKey);
  if (!secret) {
    secret = createHash('sha256')
      .update('persona-leak-mark\0')
      .update(privateKey.export({ format: 'der', type: 'pkcs8' }))
      .digest();
    secrets.set(privateKey, secret);
  }
  // A copy: the caller may not change the one kept.
  return Buffer.from(secret);
}

/** A copy's mark: the first 48 bits of HMAC-SHA256(secret, persona id), as a safe integer. */
export function leakMark(secret: Uint8Array, personaId: string): number {
  const digest = createHmac('sha256', secret).update(personaId, 'utf8').digest();
  return digest.readUIntBE(0, 6);
}

/** A mark as the administrator sees it: 12 hexadecimal digits. */
export const markHex = (mark: number) => mark.toString(16).padStart(12, '0');

/** CRC-8 (polynomial 0x07) of the mark's six bytes. */
function crc8(mark: number): number {
  let crc = 0;
  for (let i = 5; i >= 0; i -= 1) {
    crc ^= Math.floor(mark / 2 ** (8 * i)) & 0xff;
    for (let b = 0; b < 8; b += 1) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

/** The frame that carries a mark: its 48 bits, most significant first, then its CRC-8. */
export function frameBits(mark: number): number[] {
  if (!Number.isSafeInteger(mark) || mark < 0 || mark >= 2 ** MARK_BITS) throw new RangeError(`not a 48-bit mark: ${mark}`);
  const bits: number[] = [];
  for (let i = MARK_BITS - 1; i >= 0; i -= 1) bits.push(Math.floor(mark / 2 ** i) % 2);
  const crc = crc8(mark);
  for (let i = 7; i >= 0; i -= 1) bits.push((crc >> i) & 1);
  return bits;
}

/** The mark a frame carries, or null when it is not a whole frame or its CRC does not hold. */
export function markOfFrame(bits: readonly number[]): number | null {
  if (bits.length !== FRAME_BITS || bits.some((b) => b !== 0 && b !== 1)) return null;
  let mark = 0;
  for (let i = 0; i < MARK_BITS; i += 1) mark = mark * 2 + bits[i]!;
  let crc = 0;
  for (let i = MARK_BITS; i < FRAME_BITS; i += 1) crc = crc * 2 + bits[i]!;
  return crc8(mark) === crc ? mark : null;
}

/**
 * The mark most frames agree on: each frame's CRC is checked, then the marks
 * counted; frames that fail their CRC are outvoted bit by bit when at least
 * three were read, as a damaged copy still carries the mark many times.
 */
export function agreeOnMark(frames: readonly (readonly number[])[]): { mark: number; frames: number; agreeing: number } | null {
  const whole = frames.filter((f) => f.length === FRAME_BITS);
  const counts = new Map<number, number>();
  for (const frame of whole) {
    const mark = markOfFrame(frame);
    if (mark !== null) counts.set(mark, (counts.get(mark) ?? 0) + 1);
  }
  const best = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
  if (best) return { mark: best[0], frames: whole.length, agreeing: best[1] };
  if (whole.length < 3) return null;
  const voted = Array.from({ length: FRAME_BITS }, (_, i) => (whole.filter((f) => f[i] === 1).length * 2 > whole.length ? 1 : 0));
  const mark = markOfFrame(voted);
  return mark === null ? null : { mark, frames: whole.length, agreeing: 0 };
}
