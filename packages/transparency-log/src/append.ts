// Growing a tiled log: from the tree's right edge (the partial tile of each level, and the partial
// entry bundle), the tiles and bundles that adding leaves makes or widens. The caller writes them
// (a full tile is written once and never changes) and then signs a checkpoint of the new size.
import { concatBytes } from './bytes';
import { perfectRoot, type TreeHasher } from './hashing';
import { decodeEntryBundle, encodeEntryBundle, nodesAtLevel, TILE_WIDTH, tileHashes, tileWidth } from './tiles';
import type { TileSource } from './tree';

/** A log's current entry bundle, when partial. */
export interface EntrySource {
  bundle(index: number, width: number): Promise<Uint8Array>;
}

export interface TileWrite {
  level: number;
  index: number;
  width: number;
  bytes: Uint8Array;
}

export interface BundleWrite {
  index: number;
  width: number;
  bytes: Uint8Array;
}

export interface Appended {
  size: number;
  tiles: TileWrite[];
  bundles: BundleWrite[];
}

/**
 * Appends `entries` to the log of `size` leaves whose tiles and bundles `tiles` and `bundles` read;
 * answers every tile and bundle to write (full ones completed by this append, and each level's new
 * partial one), lowest level first.
 */
export async function appendEntries(
  hasher: TreeHasher,
  size: number,
  tiles: TileSource,
  bundles: EntrySource,
  entries: readonly Uint8Array[],
): Promise<Appended> {
  // The right edge: each level's partial tile, as hashes.
  const edge: Uint8Array[][] = [];
  for (let level = 0; level === 0 || nodesAtLevel(level, size) > 0; level += 1) {
    const index = Math.floor(nodesAtLevel(level, size) / TILE_WIDTH);
    const width = tileWidth(level, index, size);
    edge.push(width === 0 ? [] : tileHashes(await tiles.tile(level, index, width), width));
  }
  const bundleIndex = Math.floor(size / TILE_WIDTH);
  const bundleWidth = size - bundleIndex * TILE_WIDTH;
  let bundle: Uint8Array[] = bundleWidth === 0 ? [] : decodeEntryBundle(await bundles.bundle(bundleIndex, bundleWidth));
  if (bundle.length !== bundleWidth) throw new Error(`the partial entry bundle holds ${bundle.length} entries, not ${bundleWidth}`);

  const out: Appended = { size, tiles: [], bundles: [] };
  const touched = new Set<number>();
  for (const entry of entries) {
    bundle.push(entry);
    const leafHash = hasher.leaf(entry);
    let hash = leafHash instanceof Uint8Array ? leafHash : await leafHash;
    const leaf = out.size;
    out.size += 1;
    if (bundle.length === TILE_WIDTH) {
      out.bundles.push({ index: Math.floor(leaf / TILE_WIDTH), width: TILE_WIDTH, bytes: encodeEntryBundle(bundle) });
      bundle = [];
    }
    // Up the levels while a tile fills: its root is the next level's next hash.
    for (let level = 0; ; level += 1) {
      edge[level] ??= [];
      edge[level]!.push(hash);
      touched.add(level);
      if (edge[level]!.length < TILE_WIDTH) break;
      const index = Math.floor(nodesAtLevel(level, out.size) / TILE_WIDTH) - 1;
      out.tiles.push({ level, index, width: TILE_WIDTH, bytes: concatBytes(edge[level]!) });
      hash = await perfectRoot(hasher, edge[level]!);
      edge[level] = [];
    }
  }
  for (const level of [...touched].sort((a, b) => a - b)) {
    const hashes = edge[level]!;
    if (hashes.length > 0)
      out.tiles.push({ level, index: Math.floor(nodesAtLevel(level, out.size) / TILE_WIDTH), width: hashes.length, bytes: concatBytes(hashes) });
  }
  if (bundle.length > 0 && entries.length > 0)
    out.bundles.push({ index: Math.floor(out.size / TILE_WIDTH), width: bundle.length, bytes: encodeEntryBundle(bundle) });
  out.tiles.sort((a, b) => a.level - b.level || a.index - b.index || a.width - b.width);
  return out;
}

/** A TileSource over the tiles an append wrote, in front of the log's own. */
export function withWrites(base: TileSource, writes: readonly TileWrite[]): TileSource {
  const written = new Map(writes.map((w) => [`${w.level}/${w.index}/${w.width}`, w.bytes]));
  return {
    tile: (level, index, width) => {
      const bytes = written.get(`${level}/${index}/${width}`);
      return bytes ? Promise.resolve(bytes) : base.tile(level, index, width);
    },
  };
}
