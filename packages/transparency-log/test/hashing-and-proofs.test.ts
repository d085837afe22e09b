// RFC 6962 hashing and RFC 9162 proofs, against the published test vectors (the RFC 6962 reference
// tree of transparency-dev/merkle's testonly/constants.go: 8 leaves, every root and node) and, at the
// sizes the issue names (1, 2, 255, 256, 257 and 1,000,000 leaves), against roots computed another
// way (the right edge's perfect subtrees folded right to left).
import { createHash } from 'node:crypto';
import { fromHex, ProofError, rfc6962, TiledTree, toHex, verifyConsistency, verifyInclusion, webSha256 } from '../src';
import { nodeSha256 } from '../src/node';
import { entry, MemoryLog } from './support';

const hasher = rfc6962(nodeSha256);

const LEAF_INPUTS = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(fromHex);
const NODE_HASHES = [
  [
    '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
    '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
    '0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7',
    '07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7',
    'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    '4271a26be0d8a84f0bd54c8c302e7cb3a3b5d1fa6780a40bcce2873477dab658',
    'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
    '46f6ffadd3d06a09ff3c5860d2755c8b9819db7df44251788c7d8e3180de8eb1',
  ],
  [
    'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
    '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
    '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
    'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
  ],
  ['d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7', '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4'],
  ['5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328'],
];
const ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

/** The root by another road: the perfect subtrees of the right edge, largest first, folded from the right. */
function foldedRoot(leafHashes: Buffer[], size: number): string {
  const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
  if (size === 0) return sha().toString('hex');
  const perfect = (start: number, n: number): Buffer => {
    let level = leafHashes.slice(start, start + n);
    while (level.length > 1) level = Array.from({ length: level.length / 2 }, (_, i) => sha(Buffer.of(1), level[2 * i]!, level[2 * i + 1]!));
    return level[0]!;
  };
  const parts: Buffer[] = [];
  let start = 0;
  for (let bit = 2 ** Math.floor(Math.log2(size)); bit >= 1; bit /= 2) {
    if (size - start >= bit) {
      parts.push(perfect(start, bit));
      start += bit;
    }
  }
  let root = parts.pop()!;
  while (parts.length > 0) root = sha(Buffer.of(1), parts.pop()!, root);
  return root.toString('hex');
}

describe('RFC 6962 hashing, against the reference tree', () => {
  it('hashes every leaf, every complete subtree and every root of the 8-leaf tree as published', async () => {
    const log = new MemoryLog(hasher);
    for (let size = 0; size <= LEAF_INPUTS.length; size += 1) {
      const tree = new TiledTree(hasher, log, size);
      expect(toHex(await tree.root())).toBe(ROOTS[size]);
      if (size < LEAF_INPUTS.length) await log.append([LEAF_INPUTS[size]!]);
    }
    const tree = new TiledTree(hasher, log, 8);
    for (let height = 0; height < NODE_HASHES.length; height += 1)
      for (let index = 0; index < NODE_HASHES[height]!.length; index += 1) expect(toHex(await tree.node(height, index))).toBe(NODE_HASHES[height]![index]);
  });

  it('hashes the same with Web Crypto (the browser’s SHA-256)', async () => {
    const web = rfc6962(webSha256);
    expect(toHex(await web.emptyRoot())).toBe(ROOTS[0]);
    expect(toHex(await web.leaf(LEAF_INPUTS[3]!))).toBe(NODE_HASHES[0]![3]);
    expect(toHex(await web.node(fromHex(NODE_HASHES[0]![0]!), fromHex(NODE_HASHES[0]![1]!)))).toBe(NODE_HASHES[1]![0]);
  });

  it('proves each leaf of the reference tree at each size, and each size consistent with every later one', async () => {
    const log = new MemoryLog(hasher);
    await log.append(LEAF_INPUTS);
    const tree = new TiledTree(hasher, log, 8);
    for (let size = 1; size <= 8; size += 1) {
      for (let index = 0; index < size; index += 1) {
        const proof = await tree.inclusionProof(index, size);
        await verifyInclusion(hasher, index, size, fromHex(NODE_HASHES[0]![index]!), proof, fromHex(ROOTS[size]!));
      }
      for (let oldSize = 0; oldSize <= size; oldSize += 1) {
        const proof = await tree.consistencyProof(oldSize, size);
        await verifyConsistency(hasher, oldSize, size, proof, fromHex(ROOTS[oldSize]!), fromHex(ROOTS[size]!));
      }
    }
    // RFC 9162 §2.1.4.1's own example: the proof that the tree of 7 extends the tree of 3 is [c, d, g, l]
    // (leaves 2 and 3, the node over leaves 0–1, and the tree hash of leaves 4–6).
    const proof = await tree.consistencyProof(3, 7);
    expect(proof.map(toHex)).toEqual([NODE_HASHES[0]![2], NODE_HASHES[0]![3], NODE_HASHES[1]![0], toHex(await tree.range(4, 7))]);
  });
});

