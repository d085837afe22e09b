// The verify page's proof that a Persona is in the shop's public log (issue 27), checked in the
// browser with nothing but Web Crypto (SHA-256, Ed25519) and the log's static files: the checkpoint's
// signature under the log's key; the entry's commitment to the signed record the page shows; the
// entry's inclusion proof, made from the tiles, up to the signed root; and that the log only grew
// since this browser last looked (a consistency proof from the checkpoint it kept). Loaded only by the
// verify page, on demand. Each check says what it checked; the first that fails says why.
import { commitmentText, LOG_PATH, parseLogEntry, type LogKey, type PersonaVerification } from '@persona/contracts';
import {
  fromBase64,
  openNote,
  parseCheckpoint,
  parseVerifierKey,
  rfc6962,
  sameBytes,
  TiledTree,
  tilePath,
  toBase64,
  toHex,
  verifyConsistency,
  verifyInclusion,
  webEd25519Verify,
  webSha256,
  type TileSource,
} from '@persona/transparency-log';

export interface LogCheck {
  ok: boolean;
  text: string;
}

export interface LogProof {
  /** Every check made, in order; the last one failed when `ok` is false. */
  checks: LogCheck[];
  ok: boolean;
  /** The entry is newer than the checkpoint the log serves: ask again in a few seconds. */
  pending?: boolean;
}

/** What the browser keeps of the last checkpoint it saw of a log: its size and root. */
export interface SeenCheckpoint {
  size: number;
  root: string;
}

export interface ProofIo {
  fetchBytes(url: string): Promise<Uint8Array>;
  fetchText(url: string): Promise<string>;
  /** The checkpoint this browser saw last of `origin`, and keeping a newer one. */
  lastSeen(origin: string): SeenCheckpoint | null;
  remember(origin: string, seen: SeenCheckpoint): void;
}

const STORAGE_PREFIX = 'persona-log:';

