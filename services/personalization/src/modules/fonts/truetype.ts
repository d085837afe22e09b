// Just enough of TrueType (glyf outlines) to set and embed text: the cmap
// lookup, advance widths and metrics the PDF font dictionaries need, and a
// subsetter that keeps the glyphs a document uses (plus composite glyphs'
// parts) with the hinting tables as they are, or with every outline sheared
// (a slanted face standing in for an italic: shearGlyph). Reads the file in
// place, so a face costs nothing until a character is looked up.
//
// Why our own rather than pdf-lib's @pdf-lib/fontkit: the dedication line of a
// Persona in DejaVu Sans subsets here in 0.2–7 ms (warm to cold); fontkit
// embedding the same line through pdf-lib took 41–446 ms, as it parses the
// whole face (two runs, 2026-11-24, 2 cores: `node bench/pdf/font-subset.cjs`).
// Ours gives the same bytes for the same input; the determinism test
// (build-persona-pdf.test.ts: a Persona regenerates byte for byte) holds ours to it.

export interface FontMetrics {
  unitsPerEm: number;
  ascent: number;
  descent: number;
  capHeight?: number;
  xHeight?: number;
  italicAngle: number;
  bbox: { minX: number; minY: number; maxX: number; maxY: number };
  postscriptName: string;
  /** PDF font descriptor flags, derived as pdfkit and pdf-lib do. */
  flags: number;
}

interface Table {
  offset: number;
  length: number;
}

/** Tables a PDF embedding of a TrueType font needs (ISO 32000-1 §9.9, for CIDFontType2). */
const SUBSET_TABLES = ['cvt ', 'fpgm', 'glyf', 'head', 'hhea', 'hmtx', 'loca', 'maxp', 'prep'];

export class TrueTypeFont {
  readonly metrics: FontMetrics;
  readonly numGlyphs: number;
  private readonly view: DataView;
  private readonly tables = new Map<string, Table>();
  private readonly numberOfHMetrics: number;
  private readonly longLoca: boolean;
  private readonly lookup: (codePoint: number) => number;
  private readonly glyphIds = new Map<number, number>();

