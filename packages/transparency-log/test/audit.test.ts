// The audit of a whole published log: a whole log passes; a changed entry, leaf hash, upper tile or
// checkpoint, or a missing file, is named with where it is.
import { auditLog, entriesPath, formatCheckpoint, rfc6962, signNote, TiledTree, tilePath, webEd25519Verify } from '../src';
import { generateSignerKey, nodeSha256, parseSignerKey, type SigningKey } from '../src/node';
import { entry, MemoryLog } from './support';

const hasher = rfc6962(nodeSha256);
const ORIGIN = 'persona-books.test/log';

let key: SigningKey;
beforeAll(async () => {
  key = parseSignerKey(await generateSignerKey('persona-books.test'));
});

/** A log of `size` entries, published with its signed checkpoint. */
async function published(size: number) {
  const log = new MemoryLog(hasher);
  await log.append(Array.from({ length: size }, (_, i) => entry(i)));
  const root = await new TiledTree(hasher, log, size).root();
  let checkpoint = await signNote(formatCheckpoint({ origin: ORIGIN, size, root, extensions: [] }), [key.signer]);
  const reader = { ...log, tile: log.tile.bind(log), bundle: log.bundle.bind(log), checkpoint: async () => checkpoint };
  const audit = () => auditLog({ hasher, reader, origin: ORIGIN, verifiers: [key.verifier], verify: webEd25519Verify });
  return { log, audit, setCheckpoint: (note: string) => (checkpoint = note) };
}

const flip = (bytes: Uint8Array, at: number) => Uint8Array.from(bytes, (b, i) => (i === at ? b ^ 1 : b));

describe('the audit of a whole log', () => {
  it('finds nothing wrong with a whole log, at every shape of its right edge', async () => {
    for (const size of [0, 1, 255, 256, 257, 65_536, 65_537]) {
      const { audit } = await published(size);
      const report = await audit();
      expect({ size, problems: report.problems, entries: report.entries }).toEqual({ size, problems: [], entries: size });
    }
  });

  it('names an entry changed after it was logged', async () => {
    const { log, audit } = await published(600);
    log.files.set(
      entriesPath(1, 256),
      (() => {
        const bytes = log.files.get(entriesPath(1, 256))!;
        return flip(bytes, 2 + 3);
      })(),
    );
    expect((await audit()).problems).toEqual([`entry 256 (tile/entries/001) does not hash to its leaf in tile/0/001`]);
  });

  it('names a leaf hash changed in its tile, and an upper tile that does not hold the roots below it', async () => {
    const leaf = await published(70_000);
    leaf.log.files.set(tilePath(0, 3, 256), flip(leaf.log.files.get(tilePath(0, 3, 256))!, 40));
    const problems = (await leaf.audit()).problems;
    expect(problems[0]).toBe('entry 769 (tile/entries/003) does not hash to its leaf in tile/0/003');

    const upper = await published(70_000);
    upper.log.files.set(tilePath(1, 0, 256), flip(upper.log.files.get(tilePath(1, 0, 256))!, 32 * 7));
    expect((await upper.audit()).problems[0]).toBe('tile/1/000: hash 7 is not the root of the tile below it (tile/0/… 7)');
  });

  it('refuses a checkpoint changed, signed by another key, or of a root the tiles do not give', async () => {
    const { audit, setCheckpoint, log } = await published(300);
    const other = parseSignerKey(await generateSignerKey('persona-books.test'));
    const root = await new TiledTree(hasher, log, 300).root();
    setCheckpoint(await signNote(formatCheckpoint({ origin: ORIGIN, size: 300, root, extensions: [] }), [other.signer]));
    expect((await audit()).problems).toEqual(['checkpoint: no key this reader knows signed the note']);
    const wrongRoot = await hasher.leaf(new TextEncoder().encode('not the root'));
    setCheckpoint(await signNote(formatCheckpoint({ origin: ORIGIN, size: 300, root: wrongRoot, extensions: [] }), [key.signer]));
    expect((await audit()).problems).toEqual([expect.stringMatching(/^the tiles give the root [0-9a-f]{64}, the checkpoint says [0-9a-f]{64}$/)]);
    const note = await signNote(formatCheckpoint({ origin: ORIGIN, size: 300, root, extensions: [] }), [key.signer]);
    setCheckpoint(note.replace('\n300\n', '\n301\n'));
    expect((await audit()).problems).toEqual([expect.stringMatching(/^checkpoint: the signature of persona-books.test does not match/)]);
  });

  it('stops at a file that is missing, naming it', async () => {
    const { log, audit } = await published(1000);
    log.files.delete(tilePath(0, 2, 256));
    expect((await audit()).problems).toEqual(['tile/0/002: no tile tile/0/002']);
  });
});
