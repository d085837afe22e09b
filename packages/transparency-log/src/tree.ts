// A tree read from its tiles: any complete subtree's hash, the root of any size up to the tree's,
// and RFC 9162 §2.1.3 inclusion and §2.1.4 consistency proofs; and the proofs' verification
// (§2.1.3.2, §2.1.4.2), which needs nothing but the hasher. Sizes and indexes are plain numbers,
// worked with arithmetic rather than 32-bit bit operations, so they hold to 2^53.
import { perfectRoot, sameBytes, type TreeHasher } from './hashing';
import { TILE_HEIGHT, TILE_WIDTH, tileHashes, tileWidth } from './tiles';

/** Where a tree's hash tiles come from: files, a database, a map in memory (bytes: `width` hashes). */
export interface TileSource {
  tile(level: number, index: number, width: number): Promise<Uint8Array>;
}

/** The largest power of two strictly below `n` (n ≥ 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

const isPowerOfTwo = (n: number) => n > 0 && 2 ** Math.round(Math.log2(n)) === n;
const odd = (n: number) => n % 2 === 1;
const half = (n: number) => Math.floor(n / 2);

export class TiledTree {
  readonly #tiles = new Map<string, Promise<Uint8Array[]>>();

  constructor(
    readonly hasher: TreeHasher,
    readonly source: TileSource,
    /** The tree's size: the tiles hold its complete subtrees. */
    readonly size: number,
  ) {
    if (!Number.isSafeInteger(size) || size < 0) throw new Error(`a tree's size is a whole number ≥ 0, not ${size}`);
  }

  #tile(level: number, index: number): Promise<Uint8Array[]> {
    const width = tileWidth(level, index, this.size);
    const key = `${level}/${index}/${width}`;
    let tile = this.#tiles.get(key);
    if (!tile) {
      // A partial tile is replaced by a wider one as the log grows: a reader of an older size that
      // finds it gone reads the full tile, whose first hashes are the same.
      tile = this.source.tile(level, index, width).then(
        (bytes) => tileHashes(bytes, width),
        async (err: unknown) => {
          if (width === TILE_WIDTH) throw err;
          return tileHashes(await this.source.tile(level, index, TILE_WIDTH), TILE_WIDTH).slice(0, width);
        },
      );
      this.#tiles.set(key, tile);
      // A failed read is not kept: the next asks again.
      tile.catch(() => this.#tiles.delete(key));
    }
    return tile;
  }

  /** The hash of the complete subtree of `height` at `index` (leaves index·2^height up to the next). */
  async node(height: number, index: number): Promise<Uint8Array> {
    const span = 2 ** height;
    if ((index + 1) * span > this.size) throw new Error(`the tree of ${this.size} has no complete subtree of height ${height} at ${index}`);
    const level = Math.floor(height / TILE_HEIGHT);
    const within = height - level * TILE_HEIGHT;
    // 2^within hashes of the tile level's height, from node `first` on: in one tile (a tile's subtrees are aligned).
    const count = 2 ** within;
    const first = index * count;
    const tileIndex = Math.floor(first / TILE_WIDTH);
    const hashes = await this.#tile(level, tileIndex);
    const offset = first - tileIndex * TILE_WIDTH;
    return perfectRoot(this.hasher, hashes.slice(offset, offset + count));
  }

  /** The Merkle tree hash of leaves [start, end) (RFC 9162 MTH of D[start:end]). */
  async range(start: number, end: number): Promise<Uint8Array> {
    if (start < 0 || end > this.size || start > end) throw new Error(`no range [${start}, ${end}) in a tree of ${this.size}`);
    const n = end - start;
    if (n === 0) return this.hasher.emptyRoot();
    if (isPowerOfTwo(n) && start % n === 0) return this.node(Math.log2(n), start / n);
    const k = splitPoint(n);
    return this.hasher.node(await this.range(start, start + k), await this.range(start + k, end));
  }

  /** The root of the tree as it was at `size` leaves (default: now). */
  root(size = this.size): Promise<Uint8Array> {
    return this.range(0, size);
  }

  /** The leaf hash at `index`. */
  leafHash(index: number): Promise<Uint8Array> {
    return this.node(0, index);
  }

  /** RFC 9162 PATH(index, D[size]): the audit path of leaf `index` in the tree of `size` leaves (default: now). */
  async inclusionProof(index: number, size = this.size): Promise<Uint8Array[]> {
    if (!(index >= 0 && index < size && size <= this.size)) throw new Error(`no leaf ${index} in a tree of ${size}`);
    const path = async (m: number, start: number, end: number): Promise<Uint8Array[]> => {
      const n = end - start;
      if (n === 1) return [];
      const k = splitPoint(n);
      if (m < k) return [...(await path(m, start, start + k)), await this.range(start + k, end)];
      return [...(await path(m - k, start + k, end)), await this.range(start, start + k)];
    };
    return path(index, 0, size);
  }

  /** RFC 9162 PROOF(oldSize, D[size]): that the tree of `size` (default: now) extends the one of `oldSize`. */
  async consistencyProof(oldSize: number, size = this.size): Promise<Uint8Array[]> {
    if (!(oldSize >= 0 && oldSize <= size && size <= this.size)) throw new Error(`no consistency proof from ${oldSize} to ${size} in a tree of ${this.size}`);
    if (oldSize === 0 || oldSize === size) return [];
    const subproof = async (m: number, start: number, end: number, whole: boolean): Promise<Uint8Array[]> => {
      const n = end - start;
      if (m === n) return whole ? [] : [await this.range(start, end)];
      const k = splitPoint(n);
      if (m <= k) return [...(await subproof(m, start, start + k, whole)), await this.range(start + k, end)];
      return [...(await subproof(m - k, start + k, end, false)), await this.range(start, start + k)];
    };
    return subproof(oldSize, 0, size, true);
  }
}

