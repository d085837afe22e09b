// The audit anyone can run (`npm run log:audit`, issue 27): reads a whole log as published (its
// checkpoint, every entry bundle and every hash tile), and checks everything against everything:
// the checkpoint's signature; each bundle's entries against the leaf hashes of level 0; each full
// tile's root against its hash one level up; and the root the tiles give against the checkpoint's.
// A tampered entry, tile or checkpoint is named, with where it is.
import { parseCheckpoint } from './checkpoint';
import { perfectRoot, sameBytes, toHex, type TreeHasher } from './hashing';
import { type Ed25519Verify, type NoteVerifier, openNote } from './note';
import { decodeEntryBundle, entriesPath, nodesAtLevel, TILE_WIDTH, tileHashes, tilePath, tileWidth } from './tiles';
import { TiledTree } from './tree';

/** A published log, as its files. */
export interface LogReader {
  checkpoint(): Promise<string>;
  tile(level: number, index: number, width: number): Promise<Uint8Array>;
  bundle(index: number, width: number): Promise<Uint8Array>;
}

export interface AuditOptions {
  hasher: TreeHasher;
  reader: LogReader;
  /** The log's origin, as its checkpoints name it. */
  origin: string;
  /** The log's key(s): the checkpoint must be signed by one. */
  verifiers: readonly NoteVerifier[];
  verify: Ed25519Verify;
  /** Called after each bundle with how many entries were checked. */
  onProgress?: (checked: number, size: number) => void;
  /** Stop after this many problems (default 20). */
  maxProblems?: number;
}

export interface AuditReport {
  size: number;
  root: string;
  entries: number;
  tiles: number;
  /** What does not hold, each with where: empty when the log is whole. */
  problems: string[];
}

export async function auditLog(options: AuditOptions): Promise<AuditReport> {
  const { hasher, reader } = options;
  const maxProblems = options.maxProblems ?? 20;
  const problems: string[] = [];
  const report: AuditReport = { size: 0, root: '', entries: 0, tiles: 0, problems };
  const problem = (text: string) => {
    problems.push(text);
    return problems.length >= maxProblems;
  };

  let size: number;
  let root: Uint8Array;
  try {
    const { text } = await openNote(await reader.checkpoint(), options.verifiers, options.verify);
    ({ size, root } = parseCheckpoint(text, options.origin));
  } catch (err) {
    problem(`checkpoint: ${(err as Error).message}`);
    return report;
  }
  report.size = size;
  report.root = toHex(root);

  /** Reads a hash tile, or says why not. */
  const readTile = async (level: number, index: number): Promise<Uint8Array[] | null> => {
    const width = tileWidth(level, index, size);
    try {
      const hashes = tileHashes(await reader.tile(level, index, width), width);
      report.tiles += 1;
      return hashes;
    } catch (err) {
      problem(`${tilePath(level, index, width)}: ${(err as Error).message}`);
      return null;
    }
  };

  // What each level's tiles must hold, from the level below: the roots of its full tiles, in order.
  const expected: Uint8Array[][] = [];
  /** Checks level `level`'s tile `index` against what the level below gave, once all of it is known. */
  const checkUpper = async (level: number, index: number): Promise<boolean> => {
    const hashes = await readTile(level, index);
    const want = expected[level]!.splice(0, tileWidth(level, index, size));
    // A tile that cannot be read leaves the levels above it nothing to check against: the audit stops there.
    if (!hashes) return true;
    for (let i = 0; i < want.length; i += 1)
      if (!sameBytes(hashes[i]!, want[i]!))
        return problem(
          `${tilePath(level, index, hashes.length)}: hash ${i} is not the root of the tile below it (tile/${level - 1}/… ${index * TILE_WIDTH + i})`,
        );
    return carry(level, index, hashes);
  };
  /** A full tile's root is the next hash one level up; a level's tile is checked once it is full or the last. */
  const carry = async (level: number, index: number, hashes: Uint8Array[]): Promise<boolean> => {
    if (hashes.length < TILE_WIDTH) return false;
    const up = level + 1;
    (expected[up] ??= []).push(await perfectRoot(hasher, hashes));
    const upCount = nodesAtLevel(up, size);
    const upIndex = Math.floor(index / TILE_WIDTH);
    const filled = (index + 1) % TILE_WIDTH === 0 || index + 1 === upCount;
    return filled ? checkUpper(up, upIndex) : false;
  };

  const bundles = Math.ceil(size / TILE_WIDTH);
  for (let index = 0; index < bundles; index += 1) {
    const width = tileWidth(0, index, size);
    let entries: Uint8Array[] | null = null;
    try {
      const decoded = decodeEntryBundle(await reader.bundle(index, width));
      if (decoded.length !== width) throw new Error(`holds ${decoded.length} entries, not ${width}`);
      entries = decoded;
    } catch (err) {
      if (problem(`${entriesPath(index, width)}: ${(err as Error).message}`)) return report;
    }
    const hashes = await readTile(0, index);
    if (!hashes) return report;
    if (entries) {
      for (let i = 0; i < width; i += 1) {
        const leafHash = hasher.leaf(entries[i]!);
        if (
          !sameBytes(leafHash instanceof Uint8Array ? leafHash : await leafHash, hashes[i]!) &&
          problem(`entry ${index * TILE_WIDTH + i} (${entriesPath(index, width)}) does not hash to its leaf in ${tilePath(0, index, width)}`)
        )
          return report;
      }
      report.entries += width;
    }
    if (await carry(0, index, hashes)) return report;
    options.onProgress?.(Math.min(size, (index + 1) * TILE_WIDTH), size);
  }
  // The partial tiles above level 0 hold nothing the levels below check: the root, read through all
  // the tiles, must be the checkpoint's.
  try {
    const computed = await new TiledTree(hasher, reader, size).root();
    if (!sameBytes(computed, root)) problem(`the tiles give the root ${toHex(computed)}, the checkpoint says ${toHex(root)}`);
  } catch (err) {
    problem(`the root: ${(err as Error).message}`);
  }
  return report;
}
