// Judges an upload by its bytes, never by its name or declared type.
export type SniffedType = { kind: 'image' | 'pdf'; mime: string; ext: string };

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

export function sniffFileType(bytes: Uint8Array): SniffedType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { kind: 'image', mime: 'image/jpeg', ext: 'jpg' };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: 'image', mime: 'image/png', ext: 'png' };
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) {
    return { kind: 'image', mime: 'image/gif', ext: 'gif' };
  }
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) {
    return { kind: 'image', mime: 'image/webp', ext: 'webp' };
  }
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d]) && hasPdfTrailer(bytes)) return { kind: 'pdf', mime: 'application/pdf', ext: 'pdf' };
  return null;
}

/** A real PDF ends with %%EOF (possibly followed by whitespace) within its last kilobyte. */
function hasPdfTrailer(bytes: Uint8Array): boolean {
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 1024))).toString('latin1');
  return tail.includes('%%EOF');
}

/**
 * Markup a browser would run if it ever read the bytes as HTML or SVG: a
 * polyglot (a valid image header with a page behind it). Real images carry
 * none of it; PDFs are not checked (their text may quote anything).
 */
const ACTIVE_MARKUP = /<(script|html|body|svg|iframe|object|embed|!doctype\s+html)[\s>/]|javascript:/i;

export function hasActiveMarkup(bytes: Uint8Array): boolean {
  return ACTIVE_MARKUP.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'));
}

/** The image's own structure around its signature: why it is not a well-formed image of its type, or null. */
export function imageProblem(bytes: Uint8Array, type: SniffedType): string | null {
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 64))).toString('latin1');
  switch (type.ext) {
    case 'png':
      // The header chunk comes first and the end chunk last.
      if (!startsWith(bytes, [0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52], 8) || !tail.includes('IEND')) return 'is not a complete PNG image';
      return null;
    case 'gif':
      // Header, logical screen descriptor, and the trailer byte at the end.
      if (bytes.length < 14 || !tail.slice(-16).includes(';')) return 'is not a complete GIF image';
      return null;
    case 'webp': {
      const declared = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).readUInt32LE(4) + 8;
      return bytes.length < 16 || declared > bytes.length ? 'is not a complete WebP image' : null;
    }
    default:
      return bytes.length < 4 ? 'is not a complete JPEG image' : null;
  }
}