/** The browser's own: fetch from the shop, localStorage for the last checkpoint (none when storage is refused). */
export const browserIo: ProofIo = {
  async fetchBytes(url) {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url.replace(`${LOG_PATH}/`, '')} could not be read (${res.status})`);
    return new Uint8Array(await res.arrayBuffer());
  },
  async fetchText(url) {
    const res = await fetch(url, { cache: 'no-store' });
    if (!res.ok) throw new Error(`${url} could not be read (${res.status})`);
    return res.text();
  },
  lastSeen(origin) {
    try {
      const saved = JSON.parse(localStorage.getItem(STORAGE_PREFIX + origin) ?? 'null') as SeenCheckpoint | null;
      return saved && Number.isSafeInteger(saved.size) && typeof saved.root === 'string' ? saved : null;
    } catch {
      return null;
    }
  },
  remember(origin, seen) {
    try {
      localStorage.setItem(STORAGE_PREFIX + origin, JSON.stringify(seen));
    } catch {
      // Private browsing may refuse storage: the next visit checks without the consistency proof.
    }
  },
};

const encoder = new TextEncoder();
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-IN')} ${n === 1 ? one : many}`;

/** Checks Persona `data`'s place in the log of `key`, as described at the top of this file. */
export async function checkLogProof(data: Pick<PersonaVerification, 'log' | 'record' | 'copy'>, key: LogKey, io: ProofIo = browserIo): Promise<LogProof> {
  const checks: LogCheck[] = [];
  const fail = (text: string): LogProof => ({ checks: [...checks, { ok: false, text }], ok: false });
  const place = data.log;
  if (!place) return fail('This Persona is not in the public log yet: the shop adds each copy within a minute of making it.');
  if (place.origin !== key.origin) return fail(`The entry is in the log "${place.origin}", not the shop's log "${key.origin}".`);
  try {
    const hasher = rfc6962(webSha256);
    // 1. The checkpoint, signed by the log's key.
    const verifier = await parseVerifierKey(webSha256, key.verifierKey);
    let text: string;
    try {
      ({ text } = await openNote(await io.fetchText(`${LOG_PATH}/checkpoint`), [verifier], webEd25519Verify));
    } catch (err) {
      return fail(`The log's checkpoint is not signed by the shop's log key: ${(err as Error).message}`);
    }
    const { size, root } = parseCheckpoint(text, key.origin);
    checks.push({
      ok: true,
      text: `The log's latest checkpoint is signed by the shop's log key: ${plural(size, 'entry', 'entries')}, root ${toHex(root).slice(0, 16)}…`,
    });
    if (place.index >= size) return { checks, ok: false, pending: true };

    // 2. The entry commits to the record this page shows.
    const entry = parseLogEntry(place.entry);
    if (!entry || (entry.type !== 'persona' && entry.type !== 'reissue')) return fail(`Entry ${place.index} is not a copy's entry.`);
    if (data.record === null) {
      checks.push({
        ok: true,
        text: `Entry ${place.index} records copy No. ${entry.copy}; this Persona's record is private, so the shop checked its commitment.`,
      });
    } else {
      const commitment = toHex(await webSha256(encoder.encode(commitmentText(place.salt, data.record))));
      const record = JSON.parse(data.record) as { bookId?: string };
      if (commitment !== entry.commitment || record.bookId !== entry.book || entry.copy !== data.copy)
        return fail(`Entry ${place.index} does not commit to this Persona's signed record: it is not this copy's entry.`);
      checks.push({
        ok: true,
        text: `Entry ${place.index} is copy No. ${entry.copy} of this book, and commits to this Persona's signed record (SHA-256 of its salt and record: ${commitment.slice(0, 16)}…).`,
      });
    }

    // 3. The entry is in the tree whose root the checkpoint signs.
    let tilesRead = 0;
    const tiles: TileSource = {
      tile: (level, index, width) => {
        tilesRead += 1;
        return io.fetchBytes(`${LOG_PATH}/${tilePath(level, index, width)}`);
      },
    };
    const tree = new TiledTree(hasher, tiles, size);
    const proof = await tree.inclusionProof(place.index);
    try {
      await verifyInclusion(hasher, place.index, size, await hasher.leaf(encoder.encode(place.entry)), proof, root);
    } catch (err) {
      return fail(`Entry ${place.index} is not in the log the checkpoint signs: ${(err as Error).message}`);
    }
    checks.push({
      ok: true,
      text: `Its inclusion proof (${plural(proof.length, 'hash', 'hashes')}, from ${plural(tilesRead, 'tile')}) leads to the signed root.`,
    });

    // 4. The log only grew since this browser last saw it.
    const seen = io.lastSeen(key.origin);
    const rootText = toBase64(root);
    if (!seen) {
      checks.push({ ok: true, text: 'This browser had not seen this log before: it keeps this checkpoint, to check next time that the log only grew.' });
    } else {
      const [older, newer] =
        seen.size <= size
          ? [
              { size: seen.size, root: fromBase64(seen.root) },
              { size, root },
            ]
          : [
              { size, root },
              { size: seen.size, root: fromBase64(seen.root) },
            ];
      try {
        if (older.size === newer.size) {
          if (!sameBytes(older.root, newer.root)) throw new Error('two different roots for the same size');
        } else if (older.size > 0) {
          const bigger = new TiledTree(hasher, tiles, newer.size);
          await verifyConsistency(hasher, older.size, newer.size, await bigger.consistencyProof(older.size), older.root, newer.root);
        }
      } catch (err) {
        return fail(`The log is not the one this browser saw before (${plural(seen.size, 'entry', 'entries')}): ${(err as Error).message}. Tell the shop.`);
      }
      checks.push({
        ok: true,
        text:
          seen.size === size
            ? `It is the same log this browser saw before (${plural(size, 'entry', 'entries')}).`
            : `The log only grew since this browser last saw it: a consistency proof from ${plural(older.size, 'entry', 'entries')} to ${plural(newer.size, 'entry', 'entries')} holds.`,
      });
    }
    if (!seen || size > seen.size) io.remember(key.origin, { size, root: rootText });
    return { checks, ok: true };
  } catch (err) {
    const message = (err as Error).message;
    if (/ed25519|algorithm|not supported/i.test(message)) return fail('This browser cannot check Ed25519 signatures; the checks above are all it could make.');
    return fail(`The log could not be checked: ${message}`);
  }
}

const LATER: Partial<Record<string, string>> = {
  refund: 'this copy was refunded.',
  // The twin (issue 27): the printed book's QR code opens this page, the same entry's.
  printed: 'a printed copy of it was made; its QR code opens this page.',
  shipped: 'its printed copy was shipped.',
};

/** What happened after the copy, in the log's words: a refund, a printed copy made and shipped. */
export function laterEvents(place: NonNullable<PersonaVerification['log']>): string[] {
  return place.later.map(({ index, entry }) => `Entry ${index}: ${LATER[parseLogEntry(entry)?.type ?? ''] ?? entry}`);
}
