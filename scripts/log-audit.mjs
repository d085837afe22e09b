// `npm run log:audit -- <shop address>` (issue 27): reads the shop's whole public log of Personas
// over HTTP, as anyone can, and checks everything: the checkpoint's signature under the log's key,
// every entry bundle against the leaf hashes, every tile against the level above, the root against
// the checkpoint; then the entries themselves: each book's copy numbers run 1, 2, 3… in log order,
// and every re-issue and refund names an earlier copy. Prints what it checked, or each problem with
// the file or entry it is in, and exits 1 when there is one.
//
//   npm run log:audit -- https://persona-books.in
//   npm run log:audit -- https://persona-books.in --key '<origin>+<id>+<key>'   (a key you got elsewhere)
//
// Without --key, the key is read from the shop's /api/personas/public-key: compare it with the one
// the shop publishes elsewhere before trusting a clean audit.
import { createPublicKey, verify } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { LogRules, LOG_PATH } = require('@persona/contracts');
const { auditLog, decodeEntryBundle, entriesPath, parseVerifierKey, rfc6962, tilePath } = require('@persona/transparency-log');
const { nodeSha256 } = require('@persona/transparency-log/node');

const args = process.argv.slice(2);
const keyAt = args.indexOf('--key');
const keyText = keyAt >= 0 ? args[keyAt + 1] : undefined;
const base = args.filter((_, i) => keyAt < 0 || (i !== keyAt && i !== keyAt + 1))[0];
if (!base || !/^https?:\/\//.test(base) || (keyAt >= 0 && !keyText)) {
  console.error('usage: npm run log:audit -- <shop address, http(s)://…> [--key <verifier key>]');
  process.exit(2);
}
const shop = base.replace(/\/+$/, '');

async function get(path) {
  const res = await fetch(`${shop}${path}`);
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  return res;
}

const spki = (publicKey) => createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]), format: 'der', type: 'spki' });
const ed25519 = async (publicKey, message, signature) => verify(null, message, spki(publicKey), signature);

const published = (await (await get('/api/personas/public-key')).json()).data.log;
const verifier = await parseVerifierKey(nodeSha256, keyText ?? published.verifierKey);
const rules = new LogRules();
let bundlesRead = 0;
const reader = {
  checkpoint: async () => (await get(`${LOG_PATH}/checkpoint`)).text(),
  tile: async (level, index, width) => new Uint8Array(await (await get(`${LOG_PATH}/${tilePath(level, index, width)}`)).arrayBuffer()),
  bundle: async (index, width) => {
    const bytes = new Uint8Array(await (await get(`${LOG_PATH}/${entriesPath(index, width)}`)).arrayBuffer());
    // The entries, in order, for the shop's own rules (the audit checks their hashes).
    const decoder = new TextDecoder('utf-8', { fatal: true });
    decodeEntryBundle(bytes).forEach((entry, i) => {
      let text;
      try {
        text = decoder.decode(entry);
      } catch {
        text = '';
      }
      rules.add(index * 256 + i, text);
    });
    bundlesRead += 1;
    return bytes;
  },
};

const started = Date.now();
const report = await auditLog({
  hasher: rfc6962(nodeSha256),
  reader,
  origin: published.origin,
  verifiers: [verifier],
  verify: ed25519,
  onProgress: (checked, size) => process.stderr.write(`\r${checked} of ${size} entries checked`),
});
process.stderr.write('\n');
const problems = [...report.problems, ...rules.problems];
console.log(`log ${published.origin}: ${report.size} entries, root ${report.root}`);
console.log(`checked: the checkpoint's signature (key ${verifier.name}), ${report.entries} entries in ${bundlesRead} bundles, ${report.tiles} tiles, the root`);
console.log(`copies: ${[...rules.books.values()].reduce((a, b) => a + b, 0)} numbered in ${rules.books.size} books, each book's numbers 1, 2, 3… in log order`);
console.log(`in ${((Date.now() - started) / 1000).toFixed(1)} s`);
if (problems.length > 0) {
  console.log(`\n${problems.length} problem${problems.length === 1 ? '' : 's'}:`);
  for (const problem of problems) console.log(`  ${problem}`);
  process.exit(1);
}
console.log('the log is whole: every entry, tile and checkpoint holds');
