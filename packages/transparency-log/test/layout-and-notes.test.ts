// The files of a log (C2SP tlog-tiles paths, entry bundles), its checkpoints and their signed notes
// (the Go reference implementation's published example key and note, byte for byte), and appending.
import {
  appendEntries,
  decodeEntryBundle,
  encodeEntryBundle,
  entriesPath,
  formatCheckpoint,
  formatVerifierKey,
  NoteError,
  openNote,
  parseCheckpoint,
  parseTilePath,
  parseVerifierKey,
  rfc6962,
  signNote,
  TiledTree,
  tileIndexPath,
  tilePath,
  tilesOf,
  toHex,
  webEd25519Verify,
  webSha256,
} from '../src';
import { generateSignerKey, nodeSha256, parseSignerKey } from '../src/node';
import { entry, MemoryLog } from './support';

const hasher = rfc6962(nodeSha256);

describe('tile paths', () => {
  it('writes indexes in 3-digit elements, "x" before all but the last, and partial tiles with their width', () => {
    expect(tileIndexPath(0)).toBe('000');
    expect(tileIndexPath(5)).toBe('005');
    expect(tileIndexPath(1000)).toBe('x001/000');
    expect(tileIndexPath(1234067)).toBe('x001/x234/067');
    expect(tilePath(0, 1234067, 256)).toBe('tile/0/x001/x234/067');
    expect(tilePath(1, 0, 8)).toBe('tile/1/000.p/8');
    expect(entriesPath(3, 256)).toBe('tile/entries/003');
    expect(entriesPath(3, 17)).toBe('tile/entries/003.p/17');
    expect(() => tilePath(0, 1, 0)).toThrow();
    expect(() => tilePath(0, 1, 257)).toThrow();
    expect(() => tilePath(64, 1, 1)).toThrow();
    expect(() => tileIndexPath(-1)).toThrow();
  });

  it('reads every path back, and nothing that is not one in its one spelling', () => {
    for (const [level, index, width] of [
      [0, 0, 256],
      [0, 1234067, 1],
      [5, 999, 255],
      [63, 1000, 256],
    ] as const)
      expect(parseTilePath(tilePath(level, index, width))).toEqual({ kind: 'hashes', level, index, width });
    expect(parseTilePath('tile/entries/x001/000.p/3')).toEqual({ kind: 'entries', index: 1000, width: 3 });
    for (const bad of [
      'tile/0/x000/001',
      'tile/00/001',
      'tile/0/1',
      'tile/0/001.p/256',
      'tile/0/001.p/0',
      'tile/0/001.p/07',
      'tile/64/001',
      'tile/0/001/',
      '../tile/0/001',
      'tile/0/x1/001',
      'checkpoint',
    ])
      expect(parseTilePath(bad)).toBeNull();
  });

  it('lists the tiles a tree publishes: the full ones and each level’s partial one', () => {
    expect([...tilesOf(0)]).toEqual([]);
    expect([...tilesOf(1)]).toEqual([{ level: 0, index: 0, width: 1 }]);
    expect([...tilesOf(256)]).toEqual([
      { level: 0, index: 0, width: 256 },
      { level: 1, index: 0, width: 1 },
    ]);
    expect([...tilesOf(513)]).toEqual([
      { level: 0, index: 0, width: 256 },
      { level: 0, index: 1, width: 256 },
      { level: 0, index: 2, width: 1 },
      { level: 1, index: 0, width: 2 },
    ]);
    expect([...tilesOf(65_536)].filter((t) => t.level > 0)).toEqual([
      { level: 1, index: 0, width: 256 },
      { level: 2, index: 0, width: 1 },
    ]);
  });
});

describe('entry bundles', () => {
  it('holds each entry as a big-endian uint16 length and its bytes, and refuses a cut bundle', () => {
    const entries = [new Uint8Array(0), Uint8Array.of(0x61), new Uint8Array(300).fill(7)];
    const bytes = encodeEntryBundle(entries);
    expect(toHex(bytes.subarray(0, 5))).toBe('0000000161');
    expect(toHex(bytes.subarray(5, 7))).toBe('012c');
    expect(decodeEntryBundle(bytes)).toEqual(entries);
    expect(() => decodeEntryBundle(bytes.subarray(0, bytes.length - 1))).toThrow(/ends inside an entry/);
    expect(() => decodeEntryBundle(bytes.subarray(0, 6))).toThrow(/ends inside an entry/);
    expect(() => encodeEntryBundle([new Uint8Array(65_536)])).toThrow(/at most 65535 bytes/);
  });
});