  constructor(readonly bytes: Uint8Array) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.view = view;
    const version = view.getUint32(0);
    if (version !== 0x00010000 && version !== 0x74727565 /* true */) throw new Error('not a TrueType font with glyf outlines');
    const count = view.getUint16(4);
    for (let i = 0; i < count; i += 1) {
      const record = 12 + i * 16;
      const tag = String.fromCharCode(bytes[record], bytes[record + 1], bytes[record + 2], bytes[record + 3]);
      this.tables.set(tag, { offset: view.getUint32(record + 8), length: view.getUint32(record + 12) });
    }
    for (const tag of ['head', 'hhea', 'hmtx', 'maxp', 'loca', 'glyf', 'cmap']) if (!this.tables.has(tag)) throw new Error(`the font has no ${tag} table`);
    const head = this.table('head').offset;
    const hhea = this.table('hhea').offset;
    this.numGlyphs = view.getUint16(this.table('maxp').offset + 4);
    this.numberOfHMetrics = view.getUint16(hhea + 34);
    this.longLoca = view.getInt16(head + 50) === 1;
    const post = this.tables.get('post');
    const os2 = this.tables.get('OS/2');
    const os2Version = os2 ? view.getUint16(os2.offset) : 0;
    const familyClass = os2 ? view.getInt16(os2.offset + 30) : 0;
    const fixedPitch = post ? view.getUint32(post.offset + 12) !== 0 : false;
    const italic = (view.getUint16(head + 44) & 0b10) !== 0;
    let flags = 1 << 2; // symbolic: the font is used with its own encoding
    if (fixedPitch) flags |= 1 << 0;
    if (familyClass >= 1 && familyClass <= 7) flags |= 1 << 1;
    if (familyClass === 10) flags |= 1 << 3;
    if (italic) flags |= 1 << 6;
    this.metrics = {
      unitsPerEm: view.getUint16(head + 18),
      ascent: view.getInt16(hhea + 4),
      descent: view.getInt16(hhea + 6),
      capHeight: os2 && os2Version >= 2 ? view.getInt16(os2.offset + 88) : undefined,
      xHeight: os2 && os2Version >= 2 ? view.getInt16(os2.offset + 86) : undefined,
      italicAngle: post ? view.getInt32(post.offset + 4) / 65536 : 0,
      bbox: { minX: view.getInt16(head + 36), minY: view.getInt16(head + 38), maxX: view.getInt16(head + 40), maxY: view.getInt16(head + 42) },
      postscriptName: this.postscriptName(),
      flags,
    };
    this.lookup = this.cmapLookup();
  }

  private table(tag: string): Table {
    return this.tables.get(tag) as Table;
  }

  /** The glyph for a code point; 0 (.notdef) when the font has none. */
  glyphId(codePoint: number): number {
    let id = this.glyphIds.get(codePoint);
    if (id === undefined) {
      id = this.lookup(codePoint);
      if (id >= this.numGlyphs) id = 0;
      this.glyphIds.set(codePoint, id);
    }
    return id;
  }

  hasGlyph(codePoint: number): boolean {
    return this.glyphId(codePoint) !== 0;
  }

  /** In font units. */
  advanceWidth(glyphId: number): number {
    const hmtx = this.table('hmtx').offset;
    return this.view.getUint16(hmtx + 4 * Math.min(glyphId, this.numberOfHMetrics - 1));
  }

  private leftSideBearing(glyphId: number): number {
    const hmtx = this.table('hmtx').offset;
    if (glyphId < this.numberOfHMetrics) return this.view.getInt16(hmtx + 4 * glyphId + 2);
    return this.view.getInt16(hmtx + 4 * this.numberOfHMetrics + 2 * (glyphId - this.numberOfHMetrics));
  }

  private glyphData(glyphId: number): Uint8Array {
    const loca = this.table('loca').offset;
    const glyf = this.table('glyf').offset;
    const [start, end] = this.longLoca
      ? [this.view.getUint32(loca + 4 * glyphId), this.view.getUint32(loca + 4 * glyphId + 4)]
      : [this.view.getUint16(loca + 2 * glyphId) * 2, this.view.getUint16(loca + 2 * glyphId + 2) * 2];
    return this.bytes.subarray(glyf + start, glyf + Math.max(start, end));
  }

  /**
   * A TrueType file holding `glyphs` (old ids; the new id of each is its index,
   * and glyphs[0] should be 0, .notdef). Parts of composite glyphs are added
   * after them and renumbered inside the composites.
   */
  subset(glyphs: readonly number[], shear = 0): Uint8Array {
    const order = [...glyphs];
    const newId = new Map<number, number>();
    order.forEach((id, index) => newId.set(id, index));
    const data: Uint8Array[] = [];
    for (let index = 0; index < order.length; index += 1) {
      let glyph = this.glyphData(order[index]);
      if (shear !== 0) glyph = shearGlyph(glyph, shear);
      if (glyph.length >= 10 && ((glyph[0] << 8) | glyph[1]) & 0x8000) {
        glyph = glyph.slice();
        const view = new DataView(glyph.buffer, glyph.byteOffset, glyph.byteLength);
        let at = 10;
        for (;;) {
          const flags = view.getUint16(at);
          const part = view.getUint16(at + 2);
          let id = newId.get(part);
          if (id === undefined) {
            id = order.length;
            order.push(part);
            newId.set(part, id);
          }
          view.setUint16(at + 2, id);
          at += 4 + (flags & 0x0001 ? 4 : 2) + (flags & 0x0008 ? 2 : flags & 0x0040 ? 4 : flags & 0x0080 ? 8 : 0);
          if (!(flags & 0x0020)) break;
        }
      }
      data.push(glyph);
    }

    const count = order.length;
    let glyfLength = 0;
    for (const glyph of data) glyfLength += (glyph.length + 3) & ~3;
    const glyf = new Uint8Array(glyfLength);
    const loca = new Uint8Array(4 * (count + 1));
    const locaView = new DataView(loca.buffer);
    let at = 0;
    data.forEach((glyph, index) => {
      locaView.setUint32(4 * index, at);
      glyf.set(glyph, at);
      at += (glyph.length + 3) & ~3;
    });
    locaView.setUint32(4 * count, at);
    const hmtx = new Uint8Array(4 * count);
    const hmtxView = new DataView(hmtx.buffer);
    order.forEach((id, index) => {
      hmtxView.setUint16(4 * index, this.advanceWidth(id));
      // A sheared outline's left side bearing is its new xMin.
      const glyph = data[index]!;
      hmtxView.setInt16(4 * index + 2, shear !== 0 && glyph.length >= 10 ? new DataView(glyph.buffer, glyph.byteOffset).getInt16(2) : this.leftSideBearing(id));
    });
    const copy = (tag: string) => {
      const { offset, length } = this.table(tag);
      return this.bytes.slice(offset, offset + length);
    };
    const head = copy('head');
    const headView = new DataView(head.buffer);
    headView.setUint32(8, 0); // checkSumAdjustment, set below
    headView.setInt16(50, 1); // long loca
    const hhea = copy('hhea');
    new DataView(hhea.buffer).setUint16(34, count);
    const maxp = copy('maxp');
    new DataView(maxp.buffer).setUint16(4, count);

    const built = new Map<string, Uint8Array>([
      ['glyf', glyf],
      ['head', head],
      ['hhea', hhea],
      ['hmtx', hmtx],
      ['loca', loca],
      ['maxp', maxp],
    ]);
    // Hinting moves points the font's designer placed: sheared outlines are drawn unhinted.
    if (shear === 0) for (const tag of ['cvt ', 'fpgm', 'prep']) if (this.tables.has(tag)) built.set(tag, copy(tag));
    const tags = SUBSET_TABLES.filter((tag) => built.has(tag));

    const numTables = tags.length;
    let size = 12 + 16 * numTables;
    for (const tag of tags) size += ((built.get(tag) as Uint8Array).length + 3) & ~3;
    const out = new Uint8Array(size);
    const view = new DataView(out.buffer);
    const entrySelector = Math.floor(Math.log2(numTables));
    view.setUint32(0, 0x00010000);
    view.setUint16(4, numTables);
    view.setUint16(6, 16 * 2 ** entrySelector);
    view.setUint16(8, entrySelector);
    view.setUint16(10, numTables * 16 - 16 * 2 ** entrySelector);
    let offset = 12 + 16 * numTables;
    let headOffset = 0;
    tags.forEach((tag, index) => {
      const table = built.get(tag) as Uint8Array;
      const record = 12 + 16 * index;
      for (let i = 0; i < 4; i += 1) out[record + i] = tag.charCodeAt(i);
      out.set(table, offset);
      view.setUint32(record + 4, checksum(out, offset, table.length));
      view.setUint32(record + 8, offset);
      view.setUint32(record + 12, table.length);
      if (tag === 'head') headOffset = offset;
      offset += (table.length + 3) & ~3;
    });
    view.setUint32(headOffset + 8, (0xb1b0afba - checksum(out, 0, out.length)) >>> 0);
    return out;
  }

  private postscriptName(): string {
    const name = this.tables.get('name');
    if (!name) return 'Font';
    const view = this.view;
    const count = view.getUint16(name.offset + 2);
    const strings = name.offset + view.getUint16(name.offset + 4);
    let fallback: string | undefined;
    for (let i = 0; i < count; i += 1) {
      const record = name.offset + 6 + 12 * i;
      const [platform, encoding, , nameId, length, offset] = [0, 2, 4, 6, 8, 10].map((o) => view.getUint16(record + o));
      if (nameId !== 6) continue;
      const start = strings + offset;
      if (platform === 3 || platform === 0) {
        let text = '';
        for (let c = 0; c + 1 < length; c += 2) text += String.fromCharCode(view.getUint16(start + c));
        return text;
      }
      if (platform === 1 && encoding === 0) fallback = String.fromCharCode(...this.bytes.subarray(start, start + length));
    }
    return fallback ?? 'Font';
  }

  /** The best Unicode cmap subtable: format 12 (full Unicode), else format 4 (BMP). */
  private cmapLookup(): (codePoint: number) => number {
    const view = this.view;
    const cmap = this.table('cmap').offset;
    const count = view.getUint16(cmap + 2);
    let format4: number | undefined;
    let format12: number | undefined;
    for (let i = 0; i < count; i += 1) {
      const platform = view.getUint16(cmap + 4 + 8 * i);
      const encoding = view.getUint16(cmap + 6 + 8 * i);
      const sub = cmap + view.getUint32(cmap + 8 + 8 * i);
      const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
      if (!unicode) continue;
      const format = view.getUint16(sub);
      if (format === 12 && format12 === undefined) format12 = sub;
      if (format === 4 && format4 === undefined) format4 = sub;
    }
    if (format12 !== undefined) {
      const sub = format12;
      const groups = view.getUint32(sub + 12);
      return (codePoint) => {
        let low = 0;
        let high = groups - 1;
        while (low <= high) {
          const mid = (low + high) >> 1;
          const group = sub + 16 + 12 * mid;
          const start = view.getUint32(group);
          const end = view.getUint32(group + 4);
          if (codePoint < start) high = mid - 1;
          else if (codePoint > end) low = mid + 1;
          else return view.getUint32(group + 8) + codePoint - start;
        }
        return 0;
      };
    }
    if (format4 !== undefined) {
      const sub = format4;
      const segments = view.getUint16(sub + 6) / 2;
      const ends = sub + 14;
      const starts = ends + 2 * segments + 2;
      const deltas = starts + 2 * segments;
      const rangeOffsets = deltas + 2 * segments;
      return (codePoint) => {
        if (codePoint > 0xffff) return 0;
        let low = 0;
        let high = segments - 1;
        while (low <= high) {
          const mid = (low + high) >> 1;
          const end = view.getUint16(ends + 2 * mid);
          const start = view.getUint16(starts + 2 * mid);
          if (codePoint > end) low = mid + 1;
          else if (codePoint < start) high = mid - 1;
          else {
            const delta = view.getInt16(deltas + 2 * mid);
            const rangeOffset = view.getUint16(rangeOffsets + 2 * mid);
            if (rangeOffset === 0) return (codePoint + delta) & 0xffff;
            const glyph = view.getUint16(rangeOffsets + 2 * mid + rangeOffset + 2 * (codePoint - start));
            return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
          }
        }
        return 0;
      };
    }
    return () => 0;
  }
}

