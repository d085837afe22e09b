// The public log of Personas (issue 27): what its entries say, for the writer that appends them,
// the verify page that finds a copy's entry, and the audit that reads them all. An entry is one line
// of canonical JSON (keys sorted, no spaces, UTF-8), never with personal data: a copy is present
// only as a commitment, the SHA-256 of a secret salt followed by its signed record (the record the
// verify page shows its holder, with the salt). The log's C2SP files and proofs are
// @persona/transparency-log's.
import { Type, type Static } from '@sinclair/typebox';

/** Where the log's files are served, under the shop's address: `<base>/checkpoint`, `<base>/tile/…`. */
export const LOG_PATH = '/api/log';

export type LogEntry =
  /** A copy made: its book, its number among the book's copies, its commitment. */
  | { v: 1; type: 'persona'; book: string; copy: number; commitment: string }
  /** A copy made again with corrected names: the same number, a new commitment, and the entry it replaces. */
  | { v: 1; type: 'reissue'; book: string; copy: number; commitment: string; replaces: number }
  /** A number taken by a copy that could not be made: it is no gap. */
  | { v: 1; type: 'revoked'; book: string; copy: number; reason: string }
  /** The copy of entry `of` was refunded: it is genuine, and no longer licensed. */
  | { v: 1; type: 'refund'; of: number }
  /** A printed copy of entry `of` was made: its print files passed the preflight (the book's QR opens that entry's page). */
  | { v: 1; type: 'printed'; of: number }
  /** The printed copy of entry `of` left for its reader. */
  | { v: 1; type: 'shipped'; of: number };

export type LogEntryType = LogEntry['type'];

/** The entry's text: canonical JSON (keys in code-unit order, no whitespace). */
export function formatLogEntry(entry: LogEntry): string {
  const record = entry as unknown as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${JSON.stringify(record[key])}`)
    .join(',')}}`;
}

const HEX64 = /^[0-9a-f]{64}$/;
const isCount = (value: unknown, min: number): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= min;

/** An entry read back, or null when the text is not one (or not in its canonical form). */
export function parseLogEntry(text: string): LogEntry | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const e = value as Record<string, unknown>;
  if (e.v !== 1) return null;
  const bookCopy = typeof e.book === 'string' && e.book !== '' && isCount(e.copy, 1);
  let entry: LogEntry | null = null;
  if (e.type === 'persona' && bookCopy && typeof e.commitment === 'string' && HEX64.test(e.commitment)) {
    entry = { v: 1, type: 'persona', book: e.book as string, copy: e.copy as number, commitment: e.commitment };
  } else if (e.type === 'reissue' && bookCopy && typeof e.commitment === 'string' && HEX64.test(e.commitment) && isCount(e.replaces, 0)) {
    entry = { v: 1, type: 'reissue', book: e.book as string, copy: e.copy as number, commitment: e.commitment, replaces: e.replaces };
  } else if (e.type === 'revoked' && bookCopy && typeof e.reason === 'string') {
    entry = { v: 1, type: 'revoked', book: e.book as string, copy: e.copy as number, reason: e.reason };
  } else if ((e.type === 'refund' || e.type === 'printed' || e.type === 'shipped') && isCount(e.of, 0)) {
    entry = { v: 1, type: e.type, of: e.of };
  }
  // Only the one text of each entry is an entry: the same fields spelt otherwise are not.
  return entry && formatLogEntry(entry) === text ? entry : null;
}

/** The text whose SHA-256 (hexadecimal) is a copy's commitment: its salt, then its signed record. */
export const commitmentText = (salt: string, record: string) => `${salt}${record}`;

/**
 * What a reader of the whole log checks beyond its hashes: each book's copy numbers first appear
 * 1, 2, 3… in log order (a number is a copy's, or revoked, never skipped or taken twice), a
 * re-issue names an earlier entry of the same book and number, a refund or a printed copy an
 * earlier copy, and a shipment a copy printed before.
 * Answers each problem with the entry's index.
 */
export class LogRules {
  readonly #lastCopy = new Map<string, number>();
  /** Each copy entry's book and number, by index. */
  readonly #copies = new Map<number, { book: string; copy: number }>();
  /** The copies whose printed copy was made, by their entry's index. */
  readonly #printed = new Set<number>();
  readonly problems: string[] = [];
  /** Entries read, and copies numbered per book. */
  entries = 0;

  get books(): ReadonlyMap<string, number> {
    return this.#lastCopy;
  }

  add(index: number, text: string): void {
    this.entries += 1;
    const entry = parseLogEntry(text);
    if (!entry) return void this.problems.push(`entry ${index}: not an entry of this log: ${JSON.stringify(text.slice(0, 80))}`);
    if (entry.type === 'refund' || entry.type === 'printed') {
      if (!this.#copies.has(entry.of))
        this.problems.push(`entry ${index}: ${entry.type === 'refund' ? 'refunds' : 'prints'} entry ${entry.of}, which is not an earlier copy`);
      else if (entry.type === 'printed') this.#printed.add(entry.of);
      return;
    }
    if (entry.type === 'shipped') {
      if (!this.#printed.has(entry.of)) this.problems.push(`entry ${index}: ships entry ${entry.of}, whose printed copy the log has not recorded`);
      return;
    }
    const last = this.#lastCopy.get(entry.book) ?? 0;
    if (entry.type === 'reissue') {
      const replaced = this.#copies.get(entry.replaces);
      if (!replaced || replaced.book !== entry.book || replaced.copy !== entry.copy)
        this.problems.push(`entry ${index}: re-issues copy ${entry.copy} of ${entry.book}, but entry ${entry.replaces} is not that copy`);
    } else if (entry.copy === last + 1) {
      this.#lastCopy.set(entry.book, entry.copy);
    } else if (entry.copy > last + 1) {
      this.problems.push(`entry ${index}: copy ${entry.copy} of ${entry.book} comes before copy ${last + 1}`);
      this.#lastCopy.set(entry.book, entry.copy);
    } else if (entry.type === 'revoked') {
      this.problems.push(`entry ${index}: revokes copy ${entry.copy} of ${entry.book}, a number already used`);
    }
    // A copy whose number was revoked (it failed) and that was made later keeps its number.
    if (entry.type !== 'revoked') this.#copies.set(index, { book: entry.book, copy: entry.copy });
  }
}

/** Where a Persona stands in the public log (the verify page; GET /api/personas/:id/verify). */
export const PersonaLogPlace = Type.Object({
  /** The log's origin, as its checkpoints name it ("persona-books.in/api/log"). */
  origin: Type.String(),
  /** The copy's entry: its index in the log, and its text. */
  index: Type.Integer({ minimum: 0 }),
  entry: Type.String(),
  /** The salt of its commitment: SHA-256(salt ‖ record) is the entry's commitment. */
  salt: Type.String(),
  /** Entries that came after about this copy (a refund), by index and text. */
  later: Type.Array(Type.Object({ index: Type.Integer({ minimum: 0 }), entry: Type.String() })),
});
export type PersonaLogPlace = Static<typeof PersonaLogPlace>;

/** The shop's log and its key (GET /api/personas/public-key): `<origin>`'s checkpoints are signed by `verifierKey`. */
export const LogKey = Type.Object({
  origin: Type.String(),
  /** The C2SP signed-note verifier key: "<name>+<key id>+<base64 key>". */
  verifierKey: Type.String(),
});
export type LogKey = Static<typeof LogKey>;