describe('proofs at 1, 2, 255, 256, 257 and 1,000,000 leaves', () => {
  const SIZES = [1, 2, 255, 256, 257, 1_000_000];
  const log = new MemoryLog(hasher);
  let leafHashes: Buffer[];
  beforeAll(async () => {
    // Appended in uneven batches, as the shop appends: the tiles must not depend on the batches.
    const entries = Array.from({ length: 1_000_000 }, (_, i) => entry(i));
    for (let at = 0; at < entries.length;) {
      const n = [1, 1, 253, 1, 1, 1000, 4093, 65_536][Math.floor(at / 7) % 8]!;
      await log.append(entries.slice(at, at + n));
      at += n;
    }
    leafHashes = entries.map((e) => createHash('sha256').update(Buffer.of(0)).update(e).digest());
  }, 120_000);

  it('computes each size’s root as the folded right edge does', async () => {
    const tree = new TiledTree(hasher, log, 1_000_000);
    for (const size of SIZES) expect(toHex(await tree.root(size))).toBe(foldedRoot(leafHashes, size));
  });

  it('proves the first, last and middle leaves at every size, and refuses every proof with one hash changed', async () => {
    const tree = new TiledTree(hasher, log, 1_000_000);
    for (const size of SIZES) {
      const root = await tree.root(size);
      for (const index of new Set([0, Math.floor(size / 2), size - 1, Math.min(size - 1, 255), Math.min(size - 1, 256)])) {
        const proof = await tree.inclusionProof(index, size);
        expect(proof.length).toBeLessThanOrEqual(Math.ceil(Math.log2(size)));
        await verifyInclusion(hasher, index, size, leafHashes[index]!, proof, root);
        for (let i = 0; i < proof.length; i += 1) {
          const bad = proof.map((p, j) => (j === i ? Uint8Array.from(p, (b, k) => (k === 0 ? b ^ 1 : b)) : p));
          await expect(verifyInclusion(hasher, index, size, leafHashes[index]!, bad, root)).rejects.toThrow(ProofError);
        }
        if (size > 1) await expect(verifyInclusion(hasher, (index + 1) % size, size, leafHashes[index]!, proof, root)).rejects.toThrow(ProofError);
        await expect(verifyInclusion(hasher, index, size, leafHashes[index]!, [...proof, proof[0] ?? root], root)).rejects.toThrow(ProofError);
      }
    }
  });

  it('proves every size consistent with every larger one, and refuses a changed proof or a forked root', async () => {
    const tree = new TiledTree(hasher, log, 1_000_000);
    const roots = new Map<number, Uint8Array>();
    for (const size of [0, ...SIZES]) roots.set(size, await tree.root(size));
    for (const oldSize of [0, ...SIZES])
      for (const size of SIZES.filter((s) => s >= oldSize)) {
        const proof = await tree.consistencyProof(oldSize, size);
        await verifyConsistency(hasher, oldSize, size, proof, roots.get(oldSize)!, roots.get(size)!);
        if (proof.length > 0) {
          const bad = [...proof];
          bad[bad.length - 1] = Uint8Array.from(bad[bad.length - 1]!, (b, k) => (k === 31 ? b ^ 0x80 : b));
          await expect(verifyConsistency(hasher, oldSize, size, bad, roots.get(oldSize)!, roots.get(size)!)).rejects.toThrow(ProofError);
        }
        if (oldSize > 0 && oldSize < size) {
          const forked = await hasher.leaf(new TextEncoder().encode('a copy made later'));
          await expect(verifyConsistency(hasher, oldSize, size, proof, forked, roots.get(size)!)).rejects.toThrow(ProofError);
        }
      }
    await expect(verifyConsistency(hasher, 257, 257, [], roots.get(257)!, roots.get(256)!)).rejects.toThrow(/forked/);
  });
});