/** Why a proof failed: its own words for the audit and the page. */
export class ProofError extends Error {
  override readonly name = 'ProofError';
}

/** RFC 9162 §2.1.3.2: that `leafHash` is leaf `index` of the tree of `size` leaves whose root is `root`. Throws a ProofError when not. */
export async function verifyInclusion(
  hasher: TreeHasher,
  index: number,
  size: number,
  leafHash: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): Promise<void> {
  if (!(Number.isSafeInteger(index) && Number.isSafeInteger(size) && index >= 0 && index < size))
    throw new ProofError(`there is no leaf ${index} in a tree of ${size}`);
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of proof) {
    if (sn === 0) throw new ProofError('the inclusion proof is longer than the tree is deep');
    if (odd(fn) || fn === sn) {
      r = await hasher.node(p, r);
      if (!odd(fn)) {
        while (!odd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      r = await hasher.node(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) throw new ProofError('the inclusion proof is shorter than the tree is deep');
  if (!sameBytes(r, root)) throw new ProofError(`leaf ${index} is not in the tree of ${size} with that root: the proof leads to another root`);
}

/** RFC 9162 §2.1.4.2: that the tree of `size` (root `root`) extends the tree of `oldSize` (root `oldRoot`). Throws a ProofError when not. */
export async function verifyConsistency(
  hasher: TreeHasher,
  oldSize: number,
  size: number,
  proof: readonly Uint8Array[],
  oldRoot: Uint8Array,
  root: Uint8Array,
): Promise<void> {
  if (!(Number.isSafeInteger(oldSize) && Number.isSafeInteger(size) && oldSize >= 0 && oldSize <= size))
    throw new ProofError(`a tree of ${size} cannot extend one of ${oldSize}`);
  if (oldSize === size) {
    if (proof.length !== 0) throw new ProofError('two trees of one size need no consistency proof, and this one is not empty');
    if (!sameBytes(oldRoot, root)) throw new ProofError(`two trees of ${size} leaves with different roots: the log forked`);
    return;
  }
  if (oldSize === 0) {
    if (proof.length !== 0) throw new ProofError('every tree extends the empty tree, with an empty proof; this one is not empty');
    return;
  }
  if (proof.length === 0) throw new ProofError('the consistency proof is empty');
  const path = isPowerOfTwo(oldSize) ? [oldRoot, ...proof] : [...proof];
  let fn = oldSize - 1;
  let sn = size - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) throw new ProofError('the consistency proof is longer than it can be');
    if (odd(fn) || fn === sn) {
      fr = await hasher.node(c, fr);
      sr = await hasher.node(c, sr);
      if (!odd(fn)) {
        while (!odd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      sr = await hasher.node(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) throw new ProofError('the consistency proof is shorter than it must be');
  if (!sameBytes(fr, oldRoot)) throw new ProofError(`the proof does not lead to the old root of ${oldSize} leaves`);
  if (!sameBytes(sr, root)) throw new ProofError(`the proof does not lead to the new root of ${size} leaves: the log forked`);
}