function checksum(bytes: Uint8Array, offset: number, length: number): number {
  let sum = 0;
  const end = offset + length;
  for (let i = offset; i < end; i += 4) {
    sum = (sum + (((bytes[i] << 24) | ((bytes[i + 1] ?? 0) << 16) | ((bytes[i + 2] ?? 0) << 8) | (bytes[i + 3] ?? 0)) >>> 0)) >>> 0;
  }
  return sum;
}

/**
 * A glyph's outline sheared along the baseline (x += shear · y), for a face slanted where it has
 * no italic: a simple glyph's points are decoded, moved and written again (without its hinting
 * instructions, which would pull the points back), a composite's part offsets are moved (its
 * parts are sheared as glyphs of their own); the bounding box follows.
 */
export function shearGlyph(glyph: Uint8Array, shear: number): Uint8Array {
  if (glyph.length < 10) return glyph;
  const view = new DataView(glyph.buffer, glyph.byteOffset, glyph.byteLength);
  const contours = view.getInt16(0);
  const [xMin, yMin, xMax, yMax] = [view.getInt16(2), view.getInt16(4), view.getInt16(6), view.getInt16(8)];
  const moved = (x: number, y: number) => Math.round(x + shear * y);
  if (contours < 0)
    return shearComposite(view, [Math.min(moved(xMin, yMin), moved(xMin, yMax)), yMin, Math.max(moved(xMax, yMin), moved(xMax, yMax)), yMax], shear);

  // A simple glyph: the contours' end points, the instructions, the flags, then x and y deltas.
  const ends = Array.from({ length: contours }, (_, i) => view.getUint16(10 + 2 * i));
  const points = contours ? ends[contours - 1]! + 1 : 0;
  let at = 10 + 2 * contours;
  at += 2 + view.getUint16(at);
  const flags: number[] = [];
  while (flags.length < points) {
    const flag = glyph[at++]!;
    flags.push(flag);
    if (flag & 0x08) for (let repeat = glyph[at++]!; repeat > 0; repeat -= 1) flags.push(flag);
  }
  const read = (short: number, same: number): number[] => {
    let value = 0;
    return flags.map((flag) => {
      if (flag & short) {
        const delta = glyph[at++]!;
        value += flag & same ? delta : -delta;
      } else if (!(flag & same)) {
        value += view.getInt16(at);
        at += 2;
      }
      return value;
    });
  };
  const xs = read(0x02, 0x10);
  const ys = read(0x04, 0x20);
  const newXs = xs.map((x, i) => moved(x, ys[i]!));

  // Written back: each point's flag (on-curve and overlap bits kept), its deltas short where they fit.
  const outFlags: number[] = [];
  const xBytes: number[] = [];
  const yBytes: number[] = [];
  const encode = (delta: number, short: number, same: number, bytes: number[]): number => {
    if (delta === 0) return same;
    if (Math.abs(delta) < 256) {
      bytes.push(Math.abs(delta));
      return short | (delta > 0 ? same : 0);
    }
    bytes.push((delta >> 8) & 0xff, delta & 0xff);
    return 0;
  };
  let lastX = 0;
  let lastY = 0;
  flags.forEach((flag, i) => {
    const x = newXs[i]!;
    const y = ys[i]!;
    outFlags.push((flag & 0x41) | encode(x - lastX, 0x02, 0x10, xBytes) | encode(y - lastY, 0x04, 0x20, yBytes));
    lastX = x;
    lastY = y;
  });
  const out = new Uint8Array(10 + 2 * contours + 2 + outFlags.length + xBytes.length + yBytes.length);
  const outView = new DataView(out.buffer);
  outView.setInt16(0, contours);
  outView.setInt16(2, newXs.length ? Math.min(...newXs) : xMin);
  outView.setInt16(4, yMin);
  outView.setInt16(6, newXs.length ? Math.max(...newXs) : xMax);
  outView.setInt16(8, yMax);
  ends.forEach((end, i) => outView.setUint16(10 + 2 * i, end));
  let write = 10 + 2 * contours + 2; // no instructions
  for (const bytes of [outFlags, xBytes, yBytes]) {
    out.set(bytes, write);
    write += bytes.length;
  }
  return out;
}

