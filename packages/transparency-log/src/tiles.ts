// The C2SP tlog-tiles layout (https://c2sp.org/tlog-tiles): a log is published as static files.
//
//   tile/<L>/<N>[.p/<W>]        hash tiles: level L holds the hashes of the tree's complete subtrees
//                               of height 8·L (level 0: the leaves' hashes), 256 to a full tile; tile N
//                               of level L holds nodes 256·N … 256·N + 255 of that height, W of them
//                               when partial (W < 256, only for the rightmost tile of a level).
//   tile/entries/<N>[.p/<W>]    entry bundles: the entries of leaves 256·N …, each a big-endian
//                               uint16 length and that many bytes.
//   checkpoint                  the signed checkpoint (./checkpoint.ts, ./note.ts).
//
// N is written in 3-digit path elements, all but the last with an "x" before it: 1234067 is
// x001/x234/067. A full tile never changes; a partial one is replaced by a wider one as the log grows.
import { HASH_SIZE } from './hashing';

/** Each tile covers 8 levels of the tree: 2^8 hashes when full. */
export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 256;
/** An entry bundle's entries are at most this long (their length is a uint16). */
export const MAX_ENTRY_BYTES = 0xffff;
/** A tile level above this cannot exist (2^(8·64) leaves). */
const MAX_LEVEL = 63;

/** `n` in 3-digit path elements: 1234067 → "x001/x234/067", 5 → "005". */
export function tileIndexPath(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`a tile index is a whole number ≥ 0, not ${n}`);
  const groups: string[] = [];
  let rest = n;
  do {
    groups.unshift(String(rest % 1000).padStart(3, '0'));
    rest = Math.floor(rest / 1000);
  } while (rest > 0);
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
}

function widthSuffix(width: number): string {
  if (!Number.isInteger(width) || width < 1 || width > TILE_WIDTH) throw new Error(`a tile's width is 1 to ${TILE_WIDTH}, not ${width}`);
  return width === TILE_WIDTH ? '' : `.p/${width}`;
}

/** The path of hash tile `index` at `level`, `width` hashes wide (256: full). */
export function tilePath(level: number, index: number, width: number): string {
  if (!Number.isInteger(level) || level < 0 || level > MAX_LEVEL) throw new Error(`a tile level is 0 to ${MAX_LEVEL}, not ${level}`);
  return `tile/${level}/${tileIndexPath(index)}${widthSuffix(width)}`;
}

/** The path of entry bundle `index`, `width` entries wide (256: full). */
export function entriesPath(index: number, width: number): string {
  return `tile/entries/${tileIndexPath(index)}${widthSuffix(width)}`;
}

export type TileAddress = { kind: 'hashes'; level: number; index: number; width: number } | { kind: 'entries'; index: number; width: number };

/** Reads a tile's path back (relative to the log's prefix); null for anything that is not one, in its one spelling. */
export function parseTilePath(path: string): TileAddress | null {
  const m = /^tile\/(entries|0|[1-9][0-9]?)\/((?:x[0-9]{3}\/)*[0-9]{3})(?:\.p\/([1-9][0-9]{0,2}))?$/.exec(path);
  if (!m) return null;
  const groups = m[2]!.split('/').map((g) => g.replace('x', ''));
  // The one spelling: no leading zero group (x000/…), and no index beyond what numbers hold exactly.
  if (groups.length > 1 && groups[0] === '000') return null;
  if (groups.length > 5) return null;
  const index = groups.reduce((n, g) => n * 1000 + Number(g), 0);
  const width = m[3] === undefined ? TILE_WIDTH : Number(m[3]);
  // A partial tile is narrower than a full one: ".p/256" and wider are not its spelling.
  if (m[3] !== undefined && width >= TILE_WIDTH) return null;
  if (m[1] === 'entries') return { kind: 'entries', index, width };
  const level = Number(m[1]);
  if (level > MAX_LEVEL) return null;
  return { kind: 'hashes', level, index, width };
}

/** How many complete subtrees of height 8·level a tree of `size` leaves has: the hashes its level's tiles hold. */
export function nodesAtLevel(level: number, size: number): number {
  return Math.floor(size / TILE_WIDTH ** level);
}

/** The width of tile `index` at `level` in a tree of `size` leaves (0: it does not exist yet). */
export function tileWidth(level: number, index: number, size: number): number {
  return Math.max(0, Math.min(TILE_WIDTH, nodesAtLevel(level, size) - index * TILE_WIDTH));
}

/** Every tile a tree of `size` leaves publishes, lowest level first: each level's full tiles and its partial one. */
export function* tilesOf(size: number): Generator<{ level: number; index: number; width: number }> {
  for (let level = 0; nodesAtLevel(level, size) > 0; level += 1) {
    const count = nodesAtLevel(level, size);
    for (let index = 0; index * TILE_WIDTH < count; index += 1) yield { level, index, width: tileWidth(level, index, size) };
  }
}

/** An entry bundle: each entry as a big-endian uint16 length and its bytes. */
export function encodeEntryBundle(entries: readonly Uint8Array[]): Uint8Array {
  if (entries.length > TILE_WIDTH) throw new Error(`a bundle holds at most ${TILE_WIDTH} entries`);
  const size = entries.reduce((n, e) => n + 2 + e.length, 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const entry of entries) {
    if (entry.length > MAX_ENTRY_BYTES) throw new Error(`an entry is at most ${MAX_ENTRY_BYTES} bytes, not ${entry.length}`);
    out[at] = entry.length >> 8;
    out[at + 1] = entry.length & 0xff;
    out.set(entry, at + 2);
    at += 2 + entry.length;
  }
  return out;
}

export function decodeEntryBundle(bytes: Uint8Array): Uint8Array[] {
  const entries: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (at + 2 > bytes.length) throw new Error('the entry bundle ends inside an entry’s length');
    const length = (bytes[at]! << 8) | bytes[at + 1]!;
    if (at + 2 + length > bytes.length) throw new Error('the entry bundle ends inside an entry');
    entries.push(bytes.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  if (entries.length > TILE_WIDTH) throw new Error(`an entry bundle holds at most ${TILE_WIDTH} entries, this one ${entries.length}`);
  return entries;
}

/** The hashes of a hash tile's bytes (32 each). */
export function tileHashes(bytes: Uint8Array, width: number): Uint8Array[] {
  if (bytes.length !== width * HASH_SIZE) throw new Error(`a tile ${width} wide is ${width * HASH_SIZE} bytes, not ${bytes.length}`);
  return Array.from({ length: width }, (_, i) => bytes.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE));
}
