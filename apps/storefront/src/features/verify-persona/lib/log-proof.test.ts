// The verify page's log proof against a log written here as the shop writes it (appendEntries, a
// signed checkpoint): it holds for the copy's entry; it fails, saying why, for a changed tile, an
// entry that commits to another record, a checkpoint signed by another key, and a log that is not
// the one this browser saw before; and it waits for a checkpoint that does not hold the entry yet.
import { createHash } from 'node:crypto';
import { commitmentText, formatLogEntry, LOG_PATH, type PersonaVerification } from '@persona/contracts';
import {
  appendEntries,
  entriesPath,
  formatCheckpoint,
  formatVerifierKey,
  rfc6962,
  signNote,
  TiledTree,
  tilePath,
  toBase64,
  withWrites,
  type TileSource,
} from '@persona/transparency-log';
import { generateSignerKey, nodeSha256, parseSignerKey } from '@persona/transparency-log/node';
import { checkLogProof, type ProofIo, type SeenCheckpoint } from './log-proof';

const ORIGIN = 'shop.example/api/log';
const hasher = rfc6962(nodeSha256);
const BOOK = '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c';
const SALT = 'a'.repeat(32);
const record = (n: number) => JSON.stringify({ bookId: BOOK, name: `Reader ${n}`, personaId: `PRS-0000-0000-0000-000${n}`, v: 2 });
const entryOf = (n: number) =>
  formatLogEntry({
    v: 1,
    type: 'persona',
    book: BOOK,
    copy: n,
    commitment: createHash('sha256')
      .update(commitmentText(SALT, record(n)))
      .digest('hex'),
  });

/** A log of `count` copies (plus `extra` other entries), as files in memory, signed by `keyText`. */
async function logOf(count: number, keyText: string, extra: string[] = []) {
  const files = new Map<string, Uint8Array>();
  const source: TileSource = { tile: async (l, i, w) => files.get(tilePath(l, i, w)) ?? Promise.reject(new Error('no tile')) };
  const entries = [...Array.from({ length: count }, (_, i) => entryOf(i + 1)), ...extra].map((e) => new TextEncoder().encode(e));
  const appended = await appendEntries(hasher, 0, source, { bundle: async () => new Uint8Array() }, entries);
  for (const t of appended.tiles) files.set(tilePath(t.level, t.index, t.width), t.bytes);
  for (const b of appended.bundles) files.set(entriesPath(b.index, b.width), b.bytes);
  const root = await new TiledTree(hasher, withWrites(source, appended.tiles), appended.size).range(0, appended.size);
  const key = parseSignerKey(keyText);
  const checkpoint = await signNote(formatCheckpoint({ origin: ORIGIN, size: appended.size, root, extensions: [] }), [key.signer]);
  return { files, checkpoint, key: { origin: ORIGIN, verifierKey: formatVerifierKey(key.verifier) }, root };
}

function io(
  log: { files: Map<string, Uint8Array>; checkpoint: string },
  storage = new Map<string, SeenCheckpoint>(),
): ProofIo & { storage: Map<string, SeenCheckpoint> } {
  return {
    storage,
    fetchText: async (url) => {
      if (url !== `${LOG_PATH}/checkpoint`) throw new Error(`unexpected ${url}`);
      return log.checkpoint;
    },
    fetchBytes: async (url) => {
      const bytes = log.files.get(url.slice(LOG_PATH.length + 1));
      if (!bytes) throw new Error(`${url} could not be read (404)`);
      return bytes;
    },
    lastSeen: (origin) => storage.get(origin) ?? null,
    remember: (origin, seen) => void storage.set(origin, seen),
  };
}

const copy = (n: number, index = n - 1): Pick<PersonaVerification, 'log' | 'record' | 'copy'> => ({
  copy: n,
  record: record(n),
  log: { origin: ORIGIN, index, entry: entryOf(n), salt: SALT, later: [] },
});

describe("the verify page's proof from the public log", () => {
  let keyText: string;
  beforeAll(async () => {
    keyText = await generateSignerKey(ORIGIN);
  });

  it('proves a copy is in the log, and keeps the checkpoint to check next time that the log only grew', async () => {
    const small = await logOf(300, keyText);
    const browser = io(small);
    const first = await checkLogProof(copy(37), small.key, browser);
    expect(first.ok).toBe(true);
    expect(first.checks.map((c) => c.ok)).toEqual([true, true, true, true]);
    expect(first.checks[1]!.text).toMatch(/^Entry 36 is copy No\. 37 of this book, and commits to this Persona's signed record/);
    expect(first.checks[3]!.text).toMatch(/had not seen this log before/);
    expect(browser.storage.get(ORIGIN)).toEqual({ size: 300, root: toBase64(small.root) });

    // The log grew: the same browser checks it holds the log it saw.
    const grown = await logOf(700, keyText);
    const later = await checkLogProof(copy(512), grown.key, io(grown, browser.storage));
    expect(later.ok).toBe(true);
    expect(later.checks[3]!.text).toBe('The log only grew since this browser last saw it: a consistency proof from 300 entries to 700 entries holds.');
    expect(browser.storage.get(ORIGIN)!.size).toBe(700);
  });

  it('says so when a tile was changed, the entry is not this copy’s, or the checkpoint is not signed by the log’s key', async () => {
    const log = await logOf(300, keyText);
    const tile = tilePath(0, 0, 256);
    const changed = new Uint8Array(log.files.get(tile)!);
    changed[40] ^= 1;
    const tampered = await checkLogProof(copy(37), log.key, io({ ...log, files: new Map([...log.files, [tile, changed]]) }));
    expect(tampered.ok).toBe(false);
    expect(tampered.checks.at(-1)!.text).toMatch(/^Entry 36 is not in the log the checkpoint signs/);

    const other = await checkLogProof({ ...copy(37), record: record(38) }, log.key, io(log));
    expect(other.checks.at(-1)).toEqual({ ok: false, text: "Entry 36 does not commit to this Persona's signed record: it is not this copy's entry." });

    const stranger = await logOf(300, await generateSignerKey(ORIGIN));
    const forged = await checkLogProof(copy(37), log.key, io(stranger));
    expect(forged.checks.at(-1)!.text).toMatch(/^The log's checkpoint is not signed by the shop's log key/);
  });

  it('refuses a log that is not the one this browser saw before (a fork), and waits for a checkpoint that holds a new entry', async () => {
    const seen = await logOf(300, keyText);
    const browser = io(seen);
    expect((await checkLogProof(copy(37), seen.key, browser)).ok).toBe(true);
    // The same key signs a log whose first 300 entries differ: it cannot have grown from the one seen.
    const fork = await logOf(299, keyText, [
      formatLogEntry({ v: 1, type: 'revoked', book: BOOK, copy: 300, reason: 'the copy could not be made' }),
      entryOf(300),
    ]);
    const forked = await checkLogProof(copy(37), fork.key, io(fork, browser.storage));
    expect(forked.ok).toBe(false);
    expect(forked.checks.at(-1)!.text).toMatch(/^The log is not the one this browser saw before \(300 entries\)/);

    const pending = await checkLogProof(copy(301, 300), seen.key, io(seen));
    expect(pending).toMatchObject({ ok: false, pending: true });
  });
});
