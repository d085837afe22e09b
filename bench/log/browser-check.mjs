// What the verify page will do (issue 27), bundled for the bench's Chromium: fetch the log's
// checkpoint and open it with the log's key (Web Crypto Ed25519), fetch the tiles leaf `index`'s
// path needs, derive its inclusion proof from them and check it against the signed root (Web
// Crypto SHA-256). Answers what it checked and how long it took in the page. Bundled by rolldown
// from the package's TypeScript sources (bench/log.mjs).
import {
  openNote,
  parseCheckpoint,
  parseVerifierKey,
  rfc6962,
  TiledTree,
  verifyInclusion,
  webEd25519Verify,
  webSha256,
  tilePath,
} from '../../packages/transparency-log/src';

window.checkInclusion = async ({ base, origin, vkey, index }) => {
  const started = performance.now();
  const hasher = rfc6962(webSha256);
  const verifier = await parseVerifierKey(webSha256, vkey);
  const note = await (await fetch(`${base}/checkpoint`)).text();
  const { text } = await openNote(note, [verifier], webEd25519Verify);
  const { size, root } = parseCheckpoint(text, origin);
  let tiles = 0;
  const tree = new TiledTree(
    hasher,
    {
      async tile(level, n, width) {
        tiles += 1;
        const res = await fetch(`${base}/${tilePath(level, n, width)}`);
        if (!res.ok) throw new Error(`${tilePath(level, n, width)}: ${res.status}`);
        return new Uint8Array(await res.arrayBuffer());
      },
    },
    size,
  );
  const [leaf, proof] = await Promise.all([tree.leafHash(index), tree.inclusionProof(index)]);
  await verifyInclusion(hasher, index, size, leaf, proof, root);
  return { ms: performance.now() - started, size, tiles, proof: proof.length };
};