/** A composite glyph with each part's x/y offset sheared (written as words) and its instructions dropped. */
function shearComposite(view: DataView, bbox: [number, number, number, number], shear: number): Uint8Array {
  const parts: number[] = [];
  const word = (value: number) => parts.push((value >> 8) & 0xff, value & 0xff);
  let at = 10;
  for (;;) {
    const flags = view.getUint16(at);
    const part = view.getUint16(at + 2);
    at += 4;
    let args: [number, number];
    if (flags & 0x0001) {
      args = flags & 0x0002 ? [view.getInt16(at), view.getInt16(at + 2)] : [view.getUint16(at), view.getUint16(at + 2)];
      at += 4;
    } else {
      args = flags & 0x0002 ? [view.getInt8(at), view.getInt8(at + 1)] : [view.getUint8(at), view.getUint8(at + 1)];
      at += 2;
    }
    const transform = flags & 0x0008 ? 2 : flags & 0x0040 ? 4 : flags & 0x0080 ? 8 : 0;
    // Offsets (ARGS_ARE_XY_VALUES) move with the shear; matched points stay as they are.
    if (flags & 0x0002) args = [Math.round(args[0] + shear * args[1]), args[1]];
    word((flags | 0x0001) & ~0x0100);
    word(part);
    word(args[0]);
    word(args[1]);
    for (let i = 0; i < transform; i += 1) parts.push(view.getUint8(at + i));
    at += transform;
    if (!(flags & 0x0020)) break;
  }
  const out = new Uint8Array(10 + parts.length);
  const outView = new DataView(out.buffer);
  outView.setInt16(0, -1);
  bbox.forEach((value, i) => outView.setInt16(2 + 2 * i, value));
  out.set(parts, 10);
  return out;
}