describe('appending', () => {
  it('writes the same files whether entries come one at a time or together, each full tile once', async () => {
    const oneByOne = new MemoryLog(hasher);
    const together = new MemoryLog(hasher);
    const entries = Array.from({ length: 70_000 }, (_, i) => entry(i));
    for (const e of entries.slice(0, 600)) await oneByOne.append([e]);
    await oneByOne.append(entries.slice(600));
    await together.append(entries);
    expect(oneByOne.size).toBe(70_000);
    // The one-by-one log also kept the partial tiles of every size it passed; the latest files agree.
    for (const [path, bytes] of together.files) expect([path, toHex(oneByOne.files.get(path) ?? new Uint8Array())]).toEqual([path, toHex(bytes)]);
    expect([...together.files.keys()].filter((p) => p.startsWith('tile/2/'))).toEqual(['tile/2/000.p/1']);
    expect(decodeEntryBundle(together.files.get(entriesPath(273, 112))!).at(-1)).toEqual(entry(69_999));
  });

  it('reads an older size’s root from the full tile once its partial tile is gone', async () => {
    const log = new MemoryLog(hasher);
    await log.append(Array.from({ length: 100 }, (_, i) => entry(i)));
    const then = await new TiledTree(hasher, log, 100).root();
    await log.append(Array.from({ length: 200 }, (_, i) => entry(100 + i)));
    log.files.delete(tilePath(0, 0, 100));
    expect(toHex(await new TiledTree(hasher, log, 100).root())).toBe(toHex(then));
  });

  it('refuses to append after a partial bundle that does not hold the entries its size says', async () => {
    const log = new MemoryLog(hasher);
    await log.append([entry(0), entry(1)]);
    log.files.set(entriesPath(0, 2), encodeEntryBundle([entry(0)]));
    await expect(appendEntries(hasher, 2, log, log, [entry(2)])).rejects.toThrow(/holds 1 entries, not 2/);
  });
});

describe('signed notes (the Go reference implementation’s example)', () => {
  const VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
  const SKEY = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
  const TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
  const NOTE = `${TEXT}\n— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;

  it('signs the example text to the published note byte for byte, with the published key ID and verifier key', async () => {
    const key = parseSignerKey(SKEY);
    expect(toHex(key.signer.keyId)).toBe('c74f20a3');
    expect(formatVerifierKey(key.verifier)).toBe(VKEY);
    expect(await signNote(TEXT, [key.signer])).toBe(NOTE);
  });

  it('opens the note with the verifier key in Web Crypto, and refuses it changed, unsigned or signed by a stranger', async () => {
    const verifier = await parseVerifierKey(webSha256, VKEY);
    expect(await openNote(NOTE, [verifier], webEd25519Verify)).toEqual({ text: TEXT, signedBy: [verifier] });
    await expect(openNote(NOTE.replace('cryptography', 'cryptographY'), [verifier], webEd25519Verify)).rejects.toThrow(/does not match/);
    await expect(openNote(TEXT, [verifier], webEd25519Verify)).rejects.toThrow(NoteError);
    const stranger = parseSignerKey(await generateSignerKey('PeterNeumann'));
    await expect(openNote(await signNote(TEXT, [stranger.signer]), [verifier], webEd25519Verify)).rejects.toThrow(/no key this reader knows/);
    // A stranger's signature beside the known one is ignored, as the format asks.
    const both = (await signNote(TEXT, [stranger.signer])) + NOTE.slice(TEXT.length + 1);
    expect((await openNote(both, [verifier], webEd25519Verify)).signedBy).toEqual([verifier]);
    // A hundred signature lines are read; a hundred and one are refused unread.
    const knownLine = NOTE.slice(TEXT.length + 1);
    const strangerLine = (await signNote(TEXT, [stranger.signer])).slice(TEXT.length + 1);
    const hundred = `${TEXT}\n${knownLine}${strangerLine.repeat(99)}`;
    expect((await openNote(hundred, [verifier], webEd25519Verify)).signedBy).toEqual([verifier]);
    await expect(openNote(`${hundred}${strangerLine}`, [verifier], webEd25519Verify)).rejects.toThrow(/at most 100 signatures, this one 101/);
  });

  it('refuses a verifier key whose ID, name or key was changed', async () => {
    await expect(parseVerifierKey(webSha256, VKEY.replace('c74f20a3', 'c74f20a4'))).rejects.toThrow(/does not match/);
    await expect(parseVerifierKey(webSha256, VKEY.replace('Peter', 'Pete'))).rejects.toThrow(/does not match/);
    await expect(parseVerifierKey(webSha256, VKEY.replace('ARpc', 'ARpd'))).rejects.toThrow(/does not match/);
    await expect(parseVerifierKey(webSha256, VKEY.replace('+ARpc', '+Apc'))).rejects.toThrow();
    expect(() => parseSignerKey(SKEY.replace('c74f20a3', '00000000'))).toThrow(/does not match/);
  });
});

describe('checkpoints', () => {
  it('writes and reads origin, size, root and extension lines, and refuses what is not one', async () => {
    const root = await hasher.leaf(new Uint8Array(0));
    const text = formatCheckpoint({ origin: 'persona-books.in/log', size: 37, root, extensions: ['— an extension'] });
    expect(text).toBe(`persona-books.in/log\n37\nbjQLnP+zepicpUTmu3gKLHiQHT+zNzh2hRGjBhevoB0=\n— an extension\n`);
    expect(parseCheckpoint(text, 'persona-books.in/log')).toEqual({ origin: 'persona-books.in/log', size: 37, root, extensions: ['— an extension'] });
    expect(() => parseCheckpoint(text, 'another.example/log')).toThrow(/not "another.example\/log"/);
    for (const bad of [
      'o\n037\nbjQLnP+zepicpUTmu3gKLHiQHT+zNzh2hRGjBhevoB0=\n',
      'o\n1\nbtNL\n',
      'o\n1\n',
      'o\n-1\nbjQLnP+zepicpUTmu3gKLHiQHT+zNzh2hRGjBhevoB0=\n',
      'o\n1\nbjQLnP+zepicpUTmu3gKLHiQHT+zNzh2hRGjBhevoB0=',
    ])
      expect(() => parseCheckpoint(bad)).toThrow();
  });
});
